/*
 * kinds.c - the classes of values a filter holds (docs/FORMAT.md, header
 * bytes 10..15), which let a text probe be read as the values that were
 * added (docs/HASHING.md "What a text probe checks").
 */
#include "internal.h"

enum { OFF_KINDS = 10 }; /* in the filter header */

void bloom_kinds_add(bloom_kinds *k, unsigned cls, uint32_t type_oid)
{
    if (cls & BLOOM_KIND_TYPED) {
        uint32_t oid = type_oid < BLOOM_FIRST_USER_OID ? type_oid : 0;
        if (!(k->mask & BLOOM_KIND_TYPED))
            k->type_oid = oid;
        else if (k->type_oid != oid)
            k->type_oid = 0; /* several types: none to read a probe as */
    }
    k->mask = (uint8_t)(k->mask | (cls & BLOOM_KINDS_KNOWN));
}

void bloom_kinds_merge(bloom_kinds *into, bloom_kinds from)
{
    if (from.mask & BLOOM_KIND_TYPED)
        bloom_kinds_add(into, BLOOM_KIND_TYPED, from.type_oid);
    into->mask = (uint8_t)(into->mask | (from.mask & BLOOM_KINDS_KNOWN));
}

static bool any_byte_set(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i] != 0)
            return true;
    return false;
}

/* Whether any bit (counter) of f is set: a scalable filter's stages only,
 * not its directory. */
static bool holds_anything(const bloom_filter *f)
{
    if (f->layout != BLOOM_LAYOUT_SCALABLE)
        return any_byte_set(f->bits, f->nbytes);
    stack st;
    stack_read(f, &st);
    for (unsigned i = 0; i < st.nstages; i++)
        if (any_byte_set(st.stages[i].f.bits, st.stages[i].f.nbytes))
            return true;
    return false;
}

bloom_kinds bloom_kinds_effective(const bloom_filter *f)
{
    bloom_kinds k = {0, 0};
    if (f->kinds.mask != 0)
        return f->kinds;
    if (holds_anything(f))
        k.mask = BLOOM_KIND_TEXT;
    return k;
}

bloom_kinds bloom_kinds_normalize(bloom_kinds k)
{
    k.mask &= BLOOM_KINDS_KNOWN;
    if (k.mask == BLOOM_KIND_TEXT)
        k.mask = 0;
    if (!(k.mask & BLOOM_KIND_TYPED) || k.type_oid >= BLOOM_FIRST_USER_OID)
        k.type_oid = 0;
    return k;
}

void bloom_kinds_write(uint8_t *p, bloom_kinds k)
{
    k = bloom_kinds_normalize(k);
    p[0] = k.mask;
    p[1] = 0;
    for (int i = 0; i < 4; i++)
        p[2 + i] = (uint8_t)(k.type_oid >> (8 * i));
}

void bloom_kinds_store(bloom_filter *f, bloom_kinds k)
{
    bloom_kinds_write(f->bits - BLOOM_HEADER_SIZE + OFF_KINDS, k);
    f->kinds = bloom_kinds_normalize(k);
}

void bloom_kinds_record(bloom_filter *f, unsigned cls, uint32_t type_oid)
{
    /* text into a filter that stores 0 stores 0 again: no scan of its bits */
    if (cls == BLOOM_KIND_TEXT && f->kinds.mask == 0)
        return;
    bloom_kinds k = bloom_kinds_effective(f);
    bloom_kinds_add(&k, cls, type_oid);
    bloom_kinds_store(f, k);
}
