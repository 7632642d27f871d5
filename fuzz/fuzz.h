/*
 * fuzz.h - what the fuzz targets share: the libFuzzer entry point, a check
 * that aborts (so libFuzzer and the standalone driver both report it), and
 * an allocator with a ceiling, so a crafted size is refused by the core's
 * checks or answered by NULL (BLOOM_E_NOMEM), never by exhausting the host.
 */
#ifndef BLOOMFILTER_FUZZ_H
#define BLOOMFILTER_FUZZ_H

#include "bloom.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property every accepted input must have; a violation is a bug found. */
#define FUZZ_CHECK(cond)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* A refusal names its reason: a known status and a message. */
#define FUZZ_CHECK_REFUSAL(st, err)                                                      \
    do {                                                                                 \
        FUZZ_CHECK((st) > BLOOM_OK && (st) <= BLOOM_E_NOMEM);                            \
        FUZZ_CHECK((err).status == (st) && (err).message[0] != '\0');                    \
    } while (0)

/* Live bytes above this: the allocator says no. */
#define FUZZ_MEMORY_CEILING ((size_t)256 << 20)

typedef struct fuzz_heap {
    size_t live;
} fuzz_heap;

static inline void *fuzz_alloc(void *ctx, size_t size)
{
    fuzz_heap *heap = ctx;
    if (size > FUZZ_MEMORY_CEILING - heap->live)
        return NULL;
    size_t *p = malloc(sizeof(size_t) + size);
    if (p == NULL)
        return NULL;
    *p = size;
    heap->live += size;
    return p + 1;
}

static inline void fuzz_release(void *ctx, void *ptr)
{
    fuzz_heap *heap = ctx;
    if (ptr == NULL)
        return;
    size_t *p = (size_t *)ptr - 1;
    heap->live -= *p;
    free(p);
}

static inline bloom_allocator fuzz_allocator(fuzz_heap *heap)
{
    bloom_allocator a = {fuzz_alloc, fuzz_release, heap};
    return a;
}

/* A copy in a buffer of exactly `size` bytes: AddressSanitizer then sees a
 * read one byte past the input, and the core may write into it. */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size > 0 ? size : 1);
    FUZZ_CHECK(copy != NULL);
    if (size > 0)
        memcpy(copy, data, size);
    return copy;
}

#endif
