-- Every function and operator on bloom values.
SET extra_float_digits = 0;

-- bloom_empty: sized for capacity at fpr; defaults fpr 0.01, seed 0, classic
SELECT layout, nbits, nhashes, seed, nbytes, bits_set, fill, format_version
FROM bloom_info(bloom_empty(1000));
SELECT layout, nbits, nhashes, seed FROM bloom_info(bloom_empty(1000, 0.001));
SELECT layout, nbits, nhashes, seed FROM bloom_info(bloom_empty(1000, 0.01, 42));
SELECT layout, nbits, nhashes, seed FROM bloom_info(bloom_empty(1000, 0.01, -1));
SELECT layout, nbits, nhashes, seed FROM bloom_info(bloom_empty(1000, 0.01, 0, 'blocked'));
SELECT layout FROM bloom_info(bloom_empty(10, layout => 'BLOCKED'));
SELECT bloom_empty(1000) = bloom_empty(1000, 0.01, 0, 'classic');

-- bloom_empty_mk: explicit m and k
SELECT layout, nbits, nhashes, seed, nbytes FROM bloom_info(bloom_empty_mk(1000, 5));
SELECT layout, nbits, nhashes, seed, nbytes FROM bloom_info(bloom_empty_mk(1, 1, 7));
SELECT layout, nbits, nhashes, seed, nbytes FROM bloom_info(bloom_empty_mk(512, 8, 0, 'blocked'));

-- bloom_add returns a new filter and leaves its argument alone
CREATE TABLE f1 AS SELECT bloom_empty(100) AS f;
SELECT bloom_add(f, 42) = f AS unchanged, bloom_contains(bloom_add(f, 42), 42) AS added FROM f1;
SELECT bits_set FROM f1, bloom_info(f1.f);
-- a NULL value adds nothing; a NULL filter stays NULL
SELECT bloom_add(f, NULL::int) = f FROM f1;
SELECT bloom_add(NULL::bloom, 1) IS NULL;
-- an unknown-typed literal is text
SELECT bloom_contains(bloom_add(f, 'abc'), 'abc'), bloom_contains(bloom_add(f, 'abc'), 'abc'::text),
       bloom_contains(bloom_add(f, 'abc'::varchar), 'abc') FROM f1;
-- NULL semantics of bloom_contains: unknown
SELECT bloom_contains(f, NULL::int) IS NULL, bloom_contains(NULL::bloom, 1) IS NULL FROM f1;

-- membership: no false negatives, and the operators
CREATE TABLE members AS
SELECT bloom_agg(g::int8, 1000, 0.01) AS f FROM generate_series(1, 1000) g;
SELECT count(*) FILTER (WHERE bloom_contains(f, g::int8)) AS found FROM members, generate_series(1, 1000) g;
SELECT count(*) FILTER (WHERE bloom_contains(f, g::int8)) AS false_positives
FROM members, generate_series(1001, 101000) g;
SELECT f @> 5 AS has5, f @> 5000 AS has5000, 5 <@ f AS in5, 5000::int8 <@ f AS in5000 FROM members;
SELECT bloom_add(bloom_empty(10), 'x') @> 'x' AS op_text, 'x' <@ bloom_add(bloom_empty(10), 'x') AS op_text2,
       contained_in_bloom('x'::text, bloom_add(bloom_empty(10), 'x')) AS fn;

-- union and intersection
CREATE TABLE parts AS
SELECT bloom_agg(g::int8, 1000, 0.01) FILTER (WHERE g <= 600) AS a,
       bloom_agg(g::int8, 1000, 0.01) FILTER (WHERE g > 400) AS b
FROM generate_series(1, 1000) g;
SELECT bloom_union(a, b) = (SELECT f FROM members) AS union_is_whole, (a | b) = bloom_union(a, b) AS op FROM parts;
SELECT (a & b) = bloom_intersect(a, b) AS op,
       count(*) FILTER (WHERE bloom_contains(a & b, g::int8)) AS both_found
FROM parts, generate_series(401, 600) g GROUP BY a, b;
SELECT a = (SELECT bloom_agg(g::int8, 1000, 0.01) FROM generate_series(1, 600) g) AS a_unchanged FROM parts;

-- estimates
SELECT round(bloom_cardinality(f)) AS card FROM members;
SELECT bloom_cardinality(bloom_empty(10)) AS empty_card;
SELECT bloom_cardinality(bloom_add(bloom_empty_mk(1, 1), 1)) AS saturated;
SELECT round(bloom_cardinality(a)) AS card_a, round(bloom_cardinality(b)) AS card_b,
       round(bloom_intersect_cardinality(a, b)) AS card_both, round(bloom_jaccard(a, b)::numeric, 2) AS jaccard
FROM parts;
SELECT bloom_jaccard(bloom_empty(10), bloom_empty(10)) AS empty_jaccard,
       bloom_intersect_cardinality(bloom_empty(10), bloom_empty(10)) AS empty_both;
SELECT round(bloom_fpr(f)::numeric, 4) AS fpr FROM members;
SELECT bloom_fpr(bloom_empty(10)) AS empty_fpr;
SELECT layout, nbits, nhashes, seed, nbytes, bits_set, round(fill::numeric, 4) AS fill,
       round(est_cardinality) AS est_cardinality, round(est_fpr::numeric, 4) AS est_fpr, format_version
FROM members, bloom_info(f);

-- bloom_version
SELECT bloom_version();
SELECT extversion = bloom_version() FROM pg_extension WHERE extname = 'bloomfilter';

-- bloom_ref: the filter itself, so SQLite's Bloom-join text runs here too
SELECT bloom_ref(f) = f AS same_filter, bloom_ref(NULL::bloom) IS NULL AS null_in_null_out FROM members;
SELECT count(*) AS found FROM generate_series(1, 20) g
WHERE bloom_contains((SELECT bloom_ref(f) FROM members), g);

-- Parquet: a blocked seed-0 filter's bits are a split-block bitset
CREATE TABLE pq AS
SELECT bloom_union_agg(bloom_add(bloom_empty(100, 0.01, 0, 'blocked'), g)) AS f FROM generate_series(1, 100) g;
SELECT octet_length(bloom_to_parquet(f)) AS bitset_bytes, octet_length(f::bytea) AS filter_bytes FROM pq;
-- a Parquet bitset carries the bits, not the value kinds (header byte 10)
SELECT bloom_from_parquet(bloom_to_parquet(f))::bytea = set_byte(f::bytea, 10, 0) AS round_trip,
       get_byte(f::bytea, 10) AS kinds, get_byte(bloom_from_parquet(bloom_to_parquet(f))::bytea, 10) AS parquet_kinds
FROM pq;
SELECT substring(f::bytea FROM 33) = bloom_to_parquet(f) AS same_bits FROM pq;
SELECT layout, nbits, nhashes, seed FROM bloom_info(bloom_from_parquet('\x'::bytea || decode(repeat('00', 64), 'hex')));
