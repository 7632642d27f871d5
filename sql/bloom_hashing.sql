-- Canonical hashing: equal values hash equal whatever their column type.

-- Known answers: XXH64 of the empty string and of "abc" with seed 0
-- (0xef46db3751d8e999 and 0x44bc2cf5ad770999 as signed 64-bit integers).
SELECT bloom_hash(''::text) AS empty, bloom_hash('abc') AS abc;
SELECT bloom_hash('abc', 0) = bloom_hash('abc') AS default_seed, bloom_hash('abc', 1) <> bloom_hash('abc') AS seeded;

-- integers of every width, bool, oid, integral floats and numerics hash as int64
SELECT bloom_hash(5::int2) = bloom_hash(5::int8) AS int2,
       bloom_hash(5::int4) = bloom_hash(5::int8) AS int4,
       bloom_hash(5::oid) = bloom_hash(5::int8) AS oid,
       bloom_hash(5::float4) = bloom_hash(5::int8) AS float4,
       bloom_hash(5::float8) = bloom_hash(5::int8) AS float8,
       bloom_hash(5.000::numeric) = bloom_hash(5::int8) AS numeric,
       bloom_hash(true) = bloom_hash(1::int8) AS bool_true,
       bloom_hash(false) = bloom_hash(0::int8) AS bool_false;
SELECT bloom_hash((-9223372036854775808)::int8) = bloom_hash((-9223372036854775808)::numeric) AS int8_min,
       bloom_hash(9223372036854775807::int8) = bloom_hash(9223372036854775807::numeric) AS int8_max,
       bloom_hash(-0.0::float8) = bloom_hash(0::int8) AS negative_zero;
-- the extension's inline int64 hash agrees with the core's (numeric goes
-- through the core) over many values and seeds
SELECT count(*) AS compared,
       count(*) FILTER (WHERE bloom_hash(v, s) <> bloom_hash(v::numeric, s)) AS int8_vs_core,
       count(*) FILTER (WHERE bloom_hash(v::int4, s) <> bloom_hash(v::numeric, s)) AS int4_vs_core
FROM (SELECT (g * 2654435761) % 2147483647 - 1073741823 AS v FROM generate_series(1, 2000) g) vals,
     (VALUES (0::int8), (1), (-1), (1234567890123)) seeds(s);
-- fractions: float4 widened; numeric to the nearest float8
SELECT bloom_hash(0.5::float4) = bloom_hash(0.5::float8) AS float4_half,
       bloom_hash(0.1::float4) = bloom_hash(0.1::float8) AS float4_tenth_differs,
       bloom_hash(0.1::float4) = bloom_hash((0.1::float4)::float8) AS float4_widened,
       bloom_hash(0.1::numeric) = bloom_hash(0.1::float8) AS numeric_tenth,
       bloom_hash(-2.50::numeric) = bloom_hash(-2.5::float8) AS numeric_trailing_zero,
       bloom_hash(1e20::numeric) = bloom_hash(1e20::float8) AS numeric_beyond_int64,
       bloom_hash('NaN'::numeric) = bloom_hash('NaN'::float8) AS nan,
       bloom_hash('Infinity'::numeric) = bloom_hash('Infinity'::float8) AS inf,
       bloom_hash('-Infinity'::numeric) = bloom_hash('-Infinity'::float8) AS neg_inf;
-- a numeric beyond float8's range hashes its normalized text
SELECT bloom_hash(('1' || repeat('0', 400))::numeric) = bloom_hash('1' || repeat('0', 400)) AS huge,
       bloom_hash(('1' || repeat('0', 400) || '.500')::numeric) = bloom_hash('1' || repeat('0', 400) || '.5') AS huge_fraction;

-- strings: text, varchar, name and char(n) (without trailing blanks) hash the bytes
SELECT bloom_hash('abc'::varchar) = bloom_hash('abc'::text) AS varchar,
       bloom_hash('abc'::name) = bloom_hash('abc'::text) AS name,
       bloom_hash('abc'::char(10)) = bloom_hash('abc'::text) AS bpchar,
       bloom_hash(' abc'::char(10)) = bloom_hash(' abc'::text) AS leading_blank_kept,
       bloom_hash('abc'::bytea) = bloom_hash('abc'::text) AS bytea;
-- a domain hashes as its base type
CREATE DOMAIN positive_int AS int4 CHECK (VALUE > 0);
CREATE DOMAIN short_text AS varchar(20);
SELECT bloom_hash(7::positive_int) = bloom_hash(7::int8) AS int_domain,
       bloom_hash('xyz'::short_text) = bloom_hash('xyz') AS text_domain;
-- other types hash the bytes of their binary send function
SELECT bloom_hash('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)
       = bloom_hash(uuid_send('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')) AS uuid,
       bloom_hash('2024-02-29'::date) = bloom_hash(date_send('2024-02-29')) AS date,
       bloom_hash('2024-02-29 12:34:56'::timestamp) = bloom_hash(timestamp_send('2024-02-29 12:34:56')) AS ts,
       bloom_hash('1 day'::interval) = bloom_hash(interval_send('1 day')) AS interval,
       bloom_hash(ARRAY[1, 2]) = bloom_hash(array_send(ARRAY[1, 2])) AS int_array;

-- type equivalence inside filters: built from int4, probed as other types
CREATE TABLE ints AS SELECT g::int4 AS v FROM generate_series(-1000, 1000, 7) g;
CREATE TABLE int_filter AS SELECT bloom_agg(v) AS f FROM ints;
SELECT count(*) AS n,
       count(*) FILTER (WHERE bloom_contains(f, v)) AS int4,
       count(*) FILTER (WHERE bloom_contains(f, v::int2)) AS int2,
       count(*) FILTER (WHERE bloom_contains(f, v::int8)) AS int8,
       count(*) FILTER (WHERE bloom_contains(f, v::numeric)) AS numeric,
       count(*) FILTER (WHERE bloom_contains(f, v::numeric(10, 2))) AS numeric_scaled,
       count(*) FILTER (WHERE bloom_contains(f, v::float8)) AS float8,
       count(*) FILTER (WHERE bloom_contains(f, v::float4)) AS float4
FROM ints, int_filter;
-- and the same filter from other column types
SELECT (SELECT bloom_agg(v::int8) FROM ints) = f AS from_int8,
       (SELECT bloom_agg(v::int2) FROM ints) = f AS from_int2,
       (SELECT bloom_agg(v::numeric) FROM ints) = f AS from_numeric,
       (SELECT bloom_agg(v::float8) FROM ints) = f AS from_float8,
       (SELECT bloom_agg(v::float4) FROM ints) = f AS from_float4
FROM int_filter;

CREATE TABLE words AS SELECT 'w' || g AS t FROM generate_series(1, 300) g;
CREATE TABLE word_filter AS SELECT bloom_agg(t) AS f FROM words;
SELECT count(*) AS n,
       count(*) FILTER (WHERE bloom_contains(f, t)) AS text,
       count(*) FILTER (WHERE bloom_contains(f, t::varchar)) AS varchar,
       count(*) FILTER (WHERE bloom_contains(f, t::char(12))) AS bpchar,
       count(*) FILTER (WHERE bloom_contains(f, t::name)) AS name
FROM words, word_filter;
SELECT (SELECT bloom_agg(t::varchar) FROM words) = f AS from_varchar,
       (SELECT bloom_agg(t::char(12)) FROM words) = f AS from_bpchar,
       (SELECT bloom_agg(t::name) FROM words) = f AS from_name
FROM word_filter;

-- The golden vectors of docs/FORMAT.md (tools/reference.py): the same bytes
-- the SQLite extension and the reference implementation produce.
SELECT to_hex(bloom_hash(''::text)) AS empty, to_hex(bloom_hash('abc')) AS abc,
       to_hex(bloom_hash(1)) AS one, to_hex(bloom_hash(-1)) AS minus_one,
       to_hex(bloom_hash(5.0::float8)) AS five, to_hex(bloom_hash(0.5::float8)) AS half,
       to_hex(bloom_hash('NaN'::float8)) AS nan, to_hex(bloom_hash('\x0102'::bytea)) AS bytes;
SELECT bloom_empty_mk(64, 3)::text
       = '\x424c4f4d010001030000000000000000000000000000000040000000000000000000000000000000' AS empty_classic,
       bloom_add(bloom_add(bloom_add(bloom_empty_mk(128, 3), 1), 2), 3)::text
       = '\x424c4f4d0100010300000100000000000000000000000000800000000000000004000000000100000880000800002012' AS classic_ints,
       bloom_add(bloom_add(bloom_add(bloom_add(bloom_add(bloom_empty_mk(100, 5, 42), 'apple'), ''), -7), 2.5::float8), '\x00ff'::bytea)::text
       = '\x424c4f4d0100010500000700000000002a000000000000006400000000000000182c001a02b908982010401405000000' AS classic_mixed,
       bloom_add(bloom_add(bloom_empty_mk(64, 2, 7), 5.0::float8), true)::text
       = '\x424c4f4d010001020000010000000000070000000000000040000000000000000000020000044200' AS five_and_true,
       bloom_add(bloom_add(bloom_add(bloom_add(bloom_empty_mk(512, 8, 0, 'blocked'), 1), 2), 3), 1000000)::text
       = '\x424c4f4d0101010800000100000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000000000000000000004180804000482020404020002260040004204000042884008002020090008' AS blocked_ints,
       bloom_add(bloom_add(bloom_empty_mk(256, 8, 9, 'blocked'), 'bloom'), 'filter')::text
       = '\x424c4f4d010101080000000000000000090000000000000000010000000000001200000000800100000c0000100004000000408000000102000000a000000060' AS blocked_text;
-- and through the union aggregate of one-value filters
SELECT bloom_union_agg(bloom_add(bloom_empty_mk(128, 3), v))::text
       = '\x424c4f4d0100010300000100000000000000000000000000800000000000000004000000000100000880000800002012' AS classic_ints_agg
FROM (VALUES (1), (2), (3)) t(v);
