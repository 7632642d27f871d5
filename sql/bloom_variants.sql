-- Counting filters (removal), scalable filters (growth) and rollups of
-- self-sized filters of very different sizes (docs/FORMAT.md; the same
-- checks as SQLite's sqlite/tests/sql/variants.sql).
SET extra_float_digits = 0;

-- ---- counting ----
-- A counter where classic has a bit: the same nbits and nhashes, four times the bytes.
SELECT (bloom_info(bloom_empty(2000, 0.01, 0, 'counting'))).layout,
       (bloom_info(bloom_empty(2000, 0.01, 0, 'counting'))).nbits
         = (bloom_info(bloom_empty(2000))).nbits AS same_nbits,
       (bloom_info(bloom_empty(2000, 0.01, 0, 'counting'))).nbytes AS counter_bytes,
       (bloom_info(bloom_empty(2000))).nbytes AS classic_bytes;
-- 2,000 values in, then 1,000 removed, one call each.
CREATE TABLE counted AS
WITH RECURSIVE r(i, f) AS (
  SELECT 0, bloom_add_all(bloom_empty(2000, 0.01, 0, 'counting'), (SELECT array_agg(v) FROM generate_series(1, 2000) v))
  UNION ALL SELECT i + 1, bloom_remove(f, i + 1) FROM r WHERE i < 1000)
SELECT f FROM r WHERE i = 1000;
SELECT (SELECT count(*) FROM generate_series(1001, 2000) v WHERE NOT bloom_contains(f, v)) AS false_negatives,
       (SELECT count(*) FROM generate_series(1, 1000) v WHERE bloom_contains(f, v)) <= 30 AS removed_mostly_gone,
       round(bloom_cardinality(f)::numeric, -2) AS about_1000 FROM counted;
-- It is the filter of the values left, byte for byte; its classic form is
-- the classic filter of that set.
SELECT f = bloom_add_all(bloom_empty(2000, 0.01, 0, 'counting'), ARRAY(SELECT generate_series(1001, 2000)))
         AS same_as_adding_the_rest,
       bloom_to_classic(f) = bloom_add_all(bloom_empty(2000), ARRAY(SELECT generate_series(1001, 2000)))
         AS classic_form,
       bloom_fpr(f) = bloom_fpr(bloom_to_classic(f)) AS same_rate FROM counted;
-- A value added twice stays after one removal; 20 adds saturate its
-- counters at 15, which then never decrement.
SELECT bloom_remove(bloom_add(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 'x'::text), 'x'::text), 'x'::text)
         @> 'x'::text AS twice_once;
WITH RECURSIVE r(i, f) AS (SELECT 0, bloom_empty_mk(64, 3, 0, 'counting')
                           UNION ALL SELECT i + 1, bloom_add(f, 7) FROM r WHERE i < 20),
     d(i, f) AS (SELECT 0, (SELECT f FROM r WHERE i = 20)
                 UNION ALL SELECT i + 1, bloom_remove(f, 7) FROM d WHERE i < 20)
SELECT f @> 7 AS saturated_stays FROM d WHERE i = 20;
-- NULL: a NULL value removes nothing; a NULL filter gives NULL.
SELECT bloom_remove(bloom_add(bloom_empty(10, 0.01, 0, 'counting'), 1), NULL::int)
         = bloom_add(bloom_empty(10, 0.01, 0, 'counting'), 1) AS null_value,
       bloom_remove(NULL::bloom, 1) IS NULL AS null_filter;
-- Every value type removes as it adds (its own overload).  Removing keeps
-- the value kinds the filter recorded (header bytes 10..15): the counters
-- are the empty filter's.
SELECT substring(bloom_remove(bloom_add(bloom_empty(10, 0.01, 0, 'counting'), '10.0.0.1'::inet), '10.0.0.1'::inet)::bytea FROM 17)
         = substring(bloom_empty(10, 0.01, 0, 'counting')::bytea FROM 17) AS inet_removed,
       substring(bloom_remove(bloom_add(bloom_empty(10, 0.01, 0, 'counting'), 5::int2), 5.0::float8)::bytea FROM 17)
         = substring(bloom_empty(10, 0.01, 0, 'counting')::bytea FROM 17) AS across_types,
       get_byte(bloom_remove(bloom_add(bloom_empty(10, 0.01, 0, 'counting'), '10.0.0.1'::inet), '10.0.0.1'::inet)::bytea, 10) AS kinds_kept;
-- Union adds the counters (a value of both counts twice); intersection
-- takes their minimum.
SELECT bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1) | bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1)
         = bloom_add(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1), 1) AS union_sums,
       bloom_add(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1), 2) & bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 2)
         = bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 2) AS intersect_min;
-- The aggregates through the layout setting: bloom_agg(x, capacity, fpr)
-- counts every row, bloom_agg(x) every distinct value once (it sees the
-- set); their classic forms are the classic aggregates' filters.
CREATE TABLE counting_rows AS SELECT (g % 700) AS v FROM generate_series(1, 2000) g;
SET bloomfilter.default_layout = 'counting';
CREATE TABLE counting_aggs AS
SELECT bloom_agg(v, 2000, 0.01) AS per_row, bloom_agg(v) AS per_value FROM counting_rows;
RESET bloomfilter.default_layout;
SELECT (bloom_info(per_row)).layout AS fixed_layout, (bloom_info(per_value)).layout AS self_sized_layout,
       per_row = (SELECT bloom_union_agg(bloom_add(bloom_empty(2000, 0.01, 0, 'counting'), v)) FROM counting_rows)
         AS rows_counted,
       bloom_to_classic(per_row) = (SELECT bloom_agg(v, 2000, 0.01) FROM counting_rows) AS fixed_classic_form,
       bloom_to_classic(per_value) = (SELECT bloom_agg(v) FROM counting_rows) AS self_sized_classic_form,
       bloom_remove(bloom_remove(per_row, 5), 5) @> 5 AS three_rows_two_removed
FROM counting_aggs;
-- Refused: removing a value the filter says is absent, removing from a
-- layout without counters (even a NULL), unions of counting filters of two
-- sizes or with a classic one, the classic form of other layouts.
\set VERBOSITY default
SELECT bloom_remove(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 1), 2);
SELECT bloom_remove(bloom_add(bloom_empty(100), 1), 1);
SELECT bloom_remove(bloom_empty(100), NULL::int);
SELECT bloom_union(bloom_empty(100, 0.01, 0, 'counting'), bloom_empty(1000, 0.01, 0, 'counting'));
SELECT bloom_union(bloom_empty(100, 0.01, 0, 'counting'), bloom_empty(100));
SELECT bloom_to_classic(bloom_empty(100, 0.01, 0, 'blocked'));
\set VERBOSITY terse

-- ---- scalable ----
-- One stage for the capacity at 0.2% (0.8 of the 1% left to later stages).
SELECT * FROM bloom_info(bloom_empty(100, 0.01, 0, 'scalable'));
-- 50 times the capacity: stages of 100, 200, ... values, each at 0.8 times
-- the rate before; no false negative, the rate still at most 1%, at most
-- twice the bytes of a classic filter sized for 5,000.
CREATE TABLE grown AS
SELECT bloom_add_all(bloom_empty(100, 0.01, 0, 'scalable'), ARRAY(SELECT generate_series(1, 5000))) AS f;
SELECT octet_length(f::bytea) AS bytes, round(octet_length(f::bytea)::numeric / octet_length(bloom_empty(5000)::bytea), 2)
         AS times_classic,
       bloom_fpr(f) <= 0.01 AS rate_at_most_1pct, round(bloom_cardinality(f)::numeric, -2) AS about_5000,
       (bloom_info(f)).nhashes AS most_nhashes FROM grown;
SELECT count(*) AS false_negatives FROM generate_series(1, 5000) v WHERE NOT bloom_contains((SELECT f FROM grown), v);
SELECT count(*) FILTER (WHERE bloom_contains((SELECT f FROM grown), v)) <= 1500 AS measured_rate_at_most_1_5pct
FROM generate_series(1000001, 1100000) v;
-- A value it holds adds nothing: the same bytes.
SELECT bloom_add(f, 77) = f AS repeat_unchanged, bloom_add_all(f, ARRAY[1, 2, 3]) = f AS repeats_unchanged FROM grown;
-- bloom_add one value at a time grows it the same way; so does bloom_agg(x)
-- from its one stage, sized for the distinct count.
WITH RECURSIVE r(i, f) AS (SELECT 0, bloom_empty(10, 0.01, 0, 'scalable')
                           UNION ALL SELECT i + 1, bloom_add(f, i + 1) FROM r WHERE i < 100)
SELECT f = bloom_add_all(bloom_empty(10, 0.01, 0, 'scalable'), ARRAY(SELECT generate_series(1, 100))) AS one_by_one
FROM r WHERE i = 100;
SET bloomfilter.default_layout = 'scalable';
SELECT (bloom_info(bloom_agg(v))).layout,
       octet_length(bloom_agg(v)::bytea) = octet_length(bloom_empty(1000, 0.01, 0, 'scalable')::bytea) AS one_stage,
       bloom_contains_all(bloom_add_all(bloom_agg(v), ARRAY(SELECT generate_series(1001, 5000))),
                          ARRAY(SELECT generate_series(1, 5000))) AS grows_on
FROM generate_series(1, 1000) v;
RESET bloomfilter.default_layout;
-- Union of two grown from the same capacity, rate and seed: stage by stage.
SELECT bloom_contains_all(f | bloom_add_all(bloom_empty(100, 0.01, 0, 'scalable'), ARRAY[-1, -2, -3]),
                          ARRAY[1, 2500, 5000, -1, -2, -3]) AS union_holds_both FROM grown;
-- A table of scalable filters: read whole by every probe (no slices), and
-- ordered: equal headers, then the bytes, a proper prefix first.
CREATE TABLE stored_scalable (id int, f bloom);
INSERT INTO stored_scalable SELECT 1, f FROM grown;
INSERT INTO stored_scalable VALUES (2, bloom_add(bloom_empty(10, 0.01, 0, 'scalable'), 'x'::text));
SELECT id FROM stored_scalable WHERE f @> 4321 ORDER BY id;
SELECT id FROM stored_scalable WHERE f @> 'x'::text ORDER BY id;
SELECT bloom_cmp(f, f) AS self, bloom_cmp(f, bloom_add(f, -7)) <> 0 AS grown_differs FROM grown;
-- Refused: a union with another growth, an intersection, folding, removing,
-- explicit sizes, the estimates of two filters, the fixed-size aggregate.
\set VERBOSITY default
SELECT bloom_union(f, bloom_empty(200, 0.01, 0, 'scalable')) FROM grown;
SELECT bloom_intersect(f, f) FROM grown;
SELECT bloom_fold(f, 64) FROM grown;
SELECT bloom_remove(f, 1) FROM grown;
SELECT bloom_empty_mk(1024, 7, 0, 'scalable');
SELECT bloom_jaccard(f, f) FROM grown;
SET bloomfilter.default_layout = 'scalable';
SELECT bloom_agg(v, 1000, 0.01) FROM generate_series(1, 10) v;
RESET bloomfilter.default_layout;
\set VERBOSITY terse

-- ---- rollups of size classes ----
-- Self-sized groups of 2, 2, 10^4 and 10^4 values: 1.1 folded their union
-- to 64 bits, every bit set.  Now each class is a stage: no member lost, a
-- rate near the union's at the largest size, an honest count.
CREATE TABLE groups AS
SELECT CASE WHEN v <= 2 THEN 1 WHEN v <= 4 THEN 2 WHEN v <= 10004 THEN 3 ELSE 4 END AS g, v
FROM generate_series(1, 20004) v;
CREATE TABLE group_filters AS SELECT g, bloom_agg(v) AS f FROM groups GROUP BY g;
SELECT g, (bloom_info(f)).nbits FROM group_filters ORDER BY g;
CREATE TABLE rollup AS SELECT bloom_union_agg(f) AS u FROM group_filters;
SELECT (bloom_info(u)).layout, bloom_fpr(u) <= 0.08 AS rate_at_most_8pct, round(bloom_fpr(u)::numeric, 2) AS rate,
       round(bloom_cardinality(u)::numeric, -2) AS about_20000,
       (SELECT count(*) FROM groups WHERE NOT bloom_contains(u, v)) AS members_lost FROM rollup;
-- In any order, and in a parallel plan, the same bytes.
SELECT (SELECT bloom_union_agg(f ORDER BY g DESC) FROM group_filters) = u AS any_order FROM rollup;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
ALTER TABLE group_filters SET (parallel_workers = 2);
SELECT bloom_union_agg(f) = (SELECT u FROM rollup) AS parallel_same FROM group_filters;
-- The intersection of the groups is at the largest size.
SELECT (bloom_info(bloom_intersect_agg(f))).nbits AS intersect_nbits FROM group_filters;
-- 50 groups of 100 values: one size class, 5,000 values in the 1,024 bits
-- sized for 100.  The union says so, and what to do.
CREATE TABLE small_groups AS SELECT v % 50 AS g, v FROM generate_series(1, 5000) v;
\set VERBOSITY default
SELECT bloom_union_agg(f) FROM (SELECT bloom_agg(v) AS f FROM small_groups GROUP BY g) s;
\set VERBOSITY terse
-- The recipe: every group sized for the largest union.
SELECT bloom_fpr(bloom_union_agg(f)) <= 0.01 AS at_target
FROM (SELECT bloom_agg(v, 5000, 0.01) AS f FROM small_groups GROUP BY g) s;
-- bloom_agg(x, capacity, fpr) past its capacity is not refused, in a
-- parallel plan either (its partial states are combined by union).
ALTER TABLE small_groups SET (parallel_workers = 2);
SELECT bloom_fpr(bloom_agg(v, 100, 0.01)) > 0.5 AS overfull FROM small_groups;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
-- Two unions of a 64-bit and a 128-bit filter (k 7), each near saturation
-- (rates 0.33 and 0.28): their intersection is at 128 bits the OR of three
-- pairs' ANDs, saturated where neither operand is.  Refused, as such a union.
CREATE TABLE near_full AS
SELECT bloom_union(bloom_add_all(bloom_empty_mk(64, 7), ARRAY(SELECT generate_series(1, 11))),
                   bloom_add_all(bloom_empty_mk(128, 7), ARRAY(SELECT generate_series(101, 128)))) AS a,
       bloom_union(bloom_add_all(bloom_empty_mk(64, 7), ARRAY(SELECT generate_series(201, 211))),
                   bloom_add_all(bloom_empty_mk(128, 7), ARRAY(SELECT generate_series(301, 328)))) AS b;
SELECT round(bloom_fpr(a)::numeric, 2) AS a_rate, round(bloom_fpr(b)::numeric, 2) AS b_rate FROM near_full;
\set VERBOSITY default
SELECT bloom_intersect(a, b) FROM near_full;
\set VERBOSITY terse
SELECT a & b FROM near_full;
SELECT bloom_intersect_agg(f) FROM (SELECT a AS f FROM near_full UNION ALL SELECT b FROM near_full) s;
-- Days of 1 to 10^6 values, each inside the next (the users come back):
-- every class a stage, the count that of the largest day.
CREATE TABLE nested AS
SELECT n AS day, bloom_agg(v) AS f FROM (VALUES (1), (10), (100), (1000), (10000), (100000), (1000000)) n(n),
     LATERAL generate_series(1, n) v GROUP BY n;
SELECT count(*) AS days, count(DISTINCT (bloom_info(f)).nbits) AS classes FROM nested;
CREATE TABLE nested_rollup AS SELECT bloom_union_agg(f) AS u FROM nested;
SELECT (bloom_info(u)).layout, abs(bloom_cardinality(u) - 1000000) < 20000 AS count_within_2pct,
       bloom_fpr(u) < 0.05 AS rate_below_5pct FROM nested_rollup;
SELECT count(*) AS members_lost FROM generate_series(1, 1000000) v
WHERE NOT bloom_contains((SELECT u FROM nested_rollup), v);
DROP TABLE counted, counting_rows, counting_aggs, grown, stored_scalable, groups, group_filters, rollup,
  small_groups, near_full, nested, nested_rollup;
