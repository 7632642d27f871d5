/*
 * bench_util.h - what the deterministic benchmarks (bench_compose.c,
 * bench_variants.c) share: malloc as the core's allocator, the fixed key
 * streams, and a failure that stops the run.  Define BENCH_NAME first.
 */
#ifndef BLOOMFILTER_BENCH_UTIL_H
#define BLOOMFILTER_BENCH_UTIL_H

#include "bloom.h"

#include <stdio.h>
#include <stdlib.h>

static inline void *bench_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static inline void bench_release(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static const bloom_allocator alloc = {bench_alloc, bench_release, NULL};

/* Distinct 64-bit keys: splitmix64 of (stream, i). */
static inline uint64_t key_at(uint64_t stream, uint64_t i)
{
    uint64_t z = stream * UINT64_C(0x9e3779b97f4a7c15) * 1000003 + i * UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline void die(const char *what, const bloom_error *err)
{
    fprintf(stderr, "%s: %s: %s\n", BENCH_NAME, what, err->message);
    exit(1);
}

#endif
