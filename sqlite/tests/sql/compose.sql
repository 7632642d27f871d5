-- Filters whose sizes divide combine: a union keeps each size class, an
-- intersection is at the larger size (docs/FORMAT.md "Combining"), and
-- bloom_fold shrinks a filter explicitly.
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on
CREATE TABLE s AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 1500) SELECT v FROM r;
-- a: 1..1000 in 32768 bits; b: 801..1500 in 8192 bits; the same k and seed.
CREATE TABLE f AS SELECT
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(32768, 7), v)) FROM s WHERE v <= 1000) AS a,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM s WHERE v > 800) AS b,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM s WHERE v <= 1000) AS a_small,
  (SELECT bloom_union_agg(bloom_add(bloom_empty_mk(8192, 7), v)) FROM s) AS all_small;
-- Folding a to 8192 bits gives the filter built at 8192 bits, bit for bit.
SELECT bloom_fold(a, 8192) = a_small AS fold_is_small_build, length(bloom_fold(a, 8192)) AS bytes,
       bloom_fold(a, 32768) = a AS fold_to_own_size_copies FROM f;
-- The union keeps both sizes: a scalable filter whose stages are b and a,
-- bit for bit (its bytes: the header, a stack header, two stage records,
-- then b's bits and a's), in either order.
SELECT json_extract(bloom_info(bloom_union(a, b)), '$.layout') AS union_layout,
       json_extract(bloom_info(bloom_union(a, b)), '$.nbits') AS union_nbits,
       length(bloom_union(a, b)) = 32 + 32 + 2 * 32 + 1024 + 4096 AS union_bytes,
       substr(bloom_union(a, b), 129, 1024) = substr(b, 33) AS stage_0_is_b,
       substr(bloom_union(a, b), 129 + 1024) = substr(a, 33) AS stage_1_is_a,
       bloom_union(a, b) = bloom_union(b, a) AS either_order FROM f;
SELECT sum(bloom_contains((SELECT bloom_union(a, b) FROM f), v)) AS members_found FROM s;
-- The intersection is at the larger size: b stretched (each bit repeated
-- four times) and ANDed with a; it keeps every common value.
SELECT json_extract(bloom_info(bloom_intersect(a, b)), '$.nbits') AS intersect_nbits,
       bloom_intersect(a, b) = bloom_intersect(b, a) AS intersect_either_order FROM f;
SELECT sum(bloom_contains((SELECT bloom_intersect(a, b) FROM f), v)) AS common_found
FROM s WHERE v BETWEEN 801 AND 1000;
SELECT round(bloom_intersect_cardinality(a, b), -1) AS common_about,
       round(bloom_jaccard(a, b), 1) AS jaccard_about FROM f;
-- bloom_fpr reports the result's rate: the union's is both stages' (not
-- 1.1's, every value folded into 8192 bits), the intersection's below a's.
SELECT bloom_fpr(a) < 0.01 AS a_alone,
       abs(bloom_fpr(bloom_union(a, b)) - (1 - (1 - bloom_fpr(a)) * (1 - bloom_fpr(b)))) < 1e-12 AS union_rate,
       bloom_fpr(bloom_union(a, b)) < bloom_fpr(all_small) AS below_folded,
       bloom_fpr(bloom_intersect(a, b)) <= bloom_fpr(a) AS intersect_rate FROM f;
-- The aggregates give the same filters, whatever the order.
SELECT bloom_union_agg(x) = (SELECT bloom_union(a, b) FROM f) AS union_agg_large_first
FROM (SELECT a AS x FROM f UNION ALL SELECT b FROM f);
SELECT bloom_union_agg(x) = (SELECT bloom_union(a, b) FROM f) AS union_agg_small_first
FROM (SELECT b AS x FROM f UNION ALL SELECT a FROM f);
SELECT bloom_intersect_agg(x) = (SELECT bloom_intersect(a, b) FROM f) AS intersect_agg
FROM (SELECT a AS x FROM f UNION ALL SELECT b FROM f);
SELECT bloom_intersect_agg(x) = (SELECT bloom_intersect(a, b) FROM f) AS intersect_agg_small_first
FROM (SELECT b AS x FROM f UNION ALL SELECT a FROM f);
-- One size class: OR, as before; a union of the union with a class it
-- holds already keeps its size.
SELECT bloom_union(a_small, b) = all_small AS same_class_union,
       length(bloom_union(bloom_union(a, b), a_small)) = length(bloom_union(a, b)) AS class_merged FROM f;
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
-- README's rollup (PostgreSQL's there): one self-sized filter a day, the
-- days of 1, 10, ..., 10^6 users, each day's users among the next's.
CREATE TABLE visits AS
WITH RECURSIVE d(d, n) AS (VALUES (0, 1), (1, 10), (2, 100), (3, 1000), (4, 10000), (5, 100000), (6, 1000000)),
     u(u) AS (SELECT 1 UNION ALL SELECT u + 1 FROM u WHERE u < 1000000)
SELECT date('2026-10-30', '+' || d || ' days') AS day, u AS user_id FROM d JOIN u ON u <= n;
CREATE TABLE daily (day TEXT PRIMARY KEY, visitors BLOB);
INSERT INTO daily SELECT day, bloom_agg(user_id) FROM visits GROUP BY day;
-- seven size classes, 64 to 2^24 bits
SELECT day, json_extract(bloom_info(visitors), '$.nbits') AS nbits FROM daily ORDER BY day;
CREATE TABLE daily_union AS SELECT bloom_union_agg(visitors) AS u FROM daily;
-- the README's numbers, the same as PostgreSQL's
SELECT json_extract(bloom_info(u), '$.layout') AS layout, round(bloom_cardinality(u)) AS users,
       round(bloom_fpr(u), 3) AS union_fpr, length(u) AS bytes
FROM daily_union;
-- no member of any day lost: every user of the days of up to 1,000, one in
-- 1,000 of the others (each probe copies the 2.2 MB value in SQLite: the
-- whole check is PostgreSQL's and the core's)
SELECT count(*) AS probed, count(*) FILTER (WHERE NOT bloom_contains((SELECT u FROM daily_union), user_id)) AS members_lost
FROM visits WHERE day <= '2026-11-02' OR user_id % 1000 = 1;
-- The recipe for rollups at the target rate in one size: every day sized
-- for the largest union (10^6 users).
CREATE TABLE daily_sized (day TEXT PRIMARY KEY, visitors BLOB);
INSERT INTO daily_sized SELECT day, bloom_agg(user_id, 1000000, 0.01) FROM visits GROUP BY day;
SELECT round(bloom_cardinality(u), -3) AS users, bloom_fpr(u) <= 0.01 AS at_target,
       json_extract(bloom_info(u), '$.layout') AS layout
FROM (SELECT bloom_union_agg(visitors) AS u FROM daily_sized);
-- Self-sized and fixed-size filters of one rate combine too: two classes.
SELECT json_extract(bloom_info(bloom_union(d.visitors, s.visitors)), '$.nbits')
         = json_extract(bloom_info(d.visitors), '$.nbits') + json_extract(bloom_info(s.visitors), '$.nbits') AS mixed_union
FROM daily d JOIN daily_sized s USING (day) WHERE day = '2026-10-30';
