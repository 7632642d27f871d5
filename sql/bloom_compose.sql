-- Filters whose sizes divide combine: the larger is folded to the smaller
-- (docs/FORMAT.md "Folding"), and bloom_fold does it explicitly.
SET extra_float_digits = 0;

-- a: 1..3000 in 32768 bits; b: 2001..5000 in 8192 bits; the same k and seed.
CREATE TABLE fold_f AS SELECT
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(32768, 7), v)) FROM generate_series(1, 3000) v) AS a,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM generate_series(2001, 5000) v) AS b,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM generate_series(1, 3000) v) AS a_small,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM generate_series(1, 5000) v) AS all_small;

-- Folding a to 8192 bits gives the filter built at 8192 bits, bit for bit.
SELECT bloom_fold(a, 8192) = a_small AS fold_is_small_build,
       octet_length(bloom_fold(a, 8192)::bytea) AS bytes,
       bloom_fold(a, 32768) = a AS fold_to_own_size_copies FROM fold_f;

-- The union has the smaller size and is the filter of both sets built there.
SELECT (bloom_info(a | b)).nbits AS union_nbits, a | b = all_small AS union_is_build_of_both,
       bloom_union(b, a) = all_small AS either_order FROM fold_f;
SELECT count(*) FILTER (WHERE (SELECT a | b FROM fold_f) @> v) AS members_found
FROM generate_series(1, 5000) v;
SELECT count(*) FILTER (WHERE (SELECT a & b FROM fold_f) @> v) AS common_found
FROM generate_series(2001, 3000) v;
SELECT a & b = b & a AS intersect_either_order,
       round(bloom_intersect_cardinality(a, b)::numeric, -2) AS common_about,
       round(bloom_jaccard(a, b)::numeric, 1) AS jaccard_about FROM fold_f;

-- bloom_fpr reports the result's rate: more values in fewer bits.
SELECT bloom_fpr(a) < 0.01 AS a_alone, bloom_fpr(a | b) > 0.05 AS union_fuller FROM fold_f;

-- The aggregates: the state shrinks when a smaller filter arrives.
SELECT bloom_union_agg(x ORDER BY o) = (SELECT all_small FROM fold_f) AS union_agg_large_first
FROM (SELECT 1, a FROM fold_f UNION ALL SELECT 2, b FROM fold_f) t(o, x);
SELECT bloom_union_agg(x ORDER BY o) = (SELECT all_small FROM fold_f) AS union_agg_small_first
FROM (SELECT 2, a FROM fold_f UNION ALL SELECT 1, b FROM fold_f) t(o, x);
SELECT bloom_intersect_agg(x ORDER BY o) = (SELECT a & b FROM fold_f) AS intersect_agg
FROM (SELECT 1, a FROM fold_f UNION ALL SELECT 2, b FROM fold_f) t(o, x);

-- Blocked filters fold by whole blocks: 12 blocks to 3.
SELECT (bloom_info(bloom_fold(bloom_add(bloom_empty_mk(3072, 8, 0, 'blocked'), 42), 768))).nbits
         AS blocked_nbits,
       bloom_fold(bloom_add(bloom_empty_mk(3072, 8, 0, 'blocked'), 42), 768)
         = bloom_add(bloom_empty_mk(768, 8, 0, 'blocked'), 42) AS blocked_fold_is_build;

-- Refused: sizes that do not divide, other seed, other nhashes.
\set VERBOSITY default
SELECT bloom_fold(a, 1000) FROM fold_f;
SELECT bloom_fold(a, 65536) FROM fold_f;
SELECT bloom_fold(a, 0) FROM fold_f;
SELECT bloom_fold(bloom_empty_mk(3072, 8, 0, 'blocked'), 1280);
SELECT a | bloom_empty_mk(24576, 7) FROM fold_f;
SELECT bloom_intersect(a, bloom_empty_mk(8192, 7, 1)) FROM fold_f;
SELECT bloom_jaccard(a, bloom_empty_mk(8192, 6)) FROM fold_f;
SELECT bloom_union_agg(x) FROM (VALUES (bloom_empty_mk(4096, 7)), (bloom_empty_mk(3072, 7))) t(x);

DROP TABLE fold_f;
