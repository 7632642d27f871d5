-- bloom_agg (self-sizing and fixed-size), bloom_union_agg, bloom_intersect_agg.
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on
CREATE TABLE s AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 200000) SELECT v FROM r;

-- Self-sizing at 1%: the core's builder sizes the filter for the distinct
-- count, in size classes (powers of two).  Up to 65536 values the builder
-- may move one or two classes up after a trial (docs/FORMAT.md): for 1000
-- values the formula's class is 16384 bits, so 16384 to 65536 is what is
-- checked here; the bytes themselves are compared with PostgreSQL's by the
-- cross suite.
CREATE TABLE a1000 AS SELECT bloom_agg(v) AS b FROM s WHERE v <= 1000;
SELECT json_extract(bloom_info(b), '$.layout') AS layout, json_extract(bloom_info(b), '$.seed') AS seed,
       json_extract(bloom_info(b), '$.nbits') IN (16384, 32768, 65536) AS nbits_in_bounds,
       json_extract(bloom_info(b), '$.est_fpr') <= 0.01 AS est_fpr_at_most_1_percent FROM a1000;
SELECT sum(bloom_contains(b, v)) AS members_found FROM a1000, s WHERE v <= 1000;
SELECT sum(bloom_contains(b, v)) <= 1150 AS at_most_target, count(*) AS probes
FROM a1000, s WHERE v > 100000;
-- The result depends on the set only: order and repeats do not matter.
SELECT (SELECT bloom_agg(v) FROM (SELECT v FROM s WHERE v <= 1000 ORDER BY v DESC)) = b AS any_order,
       (SELECT bloom_agg(v % 1000 + 1) FROM s WHERE v <= 50000) = b AS repeats,
       (SELECT bloom_agg(v + 0.0) FROM s WHERE v <= 1000) = b AS as_reals FROM a1000;
-- Above 65536 distinct values the size is the formula's class for n
-- (docs/FORMAT.md): k = round(log2(1/0.01)) = 7, the least m for 70000
-- values at that k is 671507 bits, its class 2^20 = 1048576.  The values come round
-- 3 times, interleaved, so repeats are far apart.
CREATE TABLE a70k AS SELECT bloom_agg(v) AS b FROM s WHERE v <= 70000;
SELECT json_extract(bloom_info(b), '$.nbits') AS nbits, json_extract(bloom_info(b), '$.nhashes') AS k,
       (SELECT bloom_agg(v % 70000 + 1) FROM s WHERE v <= 210000) = b AS repeats FROM a70k;
SELECT sum(bloom_contains(b, v)) AS members_found FROM a70k, s WHERE v <= 70000;
SELECT sum(bloom_contains(b, v)) <= 1150 AS at_most_target, count(*) AS probes
FROM a70k, s WHERE v > 100000;
-- Past the builder's in-cache set (2 MiB) its hashes go to sorted runs:
-- still the same filter whatever the order and the repeats (here 300000
-- values, shuffled by a multiplier, and each of them twice).
WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 599999)
SELECT (SELECT bloom_agg(i % 300000) FROM r) = (SELECT bloom_agg((i * 7919) % 300000) FROM r WHERE i < 300000) AS spilled_same,
       json_extract((SELECT bloom_info(bloom_agg(i % 300000)) FROM r), '$.nbits') AS nbits;
-- Distinct members of mixed types: 1 and 1.0 are one, '1' another.
SELECT (SELECT bloom_agg(x) FROM (SELECT 1 AS x UNION ALL SELECT 1.0 UNION ALL SELECT '1'))
       = (SELECT bloom_agg(x) FROM (SELECT 1 AS x UNION ALL SELECT '1')) AS two_members,
       (SELECT bloom_agg(x) FROM (SELECT 1 AS x UNION ALL SELECT 1.0 UNION ALL SELECT '1'))
       = (SELECT bloom_agg(x) FROM (SELECT 1 AS x)) AS one_member;

-- Fixed size: exactly bloom_empty(capacity, fpr) with every value added.
WITH RECURSIVE fold(i, b) AS (SELECT 0, bloom_empty(50, 0.05)
                              UNION ALL SELECT i + 1, bloom_add(b, 'k' || (i + 1)) FROM fold WHERE i < 40)
SELECT (SELECT b FROM fold WHERE i = 40) = (SELECT bloom_agg('k' || v, 50, 0.05) FROM s WHERE v <= 40) AS fold_equal;
SELECT json_extract(bloom_info(bloom_agg(v, 1000, 0.001)), '$.nbits') AS nbits,
       json_extract(bloom_info(bloom_agg(v, 1000, 0.001)), '$.bits_set') AS bits_set FROM s WHERE v <= 1000;
-- Every row's capacity and fpr must give the group's size, as in PostgreSQL.
SELECT bloom_agg(v, v * 10, 0.01) FROM s WHERE v <= 5;

-- Per group, then combined: the union of the groups' fixed-size filters is
-- the filter of all values; the intersection holds what they share.
CREATE TABLE groups AS SELECT v % 4 AS g, bloom_agg(v, 2000, 0.01) AS b FROM s WHERE v <= 4000 GROUP BY v % 4;
SELECT g, json_extract(bloom_info(b), '$.bits_set') AS bits_set, bloom_contains(b, 8) AS has8, bloom_contains(b, 9) AS has9
FROM groups ORDER BY g;
SELECT bloom_union_agg(b) = (SELECT bloom_agg(v, 2000, 0.01) FROM s WHERE v <= 4000) AS union_exact FROM groups;
SELECT (SELECT sum(bloom_contains(i, v)) FROM s WHERE v <= 4000) AS members_of_all_groups,
       round(bloom_cardinality(i), 2) AS card
FROM (SELECT bloom_intersect_agg(b) AS i FROM groups);
-- Intersection of a group with itself, union of one filter.
SELECT bloom_intersect_agg(b) = b AS one_intersect, bloom_union_agg(b) = b AS one_union FROM groups WHERE g = 1;
-- Self-sizing per group.
WITH per AS (SELECT v % 3 AS g, bloom_agg(v) AS b FROM s WHERE v <= 3000 GROUP BY v % 3)
SELECT g, json_extract(bloom_info(b), '$.nbits') IN (16384, 32768, 65536) AS nbits_in_bounds,
       bloom_contains(b, 3) AS has3,
       (SELECT sum(bloom_contains(b, v)) FROM s WHERE v <= 3000 AND v % 3 = g) AS own_members
FROM per ORDER BY g;
