/*
 * combine.c - union and intersection of two filters (docs/FORMAT.md
 * "Combining").
 *
 * Every filter is read as a list of stages (stack_read: a classic, blocked
 * or counting filter is one stage), and a combination is planned as the
 * shape of its result before a byte is written: its size is known first
 * (hosts allocate it), and whether it can be written over the left
 * operand's own bytes (an aggregate's state).
 *
 * - Filters of one size: OR / AND (counting: saturating sum / minimum).
 * - Classic or blocked filters of sizes that divide each other, and unions
 *   of such (scalable filters without growth): the union keeps every size
 *   class as a stage, each the OR of the members of that class, so a large
 *   member keeps its precision instead of being folded into the small
 *   size, which it would saturate (1.1 did that).  The intersection is at
 *   the larger size: the smaller stretched (stretch.c) and ANDed, which
 *   keeps every common member and is at least as sparse as the larger.
 * - Scalable filters that grow: a union of two with the same growth merges
 *   stage i with stage i (their stages have the same sizes); their
 *   intersection is not defined (stages of different nhashes).
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct plan {
    bool plain;      /* one array: stage 0's layout, nbits, nhashes */
    bool grows;      /* a union of growing filters: stage i from stages i */
    stack shape;     /* the result's stages (capacity and count included) */
} plan;

static void describe(const bloom_filter *f, const stack *st, char *buf, size_t len)
{
    if (f->layout != BLOOM_LAYOUT_SCALABLE) {
        snprintf(buf, len, "layout %s, nbits %" PRIu64 ", nhashes %u, seed %" PRIu64,
                 bloom_layout_name(f->layout), f->nbits, f->nhashes, f->seed);
    } else if (st->growth != 0) {
        snprintf(buf, len, "layout scalable, capacity %" PRIu64 ", fpr %g, seed %" PRIu64,
                 st->stages[0].capacity, st->fpr, f->seed);
    } else {
        snprintf(buf, len,
                 "layout scalable, %u %s stages of nbits %" PRIu64 " to %" PRIu64 ", nhashes %u, seed %" PRIu64,
                 st->nstages, bloom_layout_name(st->stages[0].f.layout), st->stages[0].f.nbits,
                 st->stages[st->nstages - 1].f.nbits, st->stages[0].f.nhashes, f->seed);
    }
}

static bloom_status mismatch(const bloom_filter *a, const stack *sa, const bloom_filter *b,
                             const stack *sb, bloom_status status, const char *why,
                             bloom_error *err)
{
    char left[160], right[160];
    describe(a, sa, left, sizeof left);
    describe(b, sb, right, sizeof right);
    if (strcmp(left, right) == 0) /* refused for what both are */
        return bloom_fail(err, status, "%sboth have %s", why, left);
    return bloom_fail(err, status, "%sleft has %s; right has %s", why, left, right);
}

static void plain_shape(plan *p, int layout, uint64_t nbits, unsigned nhashes)
{
    memset(&p->shape.stages[0], 0, sizeof p->shape.stages[0]);
    p->plain = true;
    p->grows = false;
    p->shape.fpr = p->shape.ratio = 0;
    p->shape.growth = 0;
    p->shape.nstages = 1;
    p->shape.is_scalable = false;
    p->shape.stages[0].f.layout = (uint8_t)layout;
    p->shape.stages[0].f.nbits = nbits;
    p->shape.stages[0].f.nhashes = (uint8_t)nhashes;
}

/* Insert nbits into the ascending list sizes[*n] if it is not there. */
static void add_size(uint64_t *sizes, unsigned *n, uint64_t nbits)
{
    unsigned i = 0;
    while (i < *n && sizes[i] < nbits)
        i++;
    if (i < *n && sizes[i] == nbits)
        return;
    memmove(sizes + i + 1, sizes + i, (*n - i) * sizeof *sizes);
    sizes[i] = nbits;
    (*n)++;
}

/* Stages of one layout (classic or blocked) and nhashes, sizes that divide
 * each other: BLOOM_OK and the sizes of both sides' stages, ascending and
 * distinct, in sizes[*n]; else the mismatch. */
static bloom_status check_classes(const bloom_filter *a, const stack *sa, const bloom_filter *b,
                                  const stack *sb, uint64_t *sizes, unsigned *count,
                                  bloom_error *err)
{
    const stage *first = &sa->stages[0];
    unsigned n = 0;
    for (int side = 0; side < 2; side++) {
        const stack *s = side ? sb : sa;
        for (unsigned i = 0; i < s->nstages; i++) {
            const bloom_filter *f = &s->stages[i].f;
            if (f->layout != first->f.layout || f->nhashes != first->f.nhashes)
                return mismatch(a, sa, b, sb, BLOOM_E_MISMATCH, "", err);
            add_size(sizes, &n, f->nbits);
        }
    }
    for (unsigned i = 1; i < n; i++)
        if (!sizes_divide(first->f.layout, sizes[i], sizes[i - 1]))
            return mismatch(a, sa, b, sb, BLOOM_E_MISMATCH, "", err);
    *count = n;
    return BLOOM_OK;
}

/* A stack of sizes[n] stages of one layout and nhashes, no growth; one
 * size: a plain filter. */
static bloom_status classes_shape(plan *p, const stage *like, const uint64_t *sizes, unsigned n,
                                  bloom_error *err)
{
    if (n == 1) {
        plain_shape(p, like->f.layout, sizes[0], like->f.nhashes);
        return BLOOM_OK;
    }
    if (n > BLOOM_MAX_STAGES)
        return bloom_fail(err, BLOOM_E_LIMIT, "the result would have %u size classes, more than %d",
                          n, BLOOM_MAX_STAGES);
    uint64_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += sizes[i];
    if (total > BLOOM_MAX_NBITS)
        return bloom_fail(err, BLOOM_E_LIMIT,
                          "the result would have %" PRIu64 " bits, more than the maximum %" PRIu64,
                          total, (uint64_t)BLOOM_MAX_NBITS);
    p->plain = false;
    p->grows = false;
    p->shape.fpr = p->shape.ratio = 0;
    p->shape.growth = 0;
    p->shape.nstages = n;
    p->shape.is_scalable = true;
    for (unsigned i = 0; i < n; i++) {
        stage *s = &p->shape.stages[i];
        memset(s, 0, sizeof *s);
        s->f.layout = like->f.layout;
        s->f.nhashes = like->f.nhashes;
        s->f.nbits = sizes[i];
    }
    return BLOOM_OK;
}

static bloom_status plan_union(const bloom_filter *a, const stack *sa, const bloom_filter *b,
                               const stack *sb, plan *p, bloom_error *err)
{
    if (sa->growth != 0 || sb->growth != 0) {
        static const char why[] = "scalable filters union when grown from one capacity, fpr and "
                                  "seed: ";
        if (sa->growth == 0 || sb->growth == 0 || sa->fpr != sb->fpr || sa->ratio != sb->ratio ||
            sa->growth != sb->growth || sa->stages[0].capacity != sb->stages[0].capacity)
            return mismatch(a, sa, b, sb, BLOOM_E_MISMATCH, why, err);
        const stack *longer = sa->nstages >= sb->nstages ? sa : sb;
        unsigned common = sa->nstages < sb->nstages ? sa->nstages : sb->nstages;
        for (unsigned i = 0; i < common; i++)
            if (sa->stages[i].f.nbits != sb->stages[i].f.nbits ||
                sa->stages[i].f.nhashes != sb->stages[i].f.nhashes)
                return mismatch(a, sa, b, sb, BLOOM_E_MISMATCH, why, err);
        p->plain = false;
        p->grows = true;
        p->shape = *longer;
        for (unsigned i = 0; i < p->shape.nstages; i++) {
            uint64_t ca = i < sa->nstages ? sa->stages[i].count : 0;
            uint64_t cb = i < sb->nstages ? sb->stages[i].count : 0;
            p->shape.stages[i].count = ca > UINT64_MAX - cb ? UINT64_MAX : ca + cb;
        }
        return BLOOM_OK;
    }
    if (a->layout == BLOOM_LAYOUT_COUNTING || b->layout == BLOOM_LAYOUT_COUNTING) {
        if (a->layout != b->layout || a->nbits != b->nbits || a->nhashes != b->nhashes)
            return mismatch(a, sa, b, sb, BLOOM_E_MISMATCH,
                            "counting filters union at one nbits and nhashes: ",
                            err);
        plain_shape(p, BLOOM_LAYOUT_COUNTING, a->nbits, a->nhashes);
        return BLOOM_OK;
    }
    /* a stage per size of either side */
    uint64_t sizes[2 * BLOOM_MAX_STAGES];
    unsigned n;
    bloom_status st = check_classes(a, sa, b, sb, sizes, &n, err);
    if (st != BLOOM_OK)
        return st;
    return classes_shape(p, &sa->stages[0], sizes, n, err);
}

static bloom_status plan_intersection(const bloom_filter *a, const stack *sa,
                                      const bloom_filter *b, const stack *sb, plan *p,
                                      bloom_error *err)
{
    if (sa->growth != 0 || sb->growth != 0)
        return mismatch(a, sa, b, sb, BLOOM_E_INVALID_ARGUMENT,
                        "scalable filters that grow have no intersection (their stages differ in "
                        "nhashes): ",
                        err);
    if (a->layout == BLOOM_LAYOUT_COUNTING || b->layout == BLOOM_LAYOUT_COUNTING) {
        if (a->layout != b->layout || a->nhashes != b->nhashes ||
            !(a->nbits >= b->nbits ? sizes_divide(a->layout, a->nbits, b->nbits)
                                   : sizes_divide(a->layout, b->nbits, a->nbits)))
            return mismatch(a, sa, b, sb, BLOOM_E_MISMATCH, "", err);
        plain_shape(p, BLOOM_LAYOUT_COUNTING, a->nbits > b->nbits ? a->nbits : b->nbits,
                    a->nhashes);
        return BLOOM_OK;
    }
    uint64_t sizes[2 * BLOOM_MAX_STAGES];
    unsigned n;
    bloom_status st = check_classes(a, sa, b, sb, sizes, &n, err);
    if (st != BLOOM_OK)
        return st;
    /* a common value sits in some stage of each side: the pair's AND, at
     * the larger of the two sizes, holds it */
    n = 0;
    for (unsigned i = 0; i < sa->nstages; i++)
        for (unsigned j = 0; j < sb->nstages; j++) {
            uint64_t x = sa->stages[i].f.nbits, y = sb->stages[j].f.nbits;
            add_size(sizes, &n, x > y ? x : y);
        }
    return classes_shape(p, &sa->stages[0], sizes, n, err);
}

static bloom_status make_plan(const bloom_filter *a, const stack *sa, const bloom_filter *b,
                              const stack *sb, bloom_op op, plan *p, bloom_error *err)
{
    if (a->seed != b->seed || a->hash_id != b->hash_id || a->version != b->version)
        return mismatch(a, sa, b, sb, BLOOM_E_MISMATCH, "", err);
    return op == BLOOM_OP_UNION ? plan_union(a, sa, b, sb, p, err)
                                : plan_intersection(a, sa, b, sb, p, err);
}

static size_t plan_size(const plan *p)
{
    if (p->plain)
        return bloom_layout_size(p->shape.stages[0].f.layout, p->shape.stages[0].f.nbits);
    return stack_size(&p->shape);
}

/* Whether the result has a's shape: then it can be written over a. */
static bool same_shape(const bloom_filter *a, const stack *sa, const plan *p, bloom_op op)
{
    if (p->plain)
        return a->layout == p->shape.stages[0].f.layout && a->nbits == p->shape.stages[0].f.nbits;
    /* an intersection of stacks reads other stages of a than the one it
     * writes: never in place */
    if (op != BLOOM_OP_UNION || !sa->is_scalable || sa->nstages != p->shape.nstages ||
        sa->growth != p->shape.growth)
        return false;
    for (unsigned i = 0; i < sa->nstages; i++)
        if (sa->stages[i].f.nbits != p->shape.stages[i].f.nbits ||
            sa->stages[i].f.nhashes != p->shape.stages[i].f.nhashes)
            return false;
    return true;
}

bloom_status bloom_combine_size(const bloom_filter *a, const bloom_filter *b, bloom_op op,
                                size_t *size, bool *in_place, bloom_error *err)
{
    stack sa, sb;
    plan p;
    stack_read(a, &sa);
    stack_read(b, &sb);
    bloom_status st = make_plan(a, &sa, b, &sb, op, &p, err);
    if (st != BLOOM_OK)
        return st;
    *size = plan_size(&p);
    if (*size == 0)
        return bloom_fail(err, BLOOM_E_LIMIT, "the result does not fit in memory here");
    if (in_place)
        *in_place = same_shape(a, &sa, &p, op);
    return bloom_ok(err);
}

/* Word w of result stage r, from the inputs' stages. */
static uint64_t union_word(const plan *p, unsigned r, const stack *sa, const stack *sb, uint64_t w)
{
    const bloom_filter *out = &p->shape.stages[r].f;
    uint64_t v = 0;
    for (int side = 0; side < 2; side++) {
        const stack *s = side ? sb : sa;
        for (unsigned i = 0; i < s->nstages; i++) {
            const bloom_filter *f = &s->stages[i].f;
            bool contributes = p->grows ? i == r : f->nbits == out->nbits;
            if (!contributes)
                continue;
            uint64_t x = load_le64(f->bits + 8 * w);
            v = out->layout == BLOOM_LAYOUT_COUNTING ? counting_sum_word(v, x) : v | x;
        }
    }
    return v;
}

static uint64_t intersect_word(const plan *p, unsigned r, const stack *sa, const stack *sb,
                               uint64_t w)
{
    const bloom_filter *out = &p->shape.stages[r].f;
    if (out->layout == BLOOM_LAYOUT_COUNTING) {
        const bloom_filter *x = &sa->stages[0].f, *y = &sb->stages[0].f;
        return counting_min_word(counting_stretch_word(x, out->nbits / x->nbits, w),
                                 counting_stretch_word(y, out->nbits / y->nbits, w));
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < sa->nstages; i++) {
        const bloom_filter *x = &sa->stages[i].f;
        for (unsigned j = 0; j < sb->nstages; j++) {
            const bloom_filter *y = &sb->stages[j].f;
            uint64_t size = x->nbits > y->nbits ? x->nbits : y->nbits;
            if (size != out->nbits)
                continue;
            v |= stretch_word(x, size / x->nbits, w) & stretch_word(y, size / y->nbits, w);
        }
    }
    return v;
}

/* Words of a stage of the plan: bits, or counters (16 a word). */
static uint64_t stage_words(const bloom_filter *s)
{
    return s->layout == BLOOM_LAYOUT_COUNTING ? (s->nbits + 15) / 16 : (s->nbits + 63) / 64;
}

/*
 * The common case, on its own loops: one array each side, of the result's
 * size (classic or blocked filters of one size class, as the filters of
 * one column usually are), so a result word is a[w] | b[w] or a[w] & b[w].
 * The general loops find each word through the stage lists and, on the
 * baseline x86-64 the library is built for, count bits with a libgcc call
 * a word, which was most of a bloom_union_agg row's time (bench-pg
 * measures bloom_union_agg).
 */
static bool one_array_each(const plan *p, const stack *sa, const stack *sb)
{
    const bloom_filter *o = &p->shape.stages[0].f;
    return p->plain && o->layout != BLOOM_LAYOUT_COUNTING && sa->nstages == 1 &&
           sb->nstages == 1 && sa->stages[0].f.nbits == o->nbits && sb->stages[0].f.nbits == o->nbits;
}

static double one_array_fpr(const plan *p, const stack *sa, const stack *sb, bloom_op op,
                            uint64_t *bits_set)
{
    const bloom_filter *o = &p->shape.stages[0].f;
    const uint8_t *a = sa->stages[0].f.bits, *b = sb->stages[0].f.bits;
    uint64_t words = stage_words(o);
    if (o->layout == BLOOM_LAYOUT_BLOCKED)
        return block_fills_combined(op, a, b, words, bits_set) /
               (double)(o->nbits / BLOOM_BLOCK_BITS);
    *bits_set = popcount_combined(op, a, b, words);
    return pow((double)*bits_set / (double)o->nbits, o->nhashes);
}

/*
 * The rate bloom_estimate_fpr gives the result, and its bits set, from its
 * words computed as bloom_combine writes them, nothing written: the same
 * formulas in the same order (classic and counting (X/m)^k, blocked the
 * mean over blocks of the product of the word fills, a stack 1 - the
 * product of (1 - each stage's)).
 */
static double result_fpr(const plan *p, const stack *sa, const stack *sb, bloom_op op,
                         uint64_t *bits_set)
{
    if (one_array_each(p, sa, sb))
        return one_array_fpr(p, sa, sb, op, bits_set);
    double miss = 1, rate = 0;
    *bits_set = 0;
    for (unsigned r = 0; r < p->shape.nstages; r++) {
        const bloom_filter *o = &p->shape.stages[r].f;
        uint64_t words = stage_words(o), set = 0;
        double sum = 0;
        for (uint64_t w = 0; w < words;) {
            if (o->layout == BLOOM_LAYOUT_BLOCKED) { /* one block: 4 words, 8 fills */
                double product = 1;
                for (unsigned q = 0; q < 4; q++, w++)
                    blocked_word_fills(op == BLOOM_OP_UNION ? union_word(p, r, sa, sb, w)
                                                            : intersect_word(p, r, sa, sb, w),
                                       &product, &set);
                sum += product;
                continue;
            }
            uint64_t x = op == BLOOM_OP_UNION ? union_word(p, r, sa, sb, w)
                                              : intersect_word(p, r, sa, sb, w);
            set += o->layout == BLOOM_LAYOUT_COUNTING ? counting_nonzero_count(x)
                                                      : (uint64_t)__builtin_popcountll(x);
            w++;
        }
        rate = o->layout == BLOOM_LAYOUT_BLOCKED
                   ? sum / (double)(o->nbits / BLOOM_BLOCK_BITS)
                   : pow((double)set / (double)o->nbits, o->nhashes);
        miss *= 1 - rate;
        *bits_set += set;
    }
    return p->plain ? rate : 1 - miss;
}

/* The kinds of a op b: what either side holds (an intersection may hold
 * less, never a class neither had).  Two filters that store 0 give 0, with
 * no scan of their bits: each holds text, or nothing. */
static bloom_kinds combined_kinds(const bloom_filter *a, const bloom_filter *b)
{
    if (a->kinds.mask == 0 && b->kinds.mask == 0)
        return a->kinds;
    bloom_kinds k = bloom_kinds_effective(a);
    bloom_kinds_merge(&k, bloom_kinds_effective(b));
    return k;
}

bloom_status bloom_combine(const bloom_filter *a, const bloom_filter *b, bloom_op op,
                           unsigned flags, void *buf, size_t len, bloom_filter *out,
                           bloom_error *err)
{
    stack sa, sb;
    plan p;
    stack_read(a, &sa);
    stack_read(b, &sb);
    bloom_status st = make_plan(a, &sa, b, &sb, op, &p, err);
    if (st != BLOOM_OK)
        return st;
    size_t size = plan_size(&p);
    if (len != size)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "buffer of %zu bytes for a result of %zu bytes", len, size);
    bool in_place = (uint8_t *)buf == a->bits - BLOOM_HEADER_SIZE;
    if (in_place && !same_shape(a, &sa, &p, op))
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "the result does not have the left filter's shape: combine into a new "
                          "buffer");
    /* a result saturated where neither side was: refused before a byte is
     * written (the inputs are read twice: to judge, then to write).  A
     * union of one size class that holds too many values, or (rarely) of
     * stages whose rates add up; an intersection of unions of classes,
     * whose stages are ORs of pairs at each size, when those are near
     * saturation already. */
    if (flags & BLOOM_REFUSE_SATURATED) {
        uint64_t set, nbits = 0;
        double rate = result_fpr(&p, &sa, &sb, op, &set);
        for (unsigned r = 0; r < p.shape.nstages; r++)
            nbits += p.shape.stages[r].f.nbits;
        if (rate >= 0.5 && !bloom_is_saturated(a) && !bloom_is_saturated(b))
            return bloom_fail(err, BLOOM_E_SATURATED,
                              "the %s is saturated: %" PRIu64 " of its %" PRIu64
                              " bits are set, a false-positive rate of %.2f, where neither filter "
                              "was saturated",
                              op == BLOOM_OP_UNION ? "union" : "intersection", set, nbits, rate);
    }
    uint64_t seed = a->seed;
    bloom_kinds kinds = combined_kinds(a, b); /* before a's bytes are overwritten */
    bloom_filter result;
    if (in_place) {
        result = *a;
        for (unsigned i = 0; i < p.shape.nstages; i++)
            p.shape.stages[i].f = sa.stages[i].f;
    } else if (p.plain) {
        const bloom_filter *s = &p.shape.stages[0].f;
        st = bloom_init(buf, len, s->layout, s->nbits, s->nhashes, seed, &result, err);
        if (st != BLOOM_OK)
            return st;
        p.shape.stages[0].f = result;
    } else {
        stack_write(buf, seed, &p.shape, &result);
    }
    bloom_kinds_store(&result, kinds);
    if (one_array_each(&p, &sa, &sb)) {
        const uint8_t *x = sa.stages[0].f.bits, *y = sb.stages[0].f.bits;
        bloom_filter *o = &p.shape.stages[0].f;
        for (uint64_t w = 0; w < o->nbytes / 8; w++) /* in place, o->bits is x: word by word */
            store_le64(o->bits + 8 * w, combined_word(op, x, y, w));
        *out = result;
        return bloom_ok(err);
    }
    for (unsigned r = 0; r < p.shape.nstages; r++) {
        bloom_filter *o = &p.shape.stages[r].f;
        for (uint64_t w = 0; w < o->nbytes / 8; w++)
            store_le64(o->bits + 8 * w, op == BLOOM_OP_UNION ? union_word(&p, r, &sa, &sb, w)
                                                             : intersect_word(&p, r, &sa, &sb, w));
    }
    if (in_place && p.grows)
        stack_store_counts(&result, &p.shape);
    *out = result;
    return bloom_ok(err);
}

static bloom_status combine_in_place(bloom_filter *dst, const bloom_filter *src, bloom_op op,
                                     bloom_error *err)
{
    size_t size;
    bool in_place;
    bloom_status st = bloom_combine_size(dst, src, op, &size, &in_place, err);
    if (st != BLOOM_OK)
        return st;
    if (!in_place)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "the result does not have the left filter's shape: combine into a new "
                          "buffer");
    return bloom_combine(dst, src, op, 0, dst->bits - BLOOM_HEADER_SIZE, size, dst, err);
}

bloom_status bloom_union_into(bloom_filter *dst, const bloom_filter *src, bloom_error *err)
{
    return combine_in_place(dst, src, BLOOM_OP_UNION, err);
}

bloom_status bloom_intersect_into(bloom_filter *dst, const bloom_filter *src, bloom_error *err)
{
    return combine_in_place(dst, src, BLOOM_OP_INTERSECT, err);
}
