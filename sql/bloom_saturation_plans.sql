-- One answer whatever the plan: a union that saturates where none of its
-- members was is refused (54000) by bloom_union_agg serially, from partial
-- states (partitionwise and parallel aggregation) and as a window
-- aggregate; a saturated member is allowed.  The fixed-size
-- bloom_agg never refuses a full filter, and refuses rows of different
-- sizes in partial states as its transition does.  (Partial states as Citus
-- moves them: tests/pg_fmgr and tools/suites/70-citus.sh.)
SET extra_float_digits = 0;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
\i :abs_srcdir/tests/sqlstate_of.sql

-- 101 filters of one size (16384 bits), 80 values each: each far from
-- saturation, and so is the union of either half; the union of all is not
CREATE TABLE sat_parts (id int, f bloom) PARTITION BY RANGE (id);
CREATE TABLE sat_parts_low PARTITION OF sat_parts FOR VALUES FROM (1) TO (51);
CREATE TABLE sat_parts_high PARTITION OF sat_parts FOR VALUES FROM (51) TO (1000);
INSERT INTO sat_parts
SELECT i, bloom_agg(v, 1000, 0.01)
FROM generate_series(1, 101) i, generate_series(i * 80, i * 80 + 79) v GROUP BY i;
-- the same rows in one table, stored in its pages (three to a page): a
-- parallel scan gives each process some
CREATE TABLE sat_flat (id int, f bloom);
ALTER TABLE sat_flat ALTER COLUMN f SET STORAGE PLAIN, SET (parallel_workers = 2);
INSERT INTO sat_flat SELECT * FROM sat_parts;
ANALYZE sat_parts, sat_flat;
SELECT pg_relation_size('sat_flat') / current_setting('block_size')::int AS pages;
SELECT count(DISTINCT (bloom_info(f)).nbits) AS sizes, max((bloom_info(f)).est_fpr) < 1e-6 AS members_far_from_saturation
FROM sat_parts;
SELECT id <= 50 AS low_half, (bloom_info(bloom_union_agg(f))).est_fpr < 0.3 AS half_unsaturated
FROM sat_parts GROUP BY 1 ORDER BY 1;

-- serially
SET max_parallel_workers_per_gather = 0;
SELECT sqlstate_of('SELECT bloom_union_agg(f) FROM sat_flat') AS serial;
-- a window aggregate (only the transition runs)
SELECT sqlstate_of('SELECT bloom_union_agg(f) OVER () FROM sat_flat') AS window;
SELECT sqlstate_of('SELECT bloom_union_agg(f) OVER (ORDER BY id) FROM sat_flat') AS running_window;

-- partial states of each partition, each unsaturated, combined
SET enable_partitionwise_aggregate = on;
SELECT * FROM pg_temp.explain('SELECT bloom_union_agg(f) FROM sat_parts');
SELECT sqlstate_of('SELECT bloom_union_agg(f) FROM sat_parts') AS partitionwise;

-- a parallel plan: partial states of the workers and the leader
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM pg_temp.explain('SELECT bloom_union_agg(f) FROM sat_flat');
SELECT sqlstate_of('SELECT bloom_union_agg(f) FROM sat_flat') AS parallel;
CALL pg_temp.set_known('{debug_parallel_query,force_parallel_mode}', 'on');
SELECT sqlstate_of('SELECT bloom_union_agg(f) FROM sat_flat') AS one_worker;
CALL pg_temp.set_known('{debug_parallel_query,force_parallel_mode}', NULL);
SET max_parallel_workers_per_gather = 0;

-- A saturated member is allowed, in any order, in a window and from the
-- partitions' states: with it, the low half's union is saturated, the high
-- half's is not, and neither half's other members saturate their union.
CREATE TABLE sat_member (id int, f bloom) PARTITION BY RANGE (id);
CREATE TABLE sat_member_low PARTITION OF sat_member FOR VALUES FROM (1) TO (51);
CREATE TABLE sat_member_high PARTITION OF sat_member FOR VALUES FROM (51) TO (1000);
INSERT INTO sat_member SELECT * FROM sat_parts WHERE id % 10 = 0;
INSERT INTO sat_member SELECT 25, bloom_agg(v, 1000, 0.01) FROM generate_series(1, 20000) v;
ANALYZE sat_member;
SELECT id, (bloom_info(f)).est_fpr >= 0.5 AS saturated FROM sat_member WHERE (bloom_info(f)).est_fpr >= 0.5;
SET enable_partitionwise_aggregate = off;
CREATE TABLE sat_member_serial AS SELECT bloom_union_agg(f) AS f FROM sat_member;
SELECT (bloom_info(f)).est_fpr >= 0.5 AS union_saturated FROM sat_member_serial;
SELECT bloom_union_agg(f ORDER BY id DESC) = (SELECT f FROM sat_member_serial) AS any_order FROM sat_member;
SELECT bloom_union_agg(f) OVER () = (SELECT f FROM sat_member_serial) AS window FROM sat_member LIMIT 1;
SET enable_partitionwise_aggregate = on;
SELECT * FROM pg_temp.explain('SELECT bloom_union_agg(f) FROM sat_member');
SELECT bloom_union_agg(f) = (SELECT f FROM sat_member_serial) AS partitionwise FROM sat_member;

-- The fixed-size bloom_agg adds every value to one filter, however full:
-- partial states each unsaturated whose union saturates are combined, as
-- the serial plan fills one filter.
CREATE TABLE sat_values (v int) PARTITION BY RANGE (v);
CREATE TABLE sat_values_low PARTITION OF sat_values FOR VALUES FROM (1) TO (4001);
CREATE TABLE sat_values_high PARTITION OF sat_values FOR VALUES FROM (4001) TO (100000);
INSERT INTO sat_values SELECT generate_series(1, 8000);
ANALYZE sat_values;
SET enable_partitionwise_aggregate = off;
CREATE TABLE sat_fixed_serial AS SELECT bloom_agg(v, 1000, 0.01) AS f FROM sat_values;
SELECT (bloom_info(f)).est_fpr >= 0.5 AS saturated FROM sat_fixed_serial;
SET enable_partitionwise_aggregate = on;
SELECT * FROM pg_temp.explain('SELECT bloom_agg(v, 1000, 0.01) FROM sat_values');
SELECT bloom_agg(v, 1000, 0.01) = (SELECT f FROM sat_fixed_serial) AS partitionwise FROM sat_values;
-- rows sized differently: the serial plan refuses the row, partial states
-- of different sizes are refused with the same error (not a union of sizes)
SET enable_partitionwise_aggregate = off;
SELECT sqlstate_of($$SELECT bloom_agg(v, CASE WHEN v <= 4000 THEN 1000 ELSE 2000 END, 0.01) FROM sat_values$$) AS serial;
SET enable_partitionwise_aggregate = on;
SELECT sqlstate_of($$SELECT bloom_agg(v, CASE WHEN v <= 4000 THEN 1000 ELSE 2000 END, 0.01) FROM sat_values$$) AS partitionwise;
-- the same sizes from different parameters are one size, in either plan
SELECT bloom_agg(v, CASE WHEN v <= 4000 THEN 1000 ELSE 1001 END, 0.01) = (SELECT f FROM sat_fixed_serial) AS one_size
FROM sat_values;
RESET enable_partitionwise_aggregate;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
