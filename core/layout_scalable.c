/*
 * layout_scalable.c - layout 3: a filter made of stages, each a classic
 * (or blocked) filter, answering "maybe" when any stage does
 * (docs/FORMAT.md "Scalable layout").  Two kinds, one format:
 *
 * - growing (Almeida, Baquero, Preguica and Hutchison 2007): bloom_empty(n,
 *   p, seed, 'scalable') holds one stage sized for n values at p (1 - r);
 *   a value the filter does not report yet goes to the last stage, and once
 *   that stage holds its capacity a new one is appended, s times its
 *   capacity, at r times its rate.  The rates form a geometric series that
 *   sums to at most p, however many stages follow; their sizes grow about
 *   as the count does (s = 2, r = 0.8: see the measured tables).
 * - a union of size classes (combine.c): filters of one rate, layout and
 *   seed but different sizes, each class kept as a stage at its own size,
 *   so no class's precision is lost to another's; no growth.
 *
 * Bytes after the 32-byte header: a 32-byte stack header, a directory of
 * 32-byte stage records, then the stages' bit arrays in directory order.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

enum {
    /* stack header, from the end of the filter header */
    SH_FPR = 0,
    SH_RATIO = 8,
    SH_GROWTH = 16,
    SH_NSTAGES = 17,
    SH_RESERVED = 18,
    SH_RESERVED_LEN = 14,
    /* stage record */
    SR_NBITS = 0,
    SR_LAYOUT = 8,
    SR_NHASHES = 9,
    SR_RESERVED = 10,
    SR_RESERVED_LEN = 6,
    SR_CAPACITY = 16,
    SR_COUNT = 24,
    MIN_GROWTH = 2,
    MAX_GROWTH = 16
};

static uint64_t words_bytes(uint64_t nbits)
{
    return (nbits + 63) / 64 * 8;
}

static uint8_t *record_at(uint8_t *body, unsigned i)
{
    return body + BLOOM_STACK_HEADER_SIZE + (size_t)BLOOM_STAGE_RECORD_SIZE * i;
}

/* The least a scalable filter's bytes after the header take: the stack
 * header, one record, one word. */
#define MIN_BODY (BLOOM_STACK_HEADER_SIZE + BLOOM_STAGE_RECORD_SIZE + 8)

bloom_status scalable_check_header(const uint8_t *p, size_t len, uint64_t nbits, bloom_error *err)
{
    (void)p; /* only the header's 32 bytes may be there (a sliced probe) */
    uint64_t most = BLOOM_HEADER_SIZE + BLOOM_STACK_HEADER_SIZE +
                    (uint64_t)BLOOM_MAX_STAGES * (BLOOM_STAGE_RECORD_SIZE + 8) + words_bytes(nbits);
    if ((uint64_t)len < BLOOM_HEADER_SIZE + MIN_BODY)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "length %zu is too short for a scalable filter (at least %d bytes): "
                          "truncated",
                          len, BLOOM_HEADER_SIZE + MIN_BODY);
    if ((uint64_t)len > most)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "length %zu is more than a scalable filter of nbits %" PRIu64
                          " takes (at most %" PRIu64 " bytes): trailing bytes",
                          len, nbits, most);
    return BLOOM_OK;
}

bloom_status scalable_parse(const uint8_t *p, size_t len, bloom_filter *out, bool full,
                            bloom_error *err)
{
    const uint8_t *body = p + BLOOM_HEADER_SIZE;
    uint64_t body_len = (uint64_t)len - BLOOM_HEADER_SIZE;
    if (body_len < BLOOM_STACK_HEADER_SIZE)
        return bloom_fail(err, BLOOM_E_FORMAT, "length %zu is too short for a scalable filter: truncated",
                          len);
    for (int i = 0; i < SH_RESERVED_LEN; i++)
        if (body[SH_RESERVED + i] != 0)
            return bloom_fail(err, BLOOM_E_FORMAT, "reserved byte %d is 0x%02x, must be zero",
                              BLOOM_HEADER_SIZE + SH_RESERVED + i, body[SH_RESERVED + i]);
    double fpr = load_le_double(body + SH_FPR), ratio = load_le_double(body + SH_RATIO);
    unsigned growth = body[SH_GROWTH], n = body[SH_NSTAGES];
    bool grows = growth != 0;
    if (grows) {
        if (growth < MIN_GROWTH || growth > MAX_GROWTH)
            return bloom_fail(err, BLOOM_E_FORMAT, "growth %u is outside [%d, %d]", growth,
                              MIN_GROWTH, MAX_GROWTH);
        if (!(fpr > 0 && fpr < 1))
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "target false-positive rate %g is outside the open interval (0, 1)",
                              fpr);
        if (!(ratio > 0 && ratio < 1))
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "tightening ratio %g is outside the open interval (0, 1)", ratio);
        if (n < 1 || n > BLOOM_MAX_STAGES)
            return bloom_fail(err, BLOOM_E_FORMAT, "%u stages: a scalable filter has 1 to %d", n,
                              BLOOM_MAX_STAGES);
    } else {
        if (load_le64(body + SH_FPR) != 0 || load_le64(body + SH_RATIO) != 0)
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "a scalable filter without growth has rate and ratio 0, not %g and %g",
                              fpr, ratio);
        if (n < 2 || n > BLOOM_MAX_STAGES)
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "%u stages: a scalable filter without growth has 2 to %d", n,
                              BLOOM_MAX_STAGES);
    }
    uint64_t offset = BLOOM_STACK_HEADER_SIZE + (uint64_t)BLOOM_STAGE_RECORD_SIZE * n;
    if (body_len < offset)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "length %zu is too short for %u stage records: truncated", len, n);
    uint64_t total = 0, prev_nbits = 0, prev_capacity = 0;
    unsigned max_k = 0;
    int first_layout = -1;
    unsigned first_k = 0;
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *r = record_at((uint8_t *)body, i);
        uint64_t nbits = load_le64(r + SR_NBITS), capacity = load_le64(r + SR_CAPACITY),
                 count = load_le64(r + SR_COUNT);
        unsigned layout = r[SR_LAYOUT], k = r[SR_NHASHES];
        for (int j = 0; j < SR_RESERVED_LEN; j++)
            if (r[SR_RESERVED + j] != 0)
                return bloom_fail(err, BLOOM_E_FORMAT,
                                  "stage %u: reserved byte %d of its record is 0x%02x, must be zero",
                                  i, SR_RESERVED + j, r[SR_RESERVED + j]);
        if (layout != BLOOM_LAYOUT_CLASSIC && layout != BLOOM_LAYOUT_BLOCKED)
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "stage %u: layout id %u; a stage is classic (0) or blocked (1)", i,
                              layout);
        bloom_error perr;
        if (bloom_check_params((int)layout, nbits, k, &perr) != BLOOM_OK)
            return bloom_fail(err, BLOOM_E_FORMAT, "stage %u: %s", i, perr.message);
        if (i == 0) {
            first_layout = (int)layout;
            first_k = k;
        } else if ((int)layout != first_layout) {
            return bloom_fail(err, BLOOM_E_FORMAT, "stage %u is %s and stage 0 %s: one layout for all",
                              i, bloom_layout_name((int)layout), bloom_layout_name(first_layout));
        }
        if (grows) {
            if (layout != BLOOM_LAYOUT_CLASSIC)
                return bloom_fail(err, BLOOM_E_FORMAT,
                                  "stage %u is blocked: the stages of a growing filter are classic", i);
            if (i == 0 && capacity == 0)
                return bloom_fail(err, BLOOM_E_FORMAT, "stage 0 has capacity 0");
            if (i > 0 && (prev_capacity > UINT64_MAX / growth || capacity != prev_capacity * growth))
                return bloom_fail(err, BLOOM_E_FORMAT,
                                  "stage %u has capacity %" PRIu64 ", not %u times the %" PRIu64
                                  " of stage %u",
                                  i, capacity, growth, prev_capacity, i - 1);
        } else {
            if (capacity != 0 || count != 0)
                return bloom_fail(err, BLOOM_E_FORMAT,
                                  "stage %u has capacity %" PRIu64 " and count %" PRIu64
                                  ": both are 0 without growth",
                                  i, capacity, count);
            if (k != first_k)
                return bloom_fail(err, BLOOM_E_FORMAT,
                                  "stage %u has nhashes %u and stage 0 %u: one for all without growth",
                                  i, k, first_k);
            if (i > 0 && (nbits <= prev_nbits || !sizes_divide((int)layout, nbits, prev_nbits)))
                return bloom_fail(err, BLOOM_E_FORMAT,
                                  "stage %u has nbits %" PRIu64 " after %" PRIu64
                                  ": without growth, sizes ascend, each a multiple of the one before",
                                  i, nbits, prev_nbits);
        }
        prev_nbits = nbits;
        prev_capacity = capacity;
        total += nbits; /* at most 64 * 2^40 */
        offset += words_bytes(nbits);
        if (k > max_k)
            max_k = k;
    }
    if (total != out->nbits)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "header nbits %" PRIu64 " is not the %" PRIu64 " bits of its stages",
                          out->nbits, total);
    if (max_k != out->nhashes)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "header nhashes %u is not the largest of its stages', %u", out->nhashes,
                          max_k);
    if (offset != body_len)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "length %zu does not match its stages (expected %" PRIu64 " bytes)%s", len,
                          BLOOM_HEADER_SIZE + offset, body_len < offset ? ": truncated" : ": trailing bytes");
    if (full) {
        stack st;
        stack_read(out, &st);
        for (unsigned i = 0; i < st.nstages; i++) {
            uint64_t bad = bloom_first_padding_bit(st.stages[i].f.bits, st.stages[i].f.nbytes,
                                                   st.stages[i].f.nbits);
            if (bad != UINT64_MAX)
                return bloom_fail(err, BLOOM_E_FORMAT,
                                  "padding bit %" PRIu64 " past nbits %" PRIu64 " of stage %u is set", bad,
                                  st.stages[i].f.nbits, i);
        }
    }
    return BLOOM_OK;
}

void stack_read(const bloom_filter *f, stack *out)
{
    if (f->layout != BLOOM_LAYOUT_SCALABLE) {
        out->fpr = out->ratio = 0;
        out->growth = 0;
        out->nstages = 1;
        out->is_scalable = false;
        out->stages[0].f = *f;
        out->stages[0].capacity = out->stages[0].count = 0;
        return;
    }
    uint8_t *body = f->bits;
    out->fpr = load_le_double(body + SH_FPR);
    out->ratio = load_le_double(body + SH_RATIO);
    out->growth = body[SH_GROWTH];
    out->nstages = body[SH_NSTAGES];
    out->is_scalable = true;
    uint8_t *bits = record_at(body, out->nstages);
    for (unsigned i = 0; i < out->nstages; i++) {
        const uint8_t *r = record_at(body, i);
        stage *s = &out->stages[i];
        s->f.layout = r[SR_LAYOUT];
        s->f.hash_id = f->hash_id;
        s->f.nhashes = r[SR_NHASHES];
        s->f.version = f->version;
        s->f.seed = f->seed;
        s->f.nbits = load_le64(r + SR_NBITS);
        s->f.nbytes = words_bytes(s->f.nbits);
        s->f.bits = bits;
        s->f.kinds = f->kinds;
        s->capacity = load_le64(r + SR_CAPACITY);
        s->count = load_le64(r + SR_COUNT);
        bits += s->f.nbytes;
    }
}

size_t stack_size(const stack *st)
{
    uint64_t size = BLOOM_HEADER_SIZE + BLOOM_STACK_HEADER_SIZE +
                    (uint64_t)BLOOM_STAGE_RECORD_SIZE * st->nstages;
    for (unsigned i = 0; i < st->nstages; i++)
        size += words_bytes(st->stages[i].f.nbits);
    return size > SIZE_MAX ? 0 : (size_t)size;
}

void stack_write(uint8_t *buf, uint64_t seed, stack *st, bloom_filter *out)
{
    uint64_t total = 0;
    unsigned max_k = 0;
    for (unsigned i = 0; i < st->nstages; i++) {
        total += st->stages[i].f.nbits;
        if (st->stages[i].f.nhashes > max_k)
            max_k = st->stages[i].f.nhashes;
    }
    size_t size = stack_size(st);
    memset(buf, 0, size);
    memcpy(buf, "BLOM", 4);
    buf[4] = BLOOM_FORMAT_VERSION;
    buf[5] = BLOOM_LAYOUT_SCALABLE;
    buf[6] = BLOOM_HASH_XXH64_CANONICAL;
    buf[7] = (uint8_t)max_k;
    store_le64(buf + 16, seed);
    header_set_nbits(buf, total);
    uint8_t *body = buf + BLOOM_HEADER_SIZE;
    if (st->growth != 0) {
        store_le_double(body + SH_FPR, st->fpr);
        store_le_double(body + SH_RATIO, st->ratio);
    }
    body[SH_GROWTH] = (uint8_t)st->growth;
    body[SH_NSTAGES] = (uint8_t)st->nstages;
    for (unsigned i = 0; i < st->nstages; i++) {
        uint8_t *r = record_at(body, i);
        store_le64(r + SR_NBITS, st->stages[i].f.nbits);
        r[SR_LAYOUT] = st->stages[i].f.layout;
        r[SR_NHASHES] = st->stages[i].f.nhashes;
        store_le64(r + SR_CAPACITY, st->stages[i].capacity);
        store_le64(r + SR_COUNT, st->stages[i].count);
    }
    out->layout = BLOOM_LAYOUT_SCALABLE;
    out->hash_id = BLOOM_HASH_XXH64_CANONICAL;
    out->nhashes = (uint8_t)max_k;
    out->version = BLOOM_FORMAT_VERSION;
    out->seed = seed;
    out->nbits = total;
    out->nbytes = size - BLOOM_HEADER_SIZE;
    out->bits = body;
    out->kinds.mask = 0;
    out->kinds.type_oid = 0;
    stack fresh;
    stack_read(out, &fresh);
    for (unsigned i = 0; i < st->nstages; i++)
        st->stages[i].f = fresh.stages[i].f;
}

void stack_store_counts(const bloom_filter *f, const stack *st)
{
    for (unsigned i = 0; i < st->nstages; i++)
        store_le64(record_at(f->bits, i) + SR_COUNT, st->stages[i].count);
}

void scalable_set_last_count(bloom_filter *f, uint64_t count)
{
    store_le64(record_at(f->bits, f->bits[SH_NSTAGES] - 1u) + SR_COUNT, count);
}

/* ---- membership ---- */

static bool stage_contains(const bloom_filter *s, uint64_t hash)
{
    return s->layout == BLOOM_LAYOUT_BLOCKED ? blocked_contains(s, hash) : classic_contains(s, hash);
}

static void stage_add(bloom_filter *s, uint64_t hash)
{
    if (s->layout == BLOOM_LAYOUT_BLOCKED)
        blocked_add(s, hash);
    else
        classic_add(s, hash);
}

bool scalable_contains(const bloom_filter *f, uint64_t hash)
{
    stack st;
    stack_read(f, &st);
    /* the last stages hold the most values: a member is found sooner */
    for (unsigned i = st.nstages; i-- > 0;)
        if (stage_contains(&st.stages[i].f, hash))
            return true;
    return false;
}

void scalable_add(bloom_filter *f, uint64_t hash)
{
    stack st;
    stack_read(f, &st);
    stage *last = &st.stages[st.nstages - 1];
    if (st.growth == 0) { /* a union of classes: into the largest, as classic would */
        stage_add(&last->f, hash);
        return;
    }
    for (unsigned i = st.nstages; i-- > 0;)
        if (stage_contains(&st.stages[i].f, hash))
            return; /* counted once: a value the filter reports is not added again */
    stage_add(&last->f, hash);
    if (last->count < UINT64_MAX)
        last->count++;
    stack_store_counts(f, &st);
}

bool scalable_add_is_noop(const bloom_filter *f, uint64_t hash)
{
    stack st;
    stack_read(f, &st);
    if (st.growth == 0)
        return stage_contains(&st.stages[st.nstages - 1].f, hash);
    return scalable_contains(f, hash);
}

/* ---- sizing and growth ---- */

/* The rate of stage i of a filter growing from rate fpr: fpr (1 - r) r^i,
 * multiplied out step by step (the same doubles in every implementation). */
static double stage_fpr(double fpr, double ratio, unsigned i)
{
    double p = fpr * (1 - ratio);
    for (unsigned j = 0; j < i; j++)
        p *= ratio;
    return p;
}

/* A growing stage for capacity values at rate p: classic, k = round(log2(1/p))
 * and the least multiple of 64 bits at or above the exact classic size (not
 * a power of two: a stage never combines with filters of other sizes). */
static bloom_status stage_params(uint64_t capacity, double p, uint64_t *nbits, unsigned *k,
                                 bloom_error *err)
{
    *k = bloom_nhashes_for_fpr(BLOOM_LAYOUT_CLASSIC, p);
    double m = classic_exact_bits((double)capacity, p, *k);
    if (!(m <= (double)BLOOM_MAX_NBITS))
        return bloom_fail(err, BLOOM_E_LIMIT,
                          "a stage for %" PRIu64 " values at false-positive rate %g needs more than "
                          "the maximum %" PRIu64 " bits",
                          capacity, p, (uint64_t)BLOOM_MAX_NBITS);
    uint64_t bits = (uint64_t)m;
    bits = bits < 64 ? 64 : (bits + 63) / 64 * 64;
    if (bits > BLOOM_MAX_NBITS)
        bits = BLOOM_MAX_NBITS;
    *nbits = bits;
    return BLOOM_OK;
}

/* The first stage of bloom_empty(capacity, fpr, seed, 'scalable'). */
static bloom_status first_stack(uint64_t capacity, double fpr, stack *st, bloom_error *err)
{
    st->fpr = fpr;
    st->ratio = BLOOM_SCALABLE_RATIO;
    st->growth = BLOOM_SCALABLE_GROWTH;
    st->nstages = 1;
    st->is_scalable = true;
    stage *s = &st->stages[0];
    memset(s, 0, sizeof *s);
    unsigned k;
    bloom_status r = stage_params(capacity, stage_fpr(fpr, st->ratio, 0), &s->f.nbits, &k, err);
    s->f.layout = BLOOM_LAYOUT_CLASSIC;
    s->f.nhashes = (uint8_t)k;
    s->capacity = capacity;
    return r;
}

bloom_status scalable_empty_size(int64_t capacity, double fpr, uint64_t max_bytes, size_t *size,
                                 bloom_error *err)
{
    if (capacity < 1)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "the capacity must be at least 1, got %" PRId64, capacity);
    bloom_status st = bloom_check_fpr(fpr, err);
    if (st != BLOOM_OK)
        return st;
    stack s;
    st = first_stack((uint64_t)capacity, fpr, &s, err);
    if (st != BLOOM_OK)
        return st;
    *size = stack_size(&s);
    if (*size == 0)
        return bloom_fail(err, BLOOM_E_LIMIT, "a scalable filter for %" PRId64 " values does not fit in memory here",
                          capacity);
    return bloom_check_host_size(*size, max_bytes, err);
}

bloom_status scalable_empty_init(void *buf, size_t len, uint64_t capacity, double fpr,
                                 uint64_t seed, bloom_filter *out, bloom_error *err)
{
    stack s;
    bloom_status st = first_stack(capacity, fpr, &s, err);
    if (st != BLOOM_OK)
        return st;
    if (len != stack_size(&s))
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "buffer of %zu bytes for a filter of %zu bytes", len, stack_size(&s));
    stack_write(buf, seed, &s, out);
    return bloom_ok(err);
}

/* f with a new, empty last stage, in a new buffer from alloc. */
static bloom_status grow(const bloom_allocator *alloc, uint64_t max_bytes, void **buf, size_t *len,
                         bloom_filter *f, bloom_error *err)
{
    stack st;
    stack_read(f, &st);
    unsigned n = st.nstages;
    const stage *last = &st.stages[n - 1];
    if (n == BLOOM_MAX_STAGES)
        return bloom_fail(err, BLOOM_E_LIMIT, "the filter has %d stages, the most there can be",
                          BLOOM_MAX_STAGES);
    if (last->capacity > UINT64_MAX / st.growth)
        return bloom_fail(err, BLOOM_E_LIMIT, "the filter cannot grow past a stage of %" PRIu64 " values",
                          last->capacity);
    stage *next = &st.stages[n];
    memset(next, 0, sizeof *next);
    next->capacity = last->capacity * st.growth;
    unsigned k;
    bloom_status s = stage_params(next->capacity, stage_fpr(st.fpr, st.ratio, n), &next->f.nbits,
                                  &k, err);
    if (s != BLOOM_OK)
        return s;
    next->f.layout = BLOOM_LAYOUT_CLASSIC;
    next->f.nhashes = (uint8_t)k;
    if (f->nbits + next->f.nbits > BLOOM_MAX_NBITS)
        return bloom_fail(err, BLOOM_E_LIMIT,
                          "growing would take the filter to %" PRIu64 " bits, past the maximum %" PRIu64,
                          f->nbits + next->f.nbits, (uint64_t)BLOOM_MAX_NBITS);
    st.nstages = n + 1;
    size_t size = stack_size(&st);
    s = bloom_check_host_size(size, max_bytes, err);
    if (s != BLOOM_OK)
        return s;
    uint8_t *grown = alloc->alloc(alloc->ctx, size);
    if (grown == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory growing a filter to %zu bytes", size);
    stack old;
    stack_read(f, &old);
    bloom_filter g;
    stack_write(grown, f->seed, &st, &g);
    bloom_kinds_store(&g, f->kinds);
    for (unsigned i = 0; i < n; i++)
        memcpy(st.stages[i].f.bits, old.stages[i].f.bits, old.stages[i].f.nbytes);
    alloc->release(alloc->ctx, *buf);
    *buf = grown;
    *len = size;
    *f = g;
    return BLOOM_OK;
}

bloom_status bloom_insert(const bloom_allocator *alloc, uint64_t max_bytes, void **buf,
                          size_t *len, bloom_filter *f, const uint64_t *hashes, size_t n,
                          bloom_error *err)
{
    if (f->layout != BLOOM_LAYOUT_SCALABLE) {
        bloom_add_hashes(f, hashes, n);
        return bloom_ok(err);
    }
    for (size_t i = 0; i < n; i++) {
        stack st;
        stack_read(f, &st);
        const stage *last = &st.stages[st.nstages - 1];
        if (st.growth != 0 && last->count >= last->capacity &&
            !scalable_contains(f, hashes[i])) {
            bloom_status s = grow(alloc, max_bytes, buf, len, f, err);
            if (s != BLOOM_OK)
                return s;
        }
        scalable_add(f, hashes[i]);
    }
    return bloom_ok(err);
}

/* ---- estimates ---- */

static double stage_fpr_now(const bloom_filter *s)
{
    return s->layout == BLOOM_LAYOUT_BLOCKED ? blocked_estimate_fpr(s) : classic_estimate_fpr(s);
}

static double stage_cardinality(const bloom_filter *s)
{
    uint64_t set = popcount_bytes(s->bits, s->nbytes);
    if (set >= s->nbits)
        return INFINITY;
    double m = (double)s->nbits;
    return -(m / s->nhashes) * log1p(-(double)set / m);
}

uint64_t scalable_popcount(const bloom_filter *f)
{
    stack st;
    stack_read(f, &st);
    uint64_t total = 0;
    for (unsigned i = 0; i < st.nstages; i++)
        total += popcount_bytes(st.stages[i].f.bits, st.stages[i].f.nbytes);
    return total;
}

double scalable_estimate_fpr(const bloom_filter *f)
{
    stack st;
    stack_read(f, &st);
    double miss = 1; /* an absent value passes no stage */
    for (unsigned i = 0; i < st.nstages; i++)
        miss *= 1 - stage_fpr_now(&st.stages[i].f);
    return 1 - miss;
}

/* Growing: each value went to one stage, so the stages' counts add up.
 * A union of classes: a value may be in several classes (a user in every
 * day's filter), so each stage adds the values it holds beyond those it
 * shares with a larger stage (estimated as across sizes, filter.c; the
 * largest share, as the larger stages may share values among themselves). */
double scalable_estimate_cardinality(const bloom_filter *f)
{
    stack st;
    stack_read(f, &st);
    double total = 0;
    for (unsigned i = st.nstages; i-- > 0;) {
        double own = stage_cardinality(&st.stages[i].f);
        if (isinf(own))
            return INFINITY;
        if (st.growth == 0) {
            double shared = 0;
            for (unsigned j = i + 1; j < st.nstages; j++) {
                double c = estimate_common_across_sizes(&st.stages[j].f, &st.stages[i].f);
                if (isinf(c))
                    return INFINITY;
                if (c > shared)
                    shared = c;
            }
            own -= shared < own ? shared : own;
        }
        total += own;
    }
    return total;
}
