-- Filters whose sizes divide combine: the larger is folded to the smaller
-- (docs/FORMAT.md "Folding"), and bloom_fold does it explicitly.
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on
CREATE TABLE s AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 5000) SELECT v FROM r;
-- a: 1..3000 in 32768 bits; b: 2001..5000 in 8192 bits; the same k and seed.
CREATE TABLE f AS SELECT
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(32768, 7), v)) FROM s WHERE v <= 3000) AS a,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM s WHERE v > 2000) AS b,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM s WHERE v <= 3000) AS a_small,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM s) AS all_small;
-- Folding a to 8192 bits gives the filter built at 8192 bits, bit for bit.
SELECT bloom_fold(a, 8192) = a_small AS fold_is_small_build, length(bloom_fold(a, 8192)) AS bytes,
       bloom_fold(a, 32768) = a AS fold_to_own_size_copies FROM f;
-- The union has the smaller size and is the filter of both sets built there.
SELECT json_extract(bloom_info(bloom_union(a, b)), '$.nbits') AS union_nbits,
       bloom_union(a, b) = all_small AS union_is_build_of_both,
       bloom_union(b, a) = all_small AS either_order FROM f;
SELECT sum(bloom_contains((SELECT bloom_union(a, b) FROM f), v)) AS members_found FROM s;
SELECT sum(bloom_contains((SELECT bloom_intersect(a, b) FROM f), v)) AS common_found
FROM s WHERE v BETWEEN 2001 AND 3000;
SELECT bloom_intersect(a, b) = bloom_intersect(b, a) AS intersect_either_order,
       round(bloom_intersect_cardinality(a, b), -2) AS common_about,
       round(bloom_jaccard(a, b), 1) AS jaccard_about FROM f;
-- bloom_fpr reports the result's rate: more values in fewer bits.
SELECT bloom_fpr(a) < 0.01 AS a_alone, bloom_fpr(bloom_union(a, b)) > 0.05 AS union_fuller FROM f;
-- The aggregates: the state shrinks when a smaller filter arrives.
SELECT bloom_union_agg(x) = (SELECT all_small FROM f) AS union_agg_large_first
FROM (SELECT a AS x FROM f UNION ALL SELECT b FROM f);
SELECT bloom_union_agg(x) = (SELECT all_small FROM f) AS union_agg_small_first
FROM (SELECT b AS x FROM f UNION ALL SELECT a FROM f);
SELECT bloom_intersect_agg(x) = (SELECT bloom_intersect(a, b) FROM f) AS intersect_agg
FROM (SELECT a AS x FROM f UNION ALL SELECT b FROM f);
-- Blocked filters fold by whole blocks: 12 blocks to 3.
SELECT json_extract(bloom_info(bloom_fold(bloom_add(bloom_empty_mk(3072, 8, 0, 'blocked'), 42), 768)),
                    '$.nbits') AS blocked_nbits,
       bloom_fold(bloom_add(bloom_empty_mk(3072, 8, 0, 'blocked'), 42), 768)
         = bloom_add(bloom_empty_mk(768, 8, 0, 'blocked'), 42) AS blocked_fold_is_build;
-- Refused: sizes that do not divide, other seed, other nhashes.
SELECT bloom_fold(a, 1000) FROM f;
SELECT bloom_fold(a, 65536) FROM f;
SELECT bloom_fold(bloom_empty_mk(3072, 8, 0, 'blocked'), 1280);
SELECT bloom_union(a, bloom_empty_mk(24576, 7)) FROM f;
SELECT bloom_union(a, bloom_empty_mk(8192, 7, 1)) FROM f;
SELECT bloom_jaccard(a, bloom_empty_mk(8192, 6)) FROM f;
-- README's rollup: one self-sized filter a day, each day a different
-- distinct count (300 * (d + 1)^2 users), so each its own size class.
CREATE TABLE visits AS
WITH RECURSIVE d(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM d WHERE d < 5),
     u(u) AS (SELECT 1 UNION ALL SELECT u + 1 FROM u WHERE u < 10800)
SELECT date('2026-10-30', '+' || d || ' days') AS day, u AS user_id FROM d, u
WHERE u <= 300 * (d + 1) * (d + 1);
CREATE TABLE daily (day TEXT PRIMARY KEY, visitors BLOB);
INSERT INTO daily SELECT day, bloom_agg(user_id) FROM visits GROUP BY day;
SELECT count(DISTINCT json_extract(bloom_info(visitors), '$.nbits')) AS sizes FROM daily;
SELECT round(bloom_cardinality(bloom_union_agg(visitors))) AS union_estimate
FROM daily WHERE day >= '2026-11-01';
-- The union has the smallest filter's size and holds every member, at the
-- rate bloom_fpr reports: far above 1%, since 10800 users share bits sized
-- for 2700.
SELECT json_extract(bloom_info(u), '$.nbits') AS union_nbits, round(bloom_fpr(u), 2) AS union_fpr,
       (SELECT count(*) FROM visits WHERE day = '2026-11-04' AND bloom_contains(u, user_id)) AS members_found
FROM (SELECT bloom_union_agg(visitors) AS u FROM daily WHERE day >= '2026-11-01');
-- The recipe for rollups at the target rate: every day sized for the
-- largest union (here at most 20000 users).
CREATE TABLE daily_sized (day TEXT PRIMARY KEY, visitors BLOB);
INSERT INTO daily_sized SELECT day, bloom_agg(user_id, 20000, 0.01) FROM visits GROUP BY day;
SELECT bloom_fpr(u) <= 0.01 AS at_target, abs(bloom_cardinality(u) - 10800) < 216 AS estimate_within_2_percent,
       (SELECT count(*) FROM visits WHERE day = '2026-11-04' AND bloom_contains(u, user_id)) AS members_found
FROM (SELECT bloom_union_agg(visitors) AS u FROM daily_sized WHERE day >= '2026-11-01');
-- Self-sized and fixed-size filters of one rate combine too.
SELECT bloom_union(d.visitors, s.visitors)
         = bloom_union(bloom_fold(s.visitors, json_extract(bloom_info(d.visitors), '$.nbits')), d.visitors) AS mixed_union
FROM daily d JOIN daily_sized s USING (day) WHERE day = '2026-10-30';
