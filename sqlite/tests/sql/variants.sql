-- Counting filters (removal), scalable filters (growth) and rollups of
-- self-sized filters of very different sizes (docs/FORMAT.md; the same
-- checks as PostgreSQL's sql/bloom_variants.sql).
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on
CREATE TABLE s AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 2000) SELECT v FROM r;

-- ---- counting ----
-- A counter where classic has a bit: the same nbits and nhashes, four times the bytes.
SELECT json_extract(bloom_info(bloom_empty(2000, 0.01, 0, 'counting')), '$.layout') AS layout,
       json_extract(bloom_info(bloom_empty(2000, 0.01, 0, 'counting')), '$.nbits')
         = json_extract(bloom_info(bloom_empty(2000)), '$.nbits') AS same_nbits,
       length(bloom_empty(2000, 0.01, 0, 'counting')) - 32 AS counter_bytes,
       length(bloom_empty(2000)) - 32 AS classic_bytes;
-- 2,000 values in, then 1,000 removed, one call each.
CREATE TABLE counted AS
WITH RECURSIVE r(i, f) AS (
  SELECT 0, bloom_add_all(bloom_empty(2000, 0.01, 0, 'counting'), (SELECT json_group_array(v) FROM s))
  UNION ALL SELECT i + 1, bloom_remove(f, i + 1) FROM r WHERE i < 1000)
SELECT f FROM r WHERE i = 1000;
SELECT (SELECT count(*) FROM s WHERE v > 1000 AND NOT bloom_contains(f, v)) AS false_negatives,
       (SELECT count(*) FROM s WHERE v <= 1000 AND bloom_contains(f, v)) <= 30 AS removed_mostly_gone,
       round(bloom_cardinality(f), -2) AS about_1000 FROM counted;
-- It is the filter of the values left, byte for byte; its classic form is
-- the classic filter of that set.
SELECT f = (SELECT bloom_add_all(bloom_empty(2000, 0.01, 0, 'counting'), json_group_array(v)) FROM s WHERE v > 1000)
         AS same_as_adding_the_rest,
       bloom_to_classic(f) = (SELECT bloom_add_all(bloom_empty(2000), json_group_array(v)) FROM s WHERE v > 1000)
         AS classic_form,
       bloom_fpr(f) = bloom_fpr(bloom_to_classic(f)) AS same_rate FROM counted;
-- A value added twice stays after one removal; 20 adds saturate its
-- counters at 15, which then never decrement.
SELECT bloom_contains(bloom_remove(bloom_add(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 'x'), 'x'), 'x'), 'x') AS twice_once;
WITH RECURSIVE r(i, f) AS (SELECT 0, bloom_empty_mk(64, 3, 0, 'counting')
                           UNION ALL SELECT i + 1, bloom_add(f, 7) FROM r WHERE i < 20),
     d(i, f) AS (SELECT 0, (SELECT f FROM r WHERE i = 20)
                 UNION ALL SELECT i + 1, bloom_remove(f, 7) FROM d WHERE i < 20)
SELECT bloom_contains(f, 7) AS saturated_stays FROM d WHERE i = 20;
-- NULL: a NULL value removes nothing; a NULL filter gives NULL.
SELECT bloom_remove(bloom_add(bloom_empty(10, 0.01, 0, 'counting'), 1), NULL)
         = bloom_add(bloom_empty(10, 0.01, 0, 'counting'), 1) AS null_value, bloom_remove(NULL, 1) AS null_filter;
-- Union adds the counters (a value of both counts twice); intersection
-- takes their minimum.
SELECT bloom_union(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1), bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1))
         = bloom_add(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1), 1) AS union_sums,
       bloom_intersect(bloom_add(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1), 2), bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 2))
         = bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 2) AS intersect_min;
-- bloom_union_agg over per-row filters builds the counting filter of the rows.
SELECT bloom_union_agg(bloom_add(bloom_empty(2000, 0.01, 0, 'counting'), v))
         = bloom_add_all(bloom_empty(2000, 0.01, 0, 'counting'), (SELECT json_group_array(v) FROM s)) AS union_agg_of_rows
FROM s;
-- Refused: removing a value the filter says is absent, removing from a
-- layout without counters, unions of counting filters of two sizes.
SELECT bloom_remove(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1), 2);
SELECT bloom_remove(bloom_add(bloom_empty(100), 1), 1);
SELECT bloom_remove(bloom_empty(100), NULL);
SELECT bloom_union(bloom_empty(100, 0.01, 0, 'counting'), bloom_empty(1000, 0.01, 0, 'counting'));
SELECT bloom_union(bloom_empty(100, 0.01, 0, 'counting'), bloom_empty(100));
SELECT bloom_to_classic(bloom_empty(100, 0.01, 0, 'blocked'));

-- ---- scalable ----
-- One stage for the capacity at 0.2% (0.8 of the 1% left to later stages).
SELECT bloom_info(bloom_empty(100, 0.01, 0, 'scalable'));
-- 50 times the capacity: stages of 100, 200, ... values, each at 0.8 times
-- the rate before; no false negative, the rate still at most 1%, at most
-- twice the bytes of a classic filter sized for 5,000.
CREATE TABLE grown AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 5000)
SELECT bloom_add_all(bloom_empty(100, 0.01, 0, 'scalable'), json_group_array(v)) AS f FROM r;
SELECT length(f) AS bytes, round(length(f) * 1.0 / length(bloom_empty(5000)), 2) AS times_classic,
       bloom_fpr(f) <= 0.01 AS rate_at_most_1pct, round(bloom_cardinality(f), -2) AS about_5000,
       json_extract(bloom_info(f), '$.nhashes') AS most_nhashes FROM grown;
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 5000)
SELECT count(*) AS false_negatives FROM r WHERE NOT bloom_contains((SELECT bloom_ref(f) FROM grown), v);
WITH RECURSIVE r(v) AS (SELECT 1000001 UNION ALL SELECT v + 1 FROM r WHERE v < 1100000)
SELECT sum(bloom_contains((SELECT bloom_ref(f) FROM grown), v)) <= 1500 AS measured_rate_at_most_1_5pct FROM r;
-- A value it holds adds nothing: the same bytes.
SELECT bloom_add(f, 77) = f AS repeat_unchanged, bloom_add_all(f, '[1, 2, 3]') = f AS repeats_unchanged FROM grown;
-- bloom_add one value at a time grows it the same way.
WITH RECURSIVE r(i, f) AS (SELECT 0, bloom_empty(10, 0.01, 0, 'scalable')
                           UNION ALL SELECT i + 1, bloom_add(f, i + 1) FROM r WHERE i < 100)
SELECT f = bloom_add_all(bloom_empty(10, 0.01, 0, 'scalable'),
                         (WITH RECURSIVE q(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM q WHERE v < 100)
                          SELECT json_group_array(v) FROM q)) AS one_by_one
FROM r WHERE i = 100;
-- Union of two grown from the same capacity, rate and seed: stage by stage.
SELECT bloom_contains_all(bloom_union(f, bloom_add_all(bloom_empty(100, 0.01, 0, 'scalable'), '[-1, -2, -3]')),
                          '[1, 2500, 5000, -1, -2, -3]') AS union_holds_both FROM grown;
-- bloom_search reads a scalable filter whole.
CREATE TABLE stored (id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO stored SELECT 1, f FROM grown;
INSERT INTO stored VALUES (2, bloom_add(bloom_empty(10, 0.01, 0, 'scalable'), 'x'));
SELECT id FROM bloom_search('stored', 'f', 4321) ORDER BY id;
SELECT id FROM bloom_search('stored', 'f', 'x') ORDER BY id;
-- Refused: a union with another growth, an intersection, folding, removing,
-- explicit sizes.
SELECT bloom_union(f, bloom_empty(200, 0.01, 0, 'scalable')) FROM grown;
SELECT bloom_intersect(f, f) FROM grown;
SELECT bloom_fold(f, 64) FROM grown;
SELECT bloom_remove(f, 1) FROM grown;
SELECT bloom_empty_mk(1024, 7, 0, 'scalable');
SELECT bloom_jaccard(f, f) FROM grown;

-- ---- rollups of size classes ----
-- Self-sized groups of 2, 2, 10^4 and 10^4 values: 1.1 folded their union
-- to 64 bits, every bit set.  Now each class is a stage: no member lost, a
-- rate near the union's at the largest size, an honest count.
CREATE TABLE groups AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 20004)
SELECT CASE WHEN v <= 2 THEN 1 WHEN v <= 4 THEN 2 WHEN v <= 10004 THEN 3 ELSE 4 END AS g, v FROM r;
CREATE TABLE group_filters AS SELECT g, bloom_agg(v) AS f FROM groups GROUP BY g;
SELECT g, json_extract(bloom_info(f), '$.nbits') AS nbits FROM group_filters ORDER BY g;
CREATE TABLE rollup AS SELECT bloom_union_agg(f) AS u FROM group_filters;
SELECT json_extract(bloom_info(u), '$.layout') AS layout, bloom_fpr(u) <= 0.08 AS rate_at_most_8pct,
       round(bloom_fpr(u), 2) AS rate, round(bloom_cardinality(u), -2) AS about_20000,
       (SELECT count(*) FROM groups WHERE NOT bloom_contains(u, v)) AS members_lost FROM rollup;
-- The intersection of the groups is at the largest size.
SELECT json_extract(bloom_info(bloom_intersect_agg(f)), '$.nbits') AS intersect_nbits FROM group_filters;
-- 50 groups of 100 values: one size class, 5,000 values in the 1,024 bits
-- sized for 100.  The union says so, and what to do.
CREATE TABLE small_groups AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 5000)
SELECT v % 50 AS g, v FROM r;
SELECT bloom_union_agg(f) FROM (SELECT bloom_agg(v) AS f FROM small_groups GROUP BY g);
-- The recipe: every group sized for the largest union.
SELECT bloom_fpr(bloom_union_agg(f)) <= 0.01 AS at_target
FROM (SELECT bloom_agg(v, 5000, 0.01) AS f FROM small_groups GROUP BY g);
-- Two unions of a 64-bit and a 128-bit filter (k 7), each near saturation
-- (rates 0.33 and 0.28): their intersection is at 128 bits the OR of three
-- pairs' ANDs, saturated where neither operand is.  Refused, as such a union.
CREATE TABLE near_full AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 400),
     s(lo, hi) AS (SELECT json_group_array(v) FILTER (WHERE v BETWEEN 1 AND 11),
                          json_group_array(v) FILTER (WHERE v BETWEEN 101 AND 128) FROM r),
     t(lo, hi) AS (SELECT json_group_array(v) FILTER (WHERE v BETWEEN 201 AND 211),
                          json_group_array(v) FILTER (WHERE v BETWEEN 301 AND 328) FROM r)
SELECT bloom_union(bloom_add_all(bloom_empty_mk(64, 7), s.lo), bloom_add_all(bloom_empty_mk(128, 7), s.hi)) AS a,
       bloom_union(bloom_add_all(bloom_empty_mk(64, 7), t.lo), bloom_add_all(bloom_empty_mk(128, 7), t.hi)) AS b
FROM s, t;
SELECT round(bloom_fpr(a), 2) AS a_rate, round(bloom_fpr(b), 2) AS b_rate FROM near_full;
SELECT bloom_intersect(a, b) FROM near_full;
SELECT bloom_intersect_agg(f) FROM (SELECT a AS f FROM near_full UNION ALL SELECT b FROM near_full);
-- Groups of 1 to 10^4 values (PostgreSQL's test and the core's go to 10^6),
-- each inside the next: every class a stage, the count that of the largest.
CREATE TABLE nested AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 10000),
     n(n) AS (VALUES (1), (10), (100), (1000), (10000))
SELECT n AS day, bloom_agg(v) AS f FROM n JOIN r ON v <= n GROUP BY n;
SELECT count(*) AS days, count(DISTINCT json_extract(bloom_info(f), '$.nbits')) AS classes FROM nested;
SELECT json_extract(bloom_info(u), '$.layout') AS layout, abs(bloom_cardinality(u) - 10000) < 200 AS count_within_2pct,
       bloom_fpr(u) < 0.05 AS rate_below_5pct
FROM (SELECT bloom_union_agg(f) AS u FROM nested);
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 10000)
SELECT count(*) AS members_lost FROM r WHERE NOT bloom_contains((SELECT bloom_union_agg(f) FROM nested), v);
