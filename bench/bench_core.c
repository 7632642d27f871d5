/*
 * bench_core.c - the core's add and contains against textbook Bloom filters
 * and against the machine's limit, in the same run:
 *
 *   first (bench_limits, also alone: --limits [--quick]): insert and probe,
 *   classic and blocked, in L2, beyond it and beyond every cache, next to a
 *   textbook filter (double hashing) and to one memory access (a pointer
 *   chase over a buffer as big as the filter), with their goals;
 *   then the same against k seeded hash calls and a modulo each, with the
 *   false-positive rates; partial states; the layouts side by side.
 *
 * Keys are int64 values hashed the canonical way, as the SQL functions do.
 * Times are ns per operation (the best of several runs for filters that fit
 * in cache, one run for the large ones); "absent" probes use keys never
 * added, so they also measure the false-positive rate.
 */
#define _POSIX_C_SOURCE 200112L
#define _ISOC11_SOURCE
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

/* ---- probe and insert at the hardware limit ----
 *
 * The baselines of the same run: a textbook filter (k positions by double
 * hashing, h1 + i h2 mod m, over a plain bit array; two XXH64 calls; a probe
 * stops at the first clear bit), and one memory access per probe, measured
 * as a pointer chase through a random cyclic permutation of the cache lines
 * of a buffer as big as the filter (each load waits for the one before: the
 * latency of one access to a region of that size, TLB misses included).
 * A blocked probe touches one line, so one such access is its limit. */

typedef struct textbook2 {
    uint64_t nbits;
    unsigned k;
    uint8_t *bits;
} textbook2;

static inline void textbook2_hashes(int64_t key, uint64_t *h1, uint64_t *h2)
{
    *h1 = XXH64(&key, sizeof key, 0);
    *h2 = XXH64(&key, sizeof key, 1);
}

static void textbook2_add(const textbook2 *t, int64_t key)
{
    uint64_t h1, h2;
    textbook2_hashes(key, &h1, &h2);
    for (unsigned i = 0; i < t->k; i++) {
        uint64_t bit = (h1 + i * h2) % t->nbits;
        t->bits[bit >> 3] |= (uint8_t)(1u << (bit & 7));
    }
}

static int textbook2_contains(const textbook2 *t, int64_t key)
{
    uint64_t h1, h2;
    textbook2_hashes(key, &h1, &h2);
    for (unsigned i = 0; i < t->k; i++) {
        uint64_t bit = (h1 + i * h2) % t->nbits;
        if (!(t->bits[bit >> 3] & (1u << (bit & 7))))
            return 0;
    }
    return 1;
}

/* Filters and the chased buffer get the same memory: 2 MiB aligned, huge
 * pages asked for (as PostgreSQL's bloom_empty and the builder ask). */
static void *limit_alloc(size_t size)
{
    size_t huge = (size_t)2 << 20, rounded = (size + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, rounded);
    if (p == NULL) {
        fprintf(stderr, "bench: out of memory for %zu bytes\n", size);
        exit(1);
    }
    bloom_advise_huge_pages(p, rounded);
    memset(p, 0, rounded);
    return p;
}

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ns per load of a chase through every line of a bytes-sized buffer, in
 * one cycle (Sattolo's shuffle), the best of `runs`. */
static double chase_ns(size_t bytes, uint64_t steps, int runs)
{
    uint64_t lines = bytes / 64, rng = 42;
    uint64_t *buf = limit_alloc(bytes);
    for (uint64_t i = 0; i < lines; i++)
        buf[8 * i] = i;
    for (uint64_t i = lines - 1; i > 0; i--) {
        uint64_t j = rng_next(&rng) % i, tmp = buf[8 * i];
        buf[8 * i] = buf[8 * j];
        buf[8 * j] = tmp;
    }
    double best = 1e30;
    uint64_t at = 0;
    for (int run = 0; run < runs; run++) {
        for (uint64_t s = 0; s < lines && s < steps; s++) /* warm: caches and TLB */
            at = buf[8 * at];
        double t0 = now_ns();
        for (uint64_t s = 0; s < steps; s++)
            at = buf[8 * at];
        double t1 = now_ns();
        best = fmin(best, (t1 - t0) / (double)steps);
    }
    sink += at;
    free(buf);
    return best;
}

/* Wait until every instruction before has completed (loads included) and
 * start none after until then: probes one at a time, none overlapping, as
 * the loads of the pointer chase.  x86 (lfence); elsewhere a data
 * dependency on the last answer stands in for it (which branches the CPU
 * predicts may get around). */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define SERIALIZE() __asm__ __volatile__("lfence" ::: "memory")
#else
#define SERIALIZE() ((void)0)
#endif

typedef struct limit_row {
    double insert, member, absent, dependent, batch_member, batch_absent;
} limit_row;

/* Each figure the fastest of the runs: load from elsewhere only slows. */
static void keep_fastest(limit_row *best, limit_row run)
{
    best->insert = fmin(best->insert, run.insert);
    best->member = fmin(best->member, run.member);
    best->absent = fmin(best->absent, run.absent);
    best->dependent = fmin(best->dependent, run.dependent);
    best->batch_member = fmin(best->batch_member, run.batch_member);
    best->batch_absent = fmin(best->batch_absent, run.batch_absent);
}

enum { LIMIT_BATCH = 256 };

/* Core: the per-value calls (bloom_add_hash, bloom_contains_hash) and the
 * batch probe (bloom_contains_hashes, 256 hashes a call, as PostgreSQL's
 * batched scan calls it), each hashing its int64 keys canonically. */
static limit_row limit_core(int layout, uint64_t nbits, unsigned k, uint64_t n, uint64_t probes,
                            int runs)
{
    size_t size = bloom_serialized_size(nbits);
    uint8_t *buf = limit_alloc(size);
    limit_row r = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30};
    for (int run = 0; run < runs; run++) {
        bloom_filter f;
        bloom_init(buf, size, layout, nbits, k, 0, &f, NULL);
        double t0 = now_ns();
        for (uint64_t i = 0; i < n; i++)
            bloom_add_hash(&f, bloom_hash_int64(present_key(i), 0));
        double t1 = now_ns();
        uint64_t hits = 0, j = 0;
        for (uint64_t i = 0; i < probes; i++) {
            hits += bloom_contains_hash(&f, bloom_hash_int64(present_key(j), 0));
            j = j + 1 == n ? 0 : j + 1;
        }
        double t2 = now_ns();
        for (uint64_t i = 0; i < probes; i++)
            hits += bloom_contains_hash(&f, bloom_hash_int64(absent_key(i), 0));
        double t3 = now_ns();
        /* one probe at a time: the latency of a probe */
        uint64_t last = 1;
        j = 0;
        for (uint64_t i = 0; i < probes; i++) {
            last = bloom_contains_hash(&f, bloom_hash_int64(present_key(j ^ (last ^ 1)), 0));
            hits += last;
            j = j + 1 == n ? 0 : j + 1;
            SERIALIZE();
        }
        double t3b = now_ns();
        uint64_t hashes[LIMIT_BATCH];
        bool out[LIMIT_BATCH];
        j = 0;
        for (uint64_t i = 0; i < probes; i += LIMIT_BATCH) {
            for (int b = 0; b < LIMIT_BATCH; b++) {
                hashes[b] = bloom_hash_int64(present_key(j), 0);
                j = j + 1 == n ? 0 : j + 1;
            }
            bloom_contains_hashes(&f, hashes, LIMIT_BATCH, out);
            for (int b = 0; b < LIMIT_BATCH; b++)
                hits += out[b];
        }
        double t4 = now_ns();
        for (uint64_t i = 0; i < probes; i += LIMIT_BATCH) {
            for (int b = 0; b < LIMIT_BATCH; b++)
                hashes[b] = bloom_hash_int64(absent_key(i + (uint64_t)b), 0);
            bloom_contains_hashes(&f, hashes, LIMIT_BATCH, out);
            for (int b = 0; b < LIMIT_BATCH; b++)
                hits += out[b];
        }
        double t5 = now_ns();
        sink += hits;
        keep_fastest(&r, (limit_row){(t1 - t0) / (double)n, (t2 - t1) / (double)probes,
                                     (t3 - t2) / (double)probes, (t3b - t3) / (double)probes,
                                     (t4 - t3b) / (double)probes, (t5 - t4) / (double)probes});
    }
    free(buf);
    return r;
}

/* The textbook filter of the same bits and k, filled with its first
 * `n` values (all of them unless the size makes that too slow). */
static limit_row limit_textbook(uint64_t nbits, unsigned k, uint64_t n, uint64_t probes, int runs)
{
    size_t size = (size_t)((nbits + 7) / 8);
    uint8_t *bits = limit_alloc(size);
    textbook2 t = {nbits, k, bits};
    limit_row r = {1e30, 1e30, 1e30, 1e30, 0, 0};
    for (int run = 0; run < runs; run++) {
        memset(bits, 0, size);
        double t0 = now_ns();
        for (uint64_t i = 0; i < n; i++)
            textbook2_add(&t, present_key(i));
        double t1 = now_ns();
        uint64_t hits = 0, j = 0;
        for (uint64_t i = 0; i < probes; i++) {
            hits += (uint64_t)textbook2_contains(&t, present_key(j));
            j = j + 1 == n ? 0 : j + 1;
        }
        double t2 = now_ns();
        for (uint64_t i = 0; i < probes; i++)
            hits += (uint64_t)textbook2_contains(&t, absent_key(i));
        double t3 = now_ns();
        uint64_t last = 1;
        j = 0;
        for (uint64_t i = 0; i < probes; i++) {
            last = (uint64_t)textbook2_contains(&t, present_key(j ^ (last ^ 1)));
            hits += last;
            j = j + 1 == n ? 0 : j + 1;
            SERIALIZE();
        }
        double t4 = now_ns();
        sink += hits;
        keep_fastest(&r, (limit_row){(t1 - t0) / (double)n, (t2 - t1) / (double)probes,
                                     (t3 - t2) / (double)probes, (t4 - t3) / (double)probes, 0, 0});
    }
    free(bits);
    return r;
}

/* A size the core and the textbook filter are measured at. */
typedef struct bench_scale {
    const char *label;
    uint64_t capacity, textbook_adds, probes;
    int runs;
} bench_scale;

static const char *verdict(int met)
{
    return met ? "met" : "missed";
}

static void bench_limits(int quick)
{
    const bench_scale scales[] = {
        {"10^5 (in L2)", 100000, 100000, 2000000, 5},
        {"10^7 (beyond L2)", 10000000, 10000000, 10000000, 2},
        /* 2^32 bits, 512 MiB, either layout: beyond every cache of this
         * machine.  Every filter full, the textbook's too (about a minute):
         * in an emptier one its absent probes would stop at the first load. */
        {"4 * 10^8 (beyond every cache)", 400000000, 400000000, 10000000, 1},
    };
    printf("## Probe and insert at the hardware limit, p = 0.01\n\n");
    printf("ns per operation, CPU time, the best of several runs (one at 4 * 10^8), int64 keys "
           "hashed canonically (a key's hash is part of every insert and probe).\n"
           "- textbook: k positions h1 + i h2 mod m over a plain bit array (two XXH64 calls), "
           "stopping at the first clear bit.\n"
           "- one access: a pointer chase through a random cycle over the lines of a buffer as "
           "big as the filter: the latency of one memory access to a region that size.\n"
           "- one at a time: member probes, none started before the last has finished (lfence), "
           "as when a database's scan does too much work between two rows for the CPU to "
           "overlap their probes: the latency of a probe.\n"
           "- batch: bloom_contains_hashes, 256 hashes a call.\n\n");
    printf("| values | filter | size | ns/insert | ns/probe member | ns/probe absent "
           "| ns/probe one at a time | ns/probe batch member | ns/probe batch absent |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    limit_row blocked = {0}, text = {0};
    double access = 0;
    for (int s = 0; s < (quick ? 2 : 3); s++) {
        uint64_t nbits[2];
        unsigned k[2];
        bloom_error err;
        for (int layout = 0; layout < 2; layout++) {
            if (bloom_params_for_capacity(layout, scales[s].capacity, 0.01, &nbits[layout],
                                          &k[layout], &err) != BLOOM_OK) {
                fprintf(stderr, "bench: %s\n", err.message);
                exit(1);
            }
            limit_row r = limit_core(layout, nbits[layout], k[layout], scales[s].capacity,
                                     scales[s].probes, scales[s].runs);
            printf("| %s | core %s, k = %u | %.2f MiB | %.1f | %.1f | %.1f | %.1f | %.1f "
                   "| %.1f |\n",
                   scales[s].label, layout ? "blocked" : "classic", k[layout],
                   (double)nbits[layout] / 8 / 1048576.0, r.insert, r.member, r.absent,
                   r.dependent, r.batch_member, r.batch_absent);
            fflush(stdout);
            if (layout == BLOOM_LAYOUT_BLOCKED)
                blocked = r;
        }
        text = limit_textbook(nbits[0], k[0], scales[s].textbook_adds, scales[s].probes,
                              scales[s].runs);
        printf("| | textbook, k = %u | %.2f MiB | %.1f | %.1f | %.1f | %.1f | | |\n", k[0],
               (double)nbits[0] / 8 / 1048576.0, text.insert, text.member, text.absent,
               text.dependent);
        access = chase_ns((size_t)(nbits[1] / 8), scales[s].probes, scales[s].runs);
        printf("| | one access (pointer chase) | %.2f MiB | | | | %.1f | | |\n",
               (double)nbits[1] / 8 / 1048576.0, access);
        fflush(stdout);
    }
    /* The goals, for a blocked filter beyond the caches (the last size). */
    struct {
        const char *what;
        double value;
        int at_least; /* goal: value >= goal, else value <= goal */
        double goal;
    } figures[] = {
        {"textbook probe / core probe, members", text.member / blocked.member, 1, 5},
        {"textbook probe / core probe, absent", text.absent / blocked.absent, 1, 5},
        {"textbook probe / core batch probe, members", text.member / blocked.batch_member, 1, 5},
        {"textbook probe / core batch probe, absent", text.absent / blocked.batch_absent, 1, 5},
        {"textbook insert / core insert", text.insert / blocked.insert, 1, 0},
        {"core probe one at a time / one access", blocked.dependent / access, 0, 1.5},
        {"core probe / one access", blocked.member / access, 0, 0},
        {"core batch probe / one access", blocked.batch_member / access, 0, 0},
    };
    printf("\n| core blocked, %s | ratio | goal | |\n", scales[quick ? 1 : 2].label);
    printf("|---|---:|---:|---|\n");
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        printf("| %s | %.2fx |", figures[i].what, figures[i].value);
        if (figures[i].goal == 0)
            printf(" | |\n");
        else
            printf(" %s %gx | %s |\n", figures[i].at_least ? ">=" : "<=", figures[i].goal,
                   verdict(figures[i].at_least ? figures[i].value >= figures[i].goal
                                               : figures[i].value <= figures[i].goal));
    }
    printf("\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    if (argc > 1 && strcmp(argv[1], "--states") == 0) {
        bench_states(10000000);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--limits") == 0) {
        bench_limits(argc > 2 && strcmp(argv[2], "--quick") == 0);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--layouts") == 0) {
        bench_layouts(100000000);
        return 0;
    }

    bench_limits(quick);
    printf("## Core against a textbook filter of k hash functions (k seeded XXH64 calls and a "
           "modulo), p = 0.01\n\n");
    const bench_scale scales[] = {
        {"in L1 cache: 10^4 values, 16 KiB", 10000, 10000, 1000000, 5},
        {"in L2 cache: 10^5 values, 128 KiB (blocked 256 KiB)", 100000, 100000, 1000000, 5},
        /* 2^31 bits, 256 MiB: the size class of 220M values at 1% (classic,
         * up to 223.8M; blocked takes 2^32 bits from 204M).  The textbook
         * filter takes minutes to fill at this size, so it gets its first
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
