/*
 * test_main.c - runs every core test and prints "core: N passed, M failed".
 */
#include "util.h"

#include <math.h>
#include <string.h>

int test_current_failed;

static void *heap_alloc(void *ctx, size_t size)
{
    counting_heap *heap = ctx;
    if (heap->fail_after == 0)
        return NULL;
    if (heap->fail_after > 0)
        heap->fail_after--;
    size_t *p = malloc(size + sizeof(size_t) * 2);
    if (p == NULL)
        return NULL;
    p[0] = size;
    heap->live += size;
    if (heap->live > heap->peak)
        heap->peak = heap->live;
    return p + 2;
}

static void heap_release(void *ctx, void *ptr)
{
    counting_heap *heap = ctx;
    size_t *p = (size_t *)ptr - 2;
    heap->live -= p[0];
    free(p);
}

bloom_allocator counting_allocator(counting_heap *heap)
{
    bloom_allocator a = {heap_alloc, heap_release, heap};
    return a;
}

static void *plain_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void plain_release(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

const bloom_allocator malloc_allocator = {plain_alloc, plain_release, NULL};

uint8_t *new_filter(int layout, uint64_t nbits, unsigned nhashes, uint64_t seed, bloom_filter *f)
{
    size_t size = bloom_layout_size(layout, nbits);
    uint8_t *buf = size ? malloc(size) : NULL;
    bloom_error err;
    if (buf == NULL || bloom_init(buf, size, layout, nbits, nhashes, seed, f, &err) != BLOOM_OK) {
        fprintf(stderr, "cannot make a filter of %llu bits\n", (unsigned long long)nbits);
        abort();
    }
    return buf;
}

uint8_t *new_filter_for(int layout, uint64_t capacity, double fpr, uint64_t seed, bloom_filter *f)
{
    uint64_t nbits;
    unsigned k;
    if (bloom_params_for_capacity(layout, capacity, fpr, &nbits, &k, NULL) != BLOOM_OK)
        abort();
    return new_filter(layout, nbits, k, seed, f);
}

uint8_t *finish_builder(bloom_builder *b, bloom_filter *f)
{
    size_t len;
    if (bloom_builder_result_size(b, &len, NULL) != BLOOM_OK)
        abort();
    uint8_t *buf = malloc(len);
    if (bloom_builder_finish(b, buf, len, f, NULL) != BLOOM_OK)
        abort();
    return buf;
}

uint64_t key_at(uint64_t stream, uint64_t i)
{
    uint64_t z = (i + 1) * UINT64_C(0x9e3779b97f4a7c15) + stream * UINT64_C(0xd1b54a32d192ed03);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

double measured_fpr(const bloom_filter *f, uint64_t probes)
{
    uint64_t hits = 0;
    for (uint64_t i = 0; i < probes; i++)
        hits += bloom_contains_hash(f, key_at(999, i));
    return (double)hits / (double)probes;
}

double optimal_classic_bits(double n, double fpr)
{
    return -n * log(fpr) / (log(2.0) * log(2.0));
}

int main(int argc, char **argv)
{
    struct {
        const test_case *cases;
        size_t count;
    } groups[] = {{format_tests, format_tests_count},   {hash_tests, hash_tests_count},
                  {filter_tests, filter_tests_count},   {builder_tests, builder_tests_count},
                  {golden_tests, golden_tests_count},   {probe_tests, probe_tests_count},
                  {state_tests, state_tests_count},
                  {fold_tests, fold_tests_count},
                  {order_tests, order_tests_count},
                  {params_tests, params_tests_count},
                  {variant_tests, variant_tests_count},
                  {slices_tests, slices_tests_count},
                  {slice_block_tests, slice_block_tests_count},
                  {kinds_tests, kinds_tests_count}};
    int passed = 0, failed = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        for (size_t i = 0; i < groups[g].count; i++) {
            const test_case *t = &groups[g].cases[i];
            if (argc > 1 && strstr(t->name, argv[1]) == NULL)
                continue;
            test_current_failed = 0;
            t->run();
            printf("%s - %s\n", test_current_failed ? "FAILED" : "ok", t->name);
            fflush(stdout);
            if (test_current_failed)
                failed++;
            else
                passed++;
        }
    }
    printf("core: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
