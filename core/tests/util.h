/*
 * util.h - helpers shared by the core tests.
 */
#ifndef BLOOMFILTER_TEST_UTIL_H
#define BLOOMFILTER_TEST_UTIL_H

#include "bloom.h"
#include "harness.h"

#include <stdlib.h>

/* A malloc-backed allocator that counts live bytes and can be told to fail. */
typedef struct counting_heap {
    size_t live, peak;
    long fail_after; /* allocations left before returning NULL; -1 never */
} counting_heap;

bloom_allocator counting_allocator(counting_heap *heap);
/* malloc and free, nothing counted. */
extern const bloom_allocator malloc_allocator;

/* A new filter on the heap (free with free()); aborts the test on error. */
uint8_t *new_filter(int layout, uint64_t nbits, unsigned nhashes, uint64_t seed, bloom_filter *f);
uint8_t *new_filter_for(int layout, uint64_t capacity, double fpr, uint64_t seed, bloom_filter *f);
/* The builder's filter on the heap (free with free()); aborts the test on error. */
uint8_t *finish_builder(bloom_builder *b, bloom_filter *f);

/* A deterministic stream of distinct 64-bit keys (splitmix64). */
uint64_t key_at(uint64_t stream, uint64_t i);

double optimal_classic_bits(double n, double fpr);
/* Share of `probes` keys of stream 999 (disjoint from the tests' others)
 * that the filter reports present. */
double measured_fpr(const bloom_filter *f, uint64_t probes);

#define TEST_LIST(name) extern const test_case name[]; extern const size_t name##_count
TEST_LIST(format_tests);
TEST_LIST(filter_tests);
TEST_LIST(hash_tests);
TEST_LIST(builder_tests);
TEST_LIST(golden_tests);
TEST_LIST(probe_tests);
TEST_LIST(state_tests);
TEST_LIST(fold_tests);
TEST_LIST(order_tests);
TEST_LIST(params_tests);
TEST_LIST(variant_tests);
TEST_LIST(slices_tests);
TEST_LIST(slice_block_tests);
TEST_LIST(kinds_tests);

#endif
