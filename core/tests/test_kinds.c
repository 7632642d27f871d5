/*
 * test_kinds.c - value kinds (header bytes 10..15): what the parser
 * accepts, how adds, combines, copies and the builder carry them.
 */
#include "util.h"

#include <string.h>

enum { DATE_OID = 1082, UUID_OID = 2950 };

/* A classic filter of nbits with the header bytes 10..15 given. */
static uint8_t *with_kinds(uint8_t mask, uint8_t reserved, uint32_t oid, size_t *len)
{
    bloom_filter f;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_CLASSIC, 256, 3, 0, &f);
    buf[10] = mask;
    buf[11] = reserved;
    for (int i = 0; i < 4; i++)
        buf[12 + i] = (uint8_t)(oid >> (8 * i));
    *len = bloom_serialized_size(256);
    return buf;
}

static void test_parse_kinds(void)
{
    static const struct {
        uint8_t mask, reserved;
        uint32_t oid;
        const char *message; /* NULL: valid */
    } cases[] = {
        {0x00, 0, 0, NULL},
        {0x01, 0, 0, NULL},
        {0x03, 0, 0, NULL},
        {0x04, 0, 0, NULL},
        {0x0f, 0, 0, NULL},
        {0x08, 0, DATE_OID, NULL},
        {0x0b, 0, UUID_OID, NULL},
        {0x08, 0, 0, NULL},
        {0x08, 0, BLOOM_FIRST_USER_OID - 1, NULL},
        {0x02, 0, 0, "byte 10 (value kinds) is 0x02: text alone is stored as 0"},
        {0x10, 0, 0, "byte 10 (value kinds) is 0x10: bits 0x10 are no known kind"},
        {0xff, 0, 0, "bits 0xf0 are no known kind"},
        {0x01, 1, 0, "reserved byte 11 is 0x01, must be zero"},
        {0x00, 0, DATE_OID, "bytes 12..15 (type oid) hold 1082 without the typed kind in byte 10"},
        {0x07, 0, 5, "bytes 12..15 (type oid) hold 5 without the typed kind"},
        {0x08, 0, BLOOM_FIRST_USER_OID, "bytes 12..15 (type oid) hold 16384, not a built-in type"},
        {0x08, 0, UINT32_MAX, "hold 4294967295, not a built-in type"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        uint8_t *buf = with_kinds(cases[i].mask, cases[i].reserved, cases[i].oid, &len);
        bloom_filter f;
        bloom_error err;
        bloom_status st = bloom_parse(buf, len, &f, &err);
        if (cases[i].message == NULL) {
            CHECK_MSG(st == BLOOM_OK, "case %zu: %s", i, err.message);
            CHECK(f.kinds.mask == cases[i].mask && f.kinds.type_oid == cases[i].oid);
            /* the header alone (a sliced probe) reads them too */
            CHECK(bloom_parse_header(buf, len, &f, &err) == BLOOM_OK);
            CHECK(f.kinds.mask == cases[i].mask && f.kinds.type_oid == cases[i].oid);
        } else {
            CHECK_MSG(st == BLOOM_E_FORMAT, "case %zu: status %d", i, st);
            CHECK_MSG(strstr(err.message, cases[i].message) != NULL, "case %zu: '%s'", i,
                      err.message);
            CHECK(bloom_parse_header(buf, len, &f, NULL) == BLOOM_E_FORMAT);
        }
        free(buf);
    }
}

static void test_add_and_merge(void)
{
    bloom_kinds k = {0, 0};
    bloom_kinds_add(&k, BLOOM_KIND_TYPED, DATE_OID);
    CHECK(k.mask == BLOOM_KIND_TYPED && k.type_oid == DATE_OID);
    bloom_kinds_add(&k, BLOOM_KIND_TYPED, DATE_OID);
    CHECK(k.type_oid == DATE_OID);
    bloom_kinds_add(&k, BLOOM_KIND_NUMBER, 0);
    CHECK(k.mask == (BLOOM_KIND_TYPED | BLOOM_KIND_NUMBER) && k.type_oid == DATE_OID);
    bloom_kinds_add(&k, BLOOM_KIND_TYPED, UUID_OID);
    CHECK(k.type_oid == 0); /* two types: none */
    bloom_kinds_add(&k, BLOOM_KIND_TYPED, DATE_OID);
    CHECK(k.type_oid == 0); /* for good */

    bloom_kinds u = {0, 0};
    bloom_kinds_add(&u, BLOOM_KIND_TYPED, 70000); /* not built-in */
    CHECK(u.mask == BLOOM_KIND_TYPED && u.type_oid == 0);

    bloom_kinds a = {BLOOM_KIND_TEXT, 0}, b = {BLOOM_KIND_TYPED, UUID_OID};
    bloom_kinds_merge(&a, b);
    CHECK(a.mask == (BLOOM_KIND_TEXT | BLOOM_KIND_TYPED) && a.type_oid == UUID_OID);
    bloom_kinds_merge(&a, (bloom_kinds){BLOOM_KIND_BYTES, 0});
    CHECK(a.type_oid == UUID_OID && a.mask == 0x0e);
    bloom_kinds_merge(&a, (bloom_kinds){BLOOM_KIND_TYPED, DATE_OID});
    CHECK(a.type_oid == 0);
    /* a side without TYPED leaves the OID alone, whatever its OID field */
    bloom_kinds c = {BLOOM_KIND_TYPED, DATE_OID};
    bloom_kinds_merge(&c, (bloom_kinds){BLOOM_KIND_NUMBER, UUID_OID});
    CHECK(c.type_oid == DATE_OID && c.mask == (BLOOM_KIND_TYPED | BLOOM_KIND_NUMBER));

    bloom_kinds n = bloom_kinds_normalize((bloom_kinds){BLOOM_KIND_TEXT, 0});
    CHECK(n.mask == 0 && n.type_oid == 0);
    n = bloom_kinds_normalize((bloom_kinds){BLOOM_KIND_TEXT | BLOOM_KIND_NUMBER, 7});
    CHECK(n.mask == 0x03 && n.type_oid == 0);
}

static void test_record_and_effective(void)
{
    bloom_filter f, g;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_CLASSIC, 1024, 4, 3, &f);
    size_t len = bloom_serialized_size(1024);
    CHECK(bloom_kinds_effective(&f).mask == 0); /* empty */
    bloom_kinds_record(&f, BLOOM_KIND_TEXT, 0);
    bloom_add_hash(&f, bloom_hash_bytes("abc", 3, 3));
    CHECK(buf[10] == 0 && f.kinds.mask == 0); /* text alone: as 1.1 wrote it */
    CHECK(bloom_kinds_effective(&f).mask == BLOOM_KIND_TEXT);
    bloom_kinds_record(&f, BLOOM_KIND_NUMBER, 0);
    bloom_add_hash(&f, bloom_hash_int64(42, 3));
    CHECK(buf[10] == 0x03);
    CHECK(bloom_parse(buf, len, &g, NULL) == BLOOM_OK && g.kinds.mask == 0x03);
    free(buf);

    /* an empty filter gaining a number stores NUMBER alone; a typed value,
     * its OID little-endian */
    buf = new_filter(BLOOM_LAYOUT_BLOCKED, 512, 8, 0, &f);
    bloom_kinds_record(&f, BLOOM_KIND_NUMBER, 0);
    CHECK(buf[10] == 0x01);
    bloom_kinds_record(&f, BLOOM_KIND_TYPED, UUID_OID);
    CHECK(buf[10] == 0x09 && buf[11] == 0 && buf[12] == (UUID_OID & 0xff) &&
          buf[13] == UUID_OID >> 8 && buf[14] == 0 && buf[15] == 0);
    CHECK(bloom_parse(buf, bloom_serialized_size(512), &g, NULL) == BLOOM_OK);
    CHECK(g.kinds.type_oid == UUID_OID);
    free(buf);
}

/* A filter of layout/nbits holding `n` hashes of one class. */
static uint8_t *filled(int layout, uint64_t nbits, unsigned k, unsigned cls, uint32_t oid, int n,
                       bloom_filter *f)
{
    uint8_t *buf = new_filter(layout, nbits, k, 0, f);
    for (int i = 0; i < n; i++) {
        bloom_kinds_record(f, cls, oid);
        bloom_add_hash(f, key_at(cls * 1000 + oid, (uint64_t)i));
    }
    return buf;
}

/* a op b into a new buffer (freed by the caller); its kinds. */
static bloom_kinds combined(const bloom_filter *a, const bloom_filter *b, bloom_op op,
                            uint8_t **out_buf)
{
    size_t size;
    bloom_filter r, back;
    bloom_error err;
    CHECK(bloom_combine_size(a, b, op, &size, NULL, &err) == BLOOM_OK);
    uint8_t *buf = malloc(size);
    CHECK_MSG(bloom_combine(a, b, op, 0, buf, size, &r, &err) == BLOOM_OK, "%s", err.message);
    CHECK_MSG(bloom_parse(buf, size, &back, &err) == BLOOM_OK, "%s", err.message);
    CHECK(back.kinds.mask == r.kinds.mask && back.kinds.type_oid == r.kinds.type_oid);
    *out_buf = buf;
    return back.kinds;
}

static void test_combine_kinds(void)
{
    bloom_filter ints, text, empty, date, uuid, small_ints;
    uint8_t *bi = filled(BLOOM_LAYOUT_CLASSIC, 1024, 3, BLOOM_KIND_NUMBER, 0, 20, &ints);
    uint8_t *bt = filled(BLOOM_LAYOUT_CLASSIC, 1024, 3, BLOOM_KIND_TEXT, 0, 20, &text);
    uint8_t *be = new_filter(BLOOM_LAYOUT_CLASSIC, 1024, 3, 0, &empty);
    uint8_t *bd = filled(BLOOM_LAYOUT_CLASSIC, 1024, 3, BLOOM_KIND_TYPED, DATE_OID, 20, &date);
    uint8_t *bu = filled(BLOOM_LAYOUT_CLASSIC, 1024, 3, BLOOM_KIND_TYPED, UUID_OID, 20, &uuid);
    uint8_t *bs = filled(BLOOM_LAYOUT_CLASSIC, 256, 3, BLOOM_KIND_NUMBER, 0, 5, &small_ints);
    const struct {
        const bloom_filter *a, *b;
        uint8_t mask; /* stored: text alone is 0 */
        uint32_t oid;
    } cases[] = {
        {&ints, &text, 0x03, 0}, /* a text side holds text */
        {&text, &ints, 0x03, 0},
        {&text, &text, 0, 0},
        {&empty, &ints, 0x01, 0}, /* an empty side holds nothing */
        {&ints, &empty, 0x01, 0},
        {&date, &date, BLOOM_KIND_TYPED, DATE_OID},
        {&date, &uuid, BLOOM_KIND_TYPED, 0}, /* two types: none */
        {&date, &text, BLOOM_KIND_TYPED | BLOOM_KIND_TEXT, DATE_OID},
        /* sizes that divide: a union of classes (scalable), a stretched intersection */
        {&small_ints, &text, 0x03, 0},
    };
    static const bloom_op ops[] = {BLOOM_OP_UNION, BLOOM_OP_INTERSECT};
    for (int o = 0; o < 2; o++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            uint8_t *r;
            bloom_kinds k = combined(cases[i].a, cases[i].b, ops[o], &r);
            CHECK_MSG(k.mask == cases[i].mask && k.type_oid == cases[i].oid && r[10] == cases[i].mask,
                      "op %d case %zu: mask 0x%02x oid %u", o, i, k.mask, (unsigned)k.type_oid);
            free(r);
        }
    /* in place, over the left operand's own bytes */
    bloom_error err;
    CHECK(bloom_union_into(&text, &ints, &err) == BLOOM_OK);
    CHECK(bt[10] == 0x03 && text.kinds.mask == 0x03);
    CHECK(bloom_intersect_into(&empty, &date, &err) == BLOOM_OK);
    CHECK(be[10] == BLOOM_KIND_TYPED && be[12] == (DATE_OID & 0xff) && be[13] == DATE_OID >> 8);
    free(bi), free(bt), free(be), free(bd), free(bu), free(bs);
}

static void test_copies_keep_kinds(void)
{
    bloom_filter f, out;
    bloom_error err;
    uint8_t *buf = filled(BLOOM_LAYOUT_CLASSIC, 1024, 3, BLOOM_KIND_TYPED, DATE_OID, 10, &f);
    bloom_kinds_record(&f, BLOOM_KIND_BYTES, 0);
    uint8_t small[BLOOM_HEADER_SIZE + 32], large[BLOOM_HEADER_SIZE + 256];
    CHECK(bloom_fold(&f, 256, small, sizeof small, &out, &err) == BLOOM_OK);
    CHECK(out.kinds.mask == 0x0c && out.kinds.type_oid == DATE_OID);
    CHECK(memcmp(small + 10, buf + 10, 6) == 0);
    CHECK(bloom_stretch(&out, 2048, large, sizeof large, &out, &err) == BLOOM_OK);
    CHECK(memcmp(large + 10, buf + 10, 6) == 0);
    uint8_t copy[BLOOM_HEADER_SIZE + 128];
    bloom_copy(&f, copy, &out);
    CHECK(memcmp(copy, buf, sizeof copy) == 0 && out.kinds.type_oid == DATE_OID);
    free(buf);

    /* counting: to_classic keeps them, removing a value keeps them */
    uint8_t *cb = filled(BLOOM_LAYOUT_COUNTING, 256, 3, BLOOM_KIND_NUMBER, 0, 5, &f);
    CHECK(bloom_remove_hash(&f, key_at(BLOOM_KIND_NUMBER * 1000, 0), &err) == BLOOM_OK);
    CHECK(cb[10] == 0x01);
    uint8_t classic[BLOOM_HEADER_SIZE + 32];
    CHECK(bloom_to_classic(&f, classic, sizeof classic, &out, &err) == BLOOM_OK);
    CHECK(classic[10] == 0x01 && out.kinds.mask == 0x01);
    free(cb);

    /* a growing scalable filter moves to new buffers: its kinds move too */
    size_t len;
    CHECK(bloom_empty_size(BLOOM_LAYOUT_SCALABLE, 2, 0.01, 0, &len, &err) == BLOOM_OK);
    void *sbuf = malloc(len);
    CHECK(bloom_empty_init(sbuf, len, BLOOM_LAYOUT_SCALABLE, 2, 0.01, 0, &f, &err) == BLOOM_OK);
    bloom_kinds_record(&f, BLOOM_KIND_TYPED, UUID_OID);
    for (uint64_t i = 0; i < 20; i++) {
        uint64_t h = key_at(5, i);
        CHECK(bloom_insert(&malloc_allocator, 0, &sbuf, &len, &f, &h, 1, &err) == BLOOM_OK);
    }
    CHECK(bloom_parse(sbuf, len, &out, &err) == BLOOM_OK);
    CHECK(out.kinds.mask == BLOOM_KIND_TYPED && out.kinds.type_oid == UUID_OID);
    /* and a union of two such keeps both */
    bloom_filter g;
    size_t elen;
    CHECK(bloom_empty_size(BLOOM_LAYOUT_SCALABLE, 2, 0.01, 0, &elen, &err) == BLOOM_OK);
    void *gbuf = malloc(elen);
    CHECK(bloom_empty_init(gbuf, elen, BLOOM_LAYOUT_SCALABLE, 2, 0.01, 0, &g, &err) == BLOOM_OK);
    uint64_t h = key_at(6, 0);
    bloom_kinds_record(&g, BLOOM_KIND_TEXT, 0);
    CHECK(bloom_insert(&malloc_allocator, 0, &gbuf, &elen, &g, &h, 1, &err) == BLOOM_OK);
    CHECK(((uint8_t *)gbuf)[10] == 0);
    uint8_t *r;
    bloom_kinds k = combined(&f, &g, BLOOM_OP_UNION, &r);
    CHECK(k.mask == (BLOOM_KIND_TYPED | BLOOM_KIND_TEXT) && k.type_oid == UUID_OID);
    free(r), free(sbuf), free(gbuf);
}

static uint8_t *finished(bloom_builder *b, size_t *len, bloom_filter *f)
{
    bloom_error err;
    CHECK(bloom_builder_result_size(b, len, &err) == BLOOM_OK);
    uint8_t *buf = malloc(*len);
    CHECK(bloom_builder_finish(b, buf, *len, f, &err) == BLOOM_OK);
    return buf;
}

/* A builder through its serialized state and back. */
static bloom_builder *round_trip(bloom_builder *b, uint8_t *encoding)
{
    size_t size;
    bloom_error err;
    bloom_builder *back = NULL;
    CHECK(bloom_builder_serialized_size(b, &size, &err) == BLOOM_OK);
    uint8_t *buf = malloc(size);
    CHECK(bloom_builder_serialize(b, buf, size, &err) == BLOOM_OK);
    *encoding = buf[7];
    CHECK_MSG(bloom_builder_deserialize(&malloc_allocator, buf, size, &back, &err) == BLOOM_OK,
              "%s", err.message);
    free(buf);
    bloom_builder_destroy(b);
    return back;
}

static void test_builder_kinds(void)
{
    bloom_error err;
    for (int layout = 0; layout < BLOOM_NLAYOUTS; layout++) {
        for (int many = 0; many < 2; many++) { /* Rice and raw encodings */
            int n = many ? 5000 : 2;
            bloom_builder *text, *nums;
            uint8_t enc;
            CHECK(bloom_builder_create(&malloc_allocator, layout, 0.01, 4, &text, &err) == BLOOM_OK);
            CHECK(bloom_builder_create(&malloc_allocator, layout, 0.01, 4, &nums, &err) == BLOOM_OK);
            for (int i = 0; i < n; i++) {
                CHECK(bloom_builder_add_hash(text, key_at(1, (uint64_t)i), &err) == BLOOM_OK);
                bloom_builder_add_kind(text, BLOOM_KIND_TEXT, 0);
                CHECK(bloom_builder_add_hash(nums, key_at(2, (uint64_t)i), &err) == BLOOM_OK);
                bloom_builder_add_kind(nums, BLOOM_KIND_TYPED, DATE_OID);
            }
            /* a text-only state has 1.1's bytes: no kinds block */
            text = round_trip(text, &enc);
            CHECK(enc < 0x80);
            CHECK(bloom_builder_kinds(text).mask == BLOOM_KIND_TEXT);
            nums = round_trip(nums, &enc);
            CHECK(enc >= 0x80);
            CHECK(bloom_builder_kinds(nums).mask == BLOOM_KIND_TYPED &&
                  bloom_builder_kinds(nums).type_oid == DATE_OID);
            /* partials merged: the text partial's class survives */
            CHECK(bloom_builder_merge(nums, text, &err) == BLOOM_OK);
            nums = round_trip(nums, &enc);
            bloom_kinds k = bloom_builder_kinds(nums);
            CHECK(k.mask == (BLOOM_KIND_TYPED | BLOOM_KIND_TEXT) && k.type_oid == DATE_OID);
            size_t len;
            bloom_filter f, g;
            uint8_t *buf = finished(nums, &len, &f);
            CHECK(bloom_parse(buf, len, &g, &err) == BLOOM_OK);
            CHECK(g.kinds.mask == 0x0a && g.kinds.type_oid == DATE_OID);
            free(buf);
            buf = finished(text, &len, &f);
            CHECK(buf[10] == 0);
            free(buf);
            bloom_builder_destroy(nums);
            bloom_builder_destroy(text);
        }
    }
    /* an empty builder: no kinds, no block */
    bloom_builder *b;
    uint8_t enc;
    CHECK(bloom_builder_create(&malloc_allocator, 0, 0.01, 0, &b, &err) == BLOOM_OK);
    b = round_trip(b, &enc);
    CHECK(enc == 0 && bloom_builder_kinds(b).mask == 0);
    bloom_builder_destroy(b);
}

static void test_state_kinds_refused(void)
{
    bloom_builder *b;
    bloom_error err;
    CHECK(bloom_builder_create(&malloc_allocator, 0, 0.01, 0, &b, &err) == BLOOM_OK);
    for (uint64_t i = 0; i < 10; i++)
        CHECK(bloom_builder_add_hash(b, key_at(3, i), &err) == BLOOM_OK);
    bloom_builder_add_kind(b, BLOOM_KIND_NUMBER, 0);
    size_t size;
    CHECK(bloom_builder_serialized_size(b, &size, &err) == BLOOM_OK);
    uint8_t *good = malloc(size), *bad = malloc(size);
    CHECK(bloom_builder_serialize(b, good, size, &err) == BLOOM_OK);
    CHECK(good[7] & 0x80 && good[32] == 0x01);
    static const struct {
        size_t offset;
        uint8_t value;
        const char *message;
    } cases[] = {
        {32, 0x40, "byte 32 of the builder state (value kinds) is 0x40"},
        {32, 0x02, "text alone"},
        {32, 0x00, "a state without kinds has no kinds bytes"},
        {33, 0x01, "reserved byte 33 of the builder state"},
        {34, 0x01, "bytes 34..37 of the builder state (type oid) hold 1 without the typed kind"},
        {7, 0x82, "unknown builder state encoding 130"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bloom_builder *back = NULL;
        memcpy(bad, good, size);
        bad[cases[i].offset] = cases[i].value;
        bloom_status st = bloom_builder_deserialize(&malloc_allocator, bad, size, &back, &err);
        CHECK_MSG(st == BLOOM_E_FORMAT, "case %zu: status %d", i, st);
        CHECK_MSG(strstr(err.message, cases[i].message) != NULL, "case %zu: '%s'", i, err.message);
        if (back)
            bloom_builder_destroy(back);
    }
    /* the kinds flag on a state too short for them */
    memcpy(bad, good, 32);
    bloom_builder *back = NULL;
    CHECK(bloom_builder_deserialize(&malloc_allocator, bad, 34, &back, &err) == BLOOM_E_FORMAT);
    free(good), free(bad);
    bloom_builder_destroy(b);
}

const test_case kinds_tests[] = {
    {"kinds: bytes 10..15 parsed, every wrong one refused by name", test_parse_kinds},
    {"kinds: add and merge, one OID or none", test_add_and_merge},
    {"kinds: a single add records its class; text alone stores 0", test_record_and_effective},
    {"kinds: union and intersection merge what each side holds", test_combine_kinds},
    {"kinds: fold, stretch, copy, to_classic, remove and growth keep them", test_copies_keep_kinds},
    {"kinds: the builder, its partials and its state carry them", test_builder_kinds},
    {"kinds: a builder state's kinds bytes validated", test_state_kinds_refused},
};
const size_t kinds_tests_count = sizeof kinds_tests / sizeof kinds_tests[0];
