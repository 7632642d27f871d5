-- Filters whose sizes divide combine: a union keeps each size class, an
-- intersection is at the larger size (docs/FORMAT.md "Combining"), and
-- bloom_fold shrinks a filter explicitly.
SET extra_float_digits = 0;

-- a: 1..1000 in 32768 bits; b: 801..1500 in 8192 bits; the same k and seed.
CREATE TABLE fold_f AS SELECT
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(32768, 7), v)) FROM generate_series(1, 1000) v) AS a,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM generate_series(801, 1500) v) AS b,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM generate_series(1, 1000) v) AS a_small,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM generate_series(1, 1500) v) AS all_small;

-- Folding a to 8192 bits gives the filter built at 8192 bits, bit for bit.
SELECT bloom_fold(a, 8192) = a_small AS fold_is_small_build,
       octet_length(bloom_fold(a, 8192)::bytea) AS bytes,
       bloom_fold(a, 32768) = a AS fold_to_own_size_copies FROM fold_f;

-- The union keeps both sizes: a scalable filter whose stages are b and a,
-- bit for bit (its bytes: the header, a stack header, two stage records,
-- then b's bits and a's), in either order.
SELECT (bloom_info(a | b)).layout AS union_layout, (bloom_info(a | b)).nbits AS union_nbits,
       octet_length((a | b)::bytea) = 32 + 32 + 2 * 32 + 1024 + 4096 AS union_bytes,
       substring((a | b)::bytea FROM 129 FOR 1024) = substring(b::bytea FROM 33) AS stage_0_is_b,
       substring((a | b)::bytea FROM 129 + 1024) = substring(a::bytea FROM 33) AS stage_1_is_a,
       bloom_union(b, a) = a | b AS either_order FROM fold_f;
SELECT count(*) FILTER (WHERE (SELECT a | b FROM fold_f) @> v) AS members_found
FROM generate_series(1, 1500) v;
-- The intersection is at the larger size: b stretched (each bit repeated
-- four times) and ANDed with a; it keeps every common value.
SELECT (bloom_info(a & b)).nbits AS intersect_nbits, a & b = b & a AS intersect_either_order FROM fold_f;
SELECT count(*) FILTER (WHERE (SELECT a & b FROM fold_f) @> v) AS common_found
FROM generate_series(801, 1000) v;
SELECT round(bloom_intersect_cardinality(a, b)::numeric, -1) AS common_about,
       round(bloom_jaccard(a, b)::numeric, 1) AS jaccard_about FROM fold_f;

-- bloom_fpr reports the result's rate: the union's is both stages' (not
-- 1.1's, every value folded into 8192 bits), the intersection's below a's.
SELECT bloom_fpr(a) < 0.01 AS a_alone,
       abs(bloom_fpr(a | b) - (1 - (1 - bloom_fpr(a)) * (1 - bloom_fpr(b)))) < 1e-12 AS union_rate,
       bloom_fpr(a | b) < bloom_fpr(all_small) AS below_folded,
       bloom_fpr(a & b) <= bloom_fpr(a) AS intersect_rate FROM fold_f;

-- The aggregates give the same filters, whatever the order.
SELECT bloom_union_agg(x ORDER BY o) = (SELECT a | b FROM fold_f) AS union_agg_large_first
FROM (SELECT 1, a FROM fold_f UNION ALL SELECT 2, b FROM fold_f) t(o, x);
SELECT bloom_union_agg(x ORDER BY o) = (SELECT a | b FROM fold_f) AS union_agg_small_first
FROM (SELECT 2, a FROM fold_f UNION ALL SELECT 1, b FROM fold_f) t(o, x);
SELECT bloom_intersect_agg(x ORDER BY o) = (SELECT a & b FROM fold_f) AS intersect_agg
FROM (SELECT 1, a FROM fold_f UNION ALL SELECT 2, b FROM fold_f) t(o, x);
SELECT bloom_intersect_agg(x ORDER BY o) = (SELECT a & b FROM fold_f) AS intersect_agg_small_first
FROM (SELECT 2, a FROM fold_f UNION ALL SELECT 1, b FROM fold_f) t(o, x);

-- One size class: OR, as before; a union of the union with a class it
-- holds already keeps its size.
SELECT a_small | b = all_small AS same_class_union,
       octet_length(((a | b) | a_small)::bytea) = octet_length((a | b)::bytea) AS class_merged FROM fold_f;

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

-- README's rollup, as written there: one self-sized filter a day, the days
-- of 1, 10, ..., 10^6 users, each day's users among the next's.
CREATE TABLE visits AS
SELECT DATE '2026-10-30' + d AS day, u AS user_id
FROM generate_series(0, 6) d, generate_series(1, (10 ^ d)::int) u;
CREATE TABLE daily (day date PRIMARY KEY, visitors bloom);
INSERT INTO daily SELECT day, bloom_agg(user_id) FROM visits GROUP BY day;
-- seven size classes, 64 to 2^24 bits
SELECT day, (bloom_info(visitors)).nbits FROM daily ORDER BY day;
CREATE TABLE daily_union AS SELECT bloom_union_agg(visitors) AS u FROM daily;
-- the README's query and its numbers
SELECT (bloom_info(u)).layout, round(bloom_cardinality(u)) AS users,
       round(bloom_fpr(u)::numeric, 3) AS union_fpr
FROM daily_union;
-- each class a stage, 2.2 MB in all, at most twice the largest day's
SELECT length(u::bytea) AS bytes, (bloom_info(u)).nbits = (SELECT sum((bloom_info(visitors)).nbits) FROM daily) AS stage_per_day,
       length(u::bytea) <= 2 * (SELECT max(length(visitors::bytea)) FROM daily) AS at_most_twice_the_largest
FROM daily_union;
-- no member of any day lost
SELECT count(*) AS members_lost FROM visits WHERE NOT bloom_contains((SELECT u FROM daily_union), user_id);
-- the rate it reports is the one measured on values never added
SELECT abs(count(*) FILTER (WHERE bloom_contains((SELECT u FROM daily_union), v)) / 200000.0
           - (SELECT bloom_fpr(u) FROM daily_union)) < 0.003 AS measured_rate_as_reported
FROM generate_series(10000001, 10200000) v;
-- The recipe for rollups at the target rate in one size: every day sized
-- for the largest union (10^6 users).
CREATE TABLE daily_sized (day date PRIMARY KEY, visitors bloom);
INSERT INTO daily_sized SELECT day, bloom_agg(user_id, 1000000, 0.01) FROM visits GROUP BY day;
SELECT round(bloom_cardinality(u)::numeric, -3) AS users, bloom_fpr(u) <= 0.01 AS at_target, (bloom_info(u)).layout,
       (SELECT count(*) FROM visits WHERE NOT bloom_contains(u, user_id)) AS members_lost
FROM (SELECT bloom_union_agg(visitors) AS u FROM daily_sized) s;
-- Self-sized and fixed-size filters of one rate combine too: two classes.
SELECT (bloom_info(bloom_union(d.visitors, s.visitors))).nbits
         = (bloom_info(d.visitors)).nbits + (bloom_info(s.visitors)).nbits AS mixed_union
FROM daily d JOIN daily_sized s USING (day) WHERE day = '2026-10-30';
DROP TABLE visits, daily, daily_union, daily_sized;
