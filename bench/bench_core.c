/*
 * bench_core.c - the core's add and contains against a textbook Bloom filter
 * (k separately seeded hash calls and a modulo each), in the same run.
 *
 * Keys are int64 values hashed the canonical way, as the SQL functions do.
 * Times are ns per operation (the best of several runs for filters that fit
 * in cache, one run for the large ones); "absent" probes use keys never
 * added, so they also measure the false-positive rate.
 */
#define _POSIX_C_SOURCE 199309L
#include "bloom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int64_t present_key(uint64_t i)
{
    return (int64_t)(i * 2 + 1);
}

static int64_t absent_key(uint64_t i)
{
    return -(int64_t)(i * 2 + 2);
}

/* ---- the textbook filter: k hash calls, k modulos ---- */

typedef struct textbook {
    uint64_t nbits;
    unsigned k;
    uint8_t *bits;
} textbook;

/* A hash call, as a library's XXH64 is: kept out of line so the compiler
 * cannot share work between the k seeded calls of one key. */
__attribute__((noinline)) static uint64_t textbook_hash(const void *key, size_t len, uint64_t seed)
{
    return XXH64(key, len, seed);
}

static void textbook_add(textbook *t, int64_t key)
{
    for (unsigned i = 0; i < t->k; i++) {
        uint64_t bit = textbook_hash(&key, sizeof key, i) % t->nbits;
        t->bits[bit >> 3] |= (uint8_t)(1u << (bit & 7));
    }
}

static int textbook_contains(const textbook *t, int64_t key)
{
    for (unsigned i = 0; i < t->k; i++) {
        uint64_t bit = textbook_hash(&key, sizeof key, i) % t->nbits;
        if (!(t->bits[bit >> 3] & (1u << (bit & 7))))
            return 0;
    }
    return 1;
}

/* ---- one measurement ---- */

enum impl { CORE_CLASSIC, CORE_BLOCKED, TEXTBOOK };
static const char *impl_names[] = {"core classic", "core blocked", "textbook"};

typedef struct result {
    double add_ns, present_ns, absent_ns, measured_fpr, theory_fpr, bits_per_value;
    uint64_t nbits, added;
} result;

static volatile uint64_t sink;

static result measure(enum impl impl, uint64_t capacity, uint64_t adds, uint64_t probes, int runs)
{
    int layout = impl == CORE_BLOCKED ? BLOOM_LAYOUT_BLOCKED : BLOOM_LAYOUT_CLASSIC;
    uint64_t nbits;
    unsigned k;
    bloom_error err;
    if (bloom_params_for_capacity(layout, capacity, 0.01, &nbits, &k, &err) != BLOOM_OK) {
        fprintf(stderr, "bench: %s\n", err.message);
        exit(1);
    }
    size_t size = bloom_serialized_size(nbits);
    uint8_t *buf = malloc(size);
    if (buf == NULL) {
        fprintf(stderr, "bench: out of memory for %zu bytes\n", size);
        exit(1);
    }
    result r = {1e30, 1e30, 1e30, 0, 0, 0, nbits, adds};
    for (int run = 0; run < runs; run++) {
        bloom_filter f;
        bloom_init(buf, size, layout, nbits, k, 0, &f, NULL);
        textbook t = {nbits, k, f.bits};
        double t0 = now_ns();
        if (impl == TEXTBOOK)
            for (uint64_t i = 0; i < adds; i++)
                textbook_add(&t, present_key(i));
        else
            for (uint64_t i = 0; i < adds; i++)
                bloom_add_hash(&f, bloom_hash_int64(present_key(i), 0));
        double t1 = now_ns();
        uint64_t hits = 0;
        if (impl == TEXTBOOK)
            for (uint64_t i = 0; i < probes; i++)
                hits += (uint64_t)textbook_contains(&t, present_key(i % adds));
        else
            for (uint64_t i = 0; i < probes; i++)
                hits += bloom_contains_hash(&f, bloom_hash_int64(present_key(i % adds), 0));
        double t2 = now_ns();
        uint64_t false_hits = 0;
        if (impl == TEXTBOOK)
            for (uint64_t i = 0; i < probes; i++)
                false_hits += (uint64_t)textbook_contains(&t, absent_key(i));
        else
            for (uint64_t i = 0; i < probes; i++)
                false_hits += bloom_contains_hash(&f, bloom_hash_int64(absent_key(i), 0));
        double t3 = now_ns();
        if (hits != probes) {
            fprintf(stderr, "bench: %s lost members (%llu of %llu)\n", impl_names[impl],
                    (unsigned long long)hits, (unsigned long long)probes);
            exit(1);
        }
        sink += hits;
        r.add_ns = fmin(r.add_ns, (t1 - t0) / (double)adds);
        r.present_ns = fmin(r.present_ns, (t2 - t1) / (double)probes);
        r.absent_ns = fmin(r.absent_ns, (t3 - t2) / (double)probes);
        r.measured_fpr = (double)false_hits / (double)probes;
    }
    double fill = 1 - exp(-(double)k * (double)adds / (double)nbits);
    r.theory_fpr = pow(fill, k);
    if (layout == BLOOM_LAYOUT_BLOCKED) {
        /* the Poisson mixture over block loads; the same model sizes it */
        double lambda = (double)adds / (double)(nbits / 256), sum = 0;
        for (double j = 0; j < lambda + 12 * sqrt(lambda) + 30; j++)
            sum += exp(j * log(lambda) - lambda - lgamma(j + 1)) * pow(1 - pow(31.0 / 32, j), 8);
        r.theory_fpr = sum;
    }
    r.bits_per_value = (double)nbits / (double)adds;
    free(buf);
    return r;
}

static void print_header(void)
{
    printf("| filter | values added | size | ns/add | ns/contains present | ns/contains absent "
           "| bits/value | fpr measured | fpr theory |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void print_row(enum impl impl, const result *r)
{
    double mib = (double)bloom_serialized_size(r->nbits) / (1024.0 * 1024.0);
    printf("| %s | %llu | %.2f MiB | %.1f | %.1f | %.1f | %.2f | %.5f | %.5f |\n", impl_names[impl],
           (unsigned long long)r->added, mib, r->add_ns, r->present_ns, r->absent_ns,
           r->bits_per_value, r->measured_fpr, r->theory_fpr);
}

/* Partial bloom_agg states (what Citus shards, send/recv and parallel
 * workers move): bytes per distinct value of 1.0's raw hashes and of the
 * Rice-coded state, binary and as PostgreSQL's text form (1.0: "\x" + hex;
 * now "b64:" + base64), beside the information, log2 C(2^64, n) / n; and the
 * time to read each, the raw one as the baseline. */
static void *bench_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void bench_release(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void bench_states(uint64_t max_n)
{
    bloom_allocator alloc = {bench_alloc, bench_release, NULL};
    printf("## Partial bloom_agg states: bytes per distinct value\n\n");
    printf("| distinct | binary 1.0 | binary now | text 1.0 (hex) | text now (base64) | information "
           "| ns/value read 1.0 | ns/value read now | read now / 1.0 |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (uint64_t n = 1000; n <= max_n; n *= 10) {
        bloom_builder *b, *back;
        bloom_error err;
        if (bloom_builder_create(&alloc, 0, 0.01, 0, &b, &err) != BLOOM_OK)
            abort();
        for (uint64_t i = 0; i < n; i++)
            if (bloom_builder_add_hash(b, bloom_hash_int64((int64_t)i, 0), &err) != BLOOM_OK)
                abort();
        size_t len;
        if (bloom_builder_serialized_size(b, &len, &err) != BLOOM_OK)
            abort();
        uint8_t *state = malloc(len), *raw = malloc(32 + 8 * n);
        if (state == NULL || raw == NULL || bloom_builder_serialize(b, state, len, &err) != BLOOM_OK)
            abort();
        /* the same set as a 1.0 state: the header, raw hashes in order */
        memcpy(raw, state, 32);
        raw[7] = 0;
        uint64_t *h = malloc(n * 8);
        if (h == NULL)
            abort();
        for (uint64_t i = 0; i < n; i++)
            h[i] = bloom_hash_int64((int64_t)i, 0);
        qsort(h, n, 8, cmp_u64);
        for (uint64_t i = 0; i < n; i++)
            for (int j = 0; j < 8; j++)
                raw[32 + 8 * i + (uint64_t)j] = (uint8_t)(h[i] >> (8 * j));
        free(h);
        size_t raw_len = 32 + 8 * n;
        double t_raw = 1e300, t_now = 1e300;
        for (int run = 0; run < 3; run++) {
            double t0 = now_ns();
            if (bloom_builder_deserialize(&alloc, raw, raw_len, &back, &err) != BLOOM_OK)
                abort();
            double t1 = now_ns();
            bloom_builder_destroy(back);
            double t2 = now_ns();
            if (bloom_builder_deserialize(&alloc, state, len, &back, &err) != BLOOM_OK)
                abort();
            double t3 = now_ns();
            bloom_builder_destroy(back);
            t_raw = t1 - t0 < t_raw ? t1 - t0 : t_raw;
            t_now = t3 - t2 < t_now ? t3 - t2 : t_now;
        }
        double dn = (double)n;
        double info = (64.0 - log2(dn) + 1.4427) / 8.0;
        printf("| %llu | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f | %.2f |\n",
               (unsigned long long)n, (double)raw_len / dn, (double)len / dn,
               (2.0 * (double)raw_len + 2) / dn, (4.0 + 4.0 * (double)((len + 2) / 3)) / dn, info,
               t_raw / dn, t_now / dn, t_now / t_raw);
        fflush(stdout);
        bloom_builder_destroy(b);
        free(state);
        free(raw);
    }
    printf("\n");
}

/* The layouts as bloom_agg makes them: the self-sizing builder (hash, keep,
 * sort, size, then insert in sorted order), at 1%; then probes of members
 * and of absent keys, and the false-positive rate; blocked next to classic
 * in the same run.  The question: should blocked be the default above some
 * size (README, "Layouts"). */
static void bench_layouts(uint64_t max_n)
{
    bloom_allocator alloc = {bench_alloc, bench_release, NULL};
    printf("## Layouts through the self-sizing builder (bloom_agg), p = 0.01\n\n");
    printf("| values | layout | size | ns/value build | ns/contains present | ns/contains absent "
           "| fpr measured | blocked / classic: size, build, present, absent |\n");
    printf("|---:|---|---:|---:|---:|---:|---:|---|\n");
    for (uint64_t n = 100000; n <= max_n; n *= 10) {
        double res[2][4] = {{0}};
        for (int layout = 0; layout < 2; layout++) {
            uint64_t probes = n < 10000000 ? 10000000 : n;
            int runs = n <= 1000000 ? 3 : 1;
            double build = 1e300, present = 1e300, absent = 1e300, fpr = 0;
            size_t len = 0;
            for (int run = 0; run < runs; run++) {
                bloom_builder *b;
                bloom_error err;
                bloom_filter f;
                double t0 = now_ns();
                if (bloom_builder_create(&alloc, layout, 0.01, 0, &b, &err) != BLOOM_OK)
                    abort();
                for (uint64_t i = 0; i < n; i++)
                    if (bloom_builder_add_hash(b, bloom_hash_int64(present_key(i), 0), &err) !=
                        BLOOM_OK)
                        abort();
                if (bloom_builder_result_size(b, &len, &err) != BLOOM_OK)
                    abort();
                uint8_t *buf = malloc(len);
                if (buf == NULL || bloom_builder_finish(b, buf, len, &f, &err) != BLOOM_OK)
                    abort();
                double t1 = now_ns();
                bloom_builder_destroy(b);
                uint64_t hits = 0, false_hits = 0;
                double t2 = now_ns();
                for (uint64_t i = 0; i < probes; i++)
                    hits += bloom_contains_hash(&f, bloom_hash_int64(present_key(i % n), 0));
                double t3 = now_ns();
                for (uint64_t i = 0; i < probes; i++)
                    false_hits += bloom_contains_hash(&f, bloom_hash_int64(absent_key(i), 0));
                double t4 = now_ns();
                if (hits != probes)
                    abort();
                sink += hits;
                build = fmin(build, (t1 - t0) / (double)n);
                present = fmin(present, (t3 - t2) / (double)probes);
                absent = fmin(absent, (t4 - t3) / (double)probes);
                fpr = (double)false_hits / (double)probes;
                free(buf);
            }
            res[layout][0] = (double)len;
            res[layout][1] = build;
            res[layout][2] = present;
            res[layout][3] = absent;
            printf("| %llu | %s | %.2f MiB | %.1f | %.1f | %.1f | %.5f |", (unsigned long long)n,
                   layout ? "blocked" : "classic", (double)len / (1024.0 * 1024.0), build, present,
                   absent, fpr);
            if (layout)
                printf(" %.2fx, %.2fx, %.2fx, %.2fx |\n", res[1][0] / res[0][0],
                       res[1][1] / res[0][1], res[1][2] / res[0][2], res[1][3] / res[0][3]);
            else
                printf(" |\n");
            fflush(stdout);
        }
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    if (argc > 1 && strcmp(argv[1], "--states") == 0) {
        bench_states(10000000);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--layouts") == 0) {
        bench_layouts(100000000);
        return 0;
    }

    printf("## Core against a textbook filter (k seeded XXH64 calls and a modulo), p = 0.01\n\n");
    struct {
        const char *label;
        uint64_t capacity, textbook_adds, probes;
        int runs;
    } scales[] = {
        {"in L1 cache: 10^4 values, 16 KiB", 10000, 10000, 1000000, 5},
        {"in L2 cache: 10^5 values, 128 KiB (blocked 256 KiB)", 100000, 100000, 1000000, 5},
        /* 2^31 bits, 256 MiB: the size class of 220M values at 1% (classic,
         * up to 223.8M; blocked takes 2^32 bits from 204M).  The textbook
         * filter takes ~5 minutes to fill at this size, so it gets its first
         * 2 * 10^7 values only: its adds and present probes touch k lines
         * whatever the fill, its absent probes stop earlier in an emptier
         * filter (which flatters it). */
        {"out of cache: 256 MiB (blocked 512 MiB)", 220000000, 20000000, 10000000, 1},
    };
    double core_present[3] = {0}, text_present[3] = {0}, core_absent[3] = {0}, text_absent[3] = {0},
           core_add[3] = {0}, text_add[3] = {0};
    for (int s = 0; s < (quick ? 2 : 3); s++) {
        printf("### %s\n\n", scales[s].label);
        print_header();
        for (int impl = 0; impl < 3; impl++) {
            uint64_t adds = impl == TEXTBOOK ? scales[s].textbook_adds : scales[s].capacity;
            result r = measure((enum impl)impl, scales[s].capacity, adds, scales[s].probes,
                               scales[s].runs);
            print_row((enum impl)impl, &r);
            fflush(stdout);
            if (impl == CORE_CLASSIC) {
                core_add[s] = r.add_ns;
                core_present[s] = r.present_ns;
                core_absent[s] = r.absent_ns;
            } else if (impl == TEXTBOOK) {
                text_add[s] = r.add_ns;
                text_present[s] = r.present_ns;
                text_absent[s] = r.absent_ns;
            }
        }
        printf("\ncore classic speed-up over textbook: add %.1fx, contains present %.1fx, "
               "contains absent %.1fx\n\n",
               text_add[s] / core_add[s], text_present[s] / core_present[s],
               text_absent[s] / core_absent[s]);
    }
    if (quick) {
        bench_states(100000);
        return 0;
    }
    bench_states(10000000);

    printf("## Layouts side by side (blocked: one cache line per value)\n\n");
    print_header();
    const uint64_t sizes[] = {100000, 10000000, 100000000};
    for (int s = 0; s < 3; s++)
        for (int impl = 0; impl < 2; impl++) {
            result r = measure((enum impl)impl, sizes[s], sizes[s], s == 0 ? 1000000 : 10000000,
                               s == 0 ? 5 : 1);
            print_row((enum impl)impl, &r);
            fflush(stdout);
        }
    printf("\n");
    bench_layouts(100000000);
    return 0;
}
