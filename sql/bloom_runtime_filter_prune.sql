-- Whole scans skipped by the range tier: a probe at the scan of a
-- partition, an inheritance child or a table whose constraints bound the
-- key (partition bounds, the ancestors' too; validated CHECK constraints)
-- returns no row without starting its scan when the build keys' range
-- misses those bounds.  Every query runs with bloomfilter.runtime_filter on
-- and off and must return the same rows; pp_skips shows, per probe, its
-- scan's bounds of the key and the scans skipped.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;
SET bloomfilter.runtime_filter_min_rows = 0;
SET enable_nestloop = off;
SET enable_mergejoin = off;

\i :abs_srcdir/sql/include/on_and_off.sql
\i :abs_srcdir/sql/include/runtime_filter_same.sql
CREATE FUNCTION pp_same(q text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE sql AS $$ SELECT * FROM pg_temp.rf_same_on_off(q, 'Runtime Filter') $$;

-- Each probe of q's plan (EXPLAIN ANALYZE VERBOSE, as JSON): the relation
-- it scans, its bounds of the key, the scans it skipped ("-": no bounds).
CREATE FUNCTION pp_skips(q text)
RETURNS TABLE (relation text, bounds text, skipped text)
LANGUAGE plpgsql AS $fn$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF, FORMAT JSON) '
        || q INTO plan;
    RETURN QUERY
    SELECT coalesce(n->>'Relation Name', n->'Plans'->0->>'Relation Name'),
           coalesce((SELECT e.value #>> '{}' FROM jsonb_each(n) e
                     WHERE e.key ~ '^Runtime Filter [0-9]+ Key Bounds$'), '-'),
           coalesce(n->>'Scans Skipped', '-')
    FROM jsonb_path_query(plan, 'strict $.**') AS n
    WHERE jsonb_typeof(n) = 'object'
      AND n->>'Custom Plan Provider' IN ('BloomBatchedProbe', 'BloomRuntimeFilter');
END $fn$;

-- A dimension of keys 0 .. 3999 (and NULL), one row per key, selected by
-- v (a condition on the key itself would reach the fact table's partitions
-- through the join's equality, and the planner would prune them).
CREATE TABLE pp_dim AS SELECT g AS k, g::int8 AS k8, DATE '2024-01-01' + g AS day, g AS v
FROM generate_series(0, 3999) g;
INSERT INTO pp_dim VALUES (NULL, NULL, NULL, -1);
ANALYZE pp_dim;

-- Range partitions of an int4 key, MINVALUE and MAXVALUE ends included.
CREATE TABLE pp_range (id int, k int) PARTITION BY RANGE (k);
CREATE TABLE pp_range_lo PARTITION OF pp_range FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE pp_range_1 PARTITION OF pp_range FOR VALUES FROM (1000) TO (2000);
CREATE TABLE pp_range_2 PARTITION OF pp_range FOR VALUES FROM (2000) TO (3000);
CREATE TABLE pp_range_hi PARTITION OF pp_range FOR VALUES FROM (3000) TO (MAXVALUE);
INSERT INTO pp_range SELECT g, g % 4000 FROM generate_series(1, 20000) g;
ANALYZE pp_range;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 1100 AND 1500$$);
-- build keys exactly at each partition's ends
SELECT 'one partition' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 1100 AND 1500')
UNION ALL
SELECT 'lower end', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v = 1000')
UNION ALL
SELECT 'upper end', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v = 1999')
UNION ALL
SELECT 'below lower end', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v = 999')
UNION ALL
SELECT 'above upper end', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v = 2000')
UNION ALL
SELECT 'across partitions', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 1999 AND 3000')
UNION ALL
SELECT 'no build keys', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v < 0')
UNION ALL
SELECT 'NULL and a key', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v IN (-1, 2500)')
UNION ALL
-- a key that is an expression: no bounds
SELECT 'key expression', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k + 0 WHERE d.v BETWEEN 1100 AND 1500');
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v = 1000$$);
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_range f JOIN pp_dim d ON d.k = f.k + 0 WHERE d.v BETWEEN 1100 AND 1500$$);

-- int8 keys at the ends of the type, and date keys (read as numbers).
CREATE TABLE pp_big (id int, k8 int8) PARTITION BY RANGE (k8);
CREATE TABLE pp_big_lo PARTITION OF pp_big FOR VALUES FROM (MINVALUE) TO (-9223372036854775807);
CREATE TABLE pp_big_mid PARTITION OF pp_big FOR VALUES FROM (-9223372036854775807) TO (9223372036854775807);
CREATE TABLE pp_big_hi PARTITION OF pp_big FOR VALUES FROM (9223372036854775807) TO (MAXVALUE);
INSERT INTO pp_big SELECT g, (ARRAY[-9223372036854775808, 9223372036854775807, g])[g % 3 + 1]
FROM generate_series(1, 6000) g;
CREATE TABLE pp_big_dim (k8 int8, v int);
INSERT INTO pp_big_dim VALUES (-9223372036854775808, 1), (9223372036854775807, 2), (5, 3), (NULL, 4);
CREATE TABLE pp_days (id int, day date) PARTITION BY RANGE (day);
CREATE TABLE pp_days_jan PARTITION OF pp_days FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE pp_days_feb PARTITION OF pp_days FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
CREATE TABLE pp_days_rest PARTITION OF pp_days FOR VALUES FROM ('2024-03-01') TO ('infinity');
INSERT INTO pp_days SELECT g, DATE '2024-01-01' + g % 400 FROM generate_series(1, 20000) g;
ANALYZE pp_big, pp_big_dim, pp_days;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_big f JOIN pp_big_dim d ON d.k8 = f.k8 WHERE d.v = 2$$);
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_days f JOIN pp_dim d ON d.day = f.day WHERE d.v BETWEEN 31 AND 59$$);
SELECT 'int8 greatest' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_big f JOIN pp_big_dim d ON d.k8 = f.k8 WHERE d.v = 2')
UNION ALL
SELECT 'int8 least', * FROM pp_same(
    'SELECT f.id FROM pp_big f JOIN pp_big_dim d ON d.k8 = f.k8 WHERE d.v = 1')
UNION ALL
SELECT 'int8 middle', * FROM pp_same(
    'SELECT f.id FROM pp_big f JOIN pp_big_dim d ON d.k8 = f.k8 WHERE d.v = 3')
UNION ALL
SELECT 'int4 probe, int8 build', * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k8 = f.k WHERE d.v BETWEEN 2000 AND 2100')
UNION ALL
SELECT 'one month', * FROM pp_same(
    'SELECT f.id FROM pp_days f JOIN pp_dim d ON d.day = f.day WHERE d.v BETWEEN 31 AND 59')
UNION ALL
SELECT 'last day of a month', * FROM pp_same(
    'SELECT f.id FROM pp_days f JOIN pp_dim d ON d.day = f.day WHERE d.v = 30')
UNION ALL
SELECT 'first day of a month', * FROM pp_same(
    'SELECT f.id FROM pp_days f JOIN pp_dim d ON d.day = f.day WHERE d.v = 60');

-- List partitions (least to greatest of the list), one holding NULL (no
-- bounds: an OR), and a default partition (no bounds: a NOT).
CREATE TABLE pp_list (id int, k int) PARTITION BY LIST (k);
CREATE TABLE pp_list_a PARTITION OF pp_list FOR VALUES IN (1, 2, 3, 10);
CREATE TABLE pp_list_b PARTITION OF pp_list FOR VALUES IN (20, 30);
CREATE TABLE pp_list_null PARTITION OF pp_list FOR VALUES IN (NULL, 40);
CREATE TABLE pp_list_default PARTITION OF pp_list DEFAULT;
INSERT INTO pp_list SELECT g, (ARRAY[1, 2, 3, 10, 20, 30, NULL, 40, 5, 25, 1000])[g % 11 + 1]
FROM generate_series(1, 11000) g;
ANALYZE pp_list;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_list f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 20 AND 30$$);
SELECT 'list' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_list f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 20 AND 30')
UNION ALL
SELECT 'list, inside a gap', * FROM pp_same(
    'SELECT f.id FROM pp_list f JOIN pp_dim d ON d.k = f.k WHERE d.v = 5')
UNION ALL
SELECT 'list, the default', * FROM pp_same(
    'SELECT f.id FROM pp_list f JOIN pp_dim d ON d.k = f.k WHERE d.v IN (25, 1000)')
UNION ALL
SELECT 'list, ends', * FROM pp_same(
    'SELECT f.id FROM pp_list f JOIN pp_dim d ON d.k = f.k WHERE d.v IN (10, 40)');

-- A default partition of a range-partitioned table.
CREATE TABLE pp_rdef (id int, k int) PARTITION BY RANGE (k);
CREATE TABLE pp_rdef_1 PARTITION OF pp_rdef FOR VALUES FROM (0) TO (1000);
CREATE TABLE pp_rdef_default PARTITION OF pp_rdef DEFAULT;
INSERT INTO pp_rdef SELECT g, g % 4000 FROM generate_series(1, 8000) g;
ANALYZE pp_rdef;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_rdef f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 2000 AND 2100$$);
SELECT 'range default' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_rdef f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 2000 AND 2100');

-- Two levels: the leaves' bounds meet their parent's (a leaf partitioned by
-- another column has its parent's bounds of the key only).
CREATE TABLE pp_two (id int, k int) PARTITION BY RANGE (k);
CREATE TABLE pp_two_a PARTITION OF pp_two FOR VALUES FROM (0) TO (2000) PARTITION BY RANGE (k);
CREATE TABLE pp_two_a1 PARTITION OF pp_two_a FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE pp_two_a2 PARTITION OF pp_two_a FOR VALUES FROM (1000) TO (MAXVALUE);
CREATE TABLE pp_two_b PARTITION OF pp_two FOR VALUES FROM (2000) TO (4000) PARTITION BY LIST (id);
CREATE TABLE pp_two_b_even PARTITION OF pp_two_b FOR VALUES IN (0, 2, 4, 6, 8);
CREATE TABLE pp_two_b_rest PARTITION OF pp_two_b DEFAULT;
INSERT INTO pp_two SELECT g % 10, g % 4000 FROM generate_series(1, 20000) g;
ANALYZE pp_two;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_two f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 1200 AND 1300$$);
SELECT 'two levels' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_two f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 1200 AND 1300')
UNION ALL
SELECT 'two levels, second half', * FROM pp_same(
    'SELECT f.id FROM pp_two f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 2500 AND 2600')
UNION ALL
SELECT 'two levels, 1999 and 2000', * FROM pp_same(
    'SELECT f.id FROM pp_two f JOIN pp_dim d ON d.k = f.k WHERE d.v IN (1999, 2000)');

-- Inheritance children: a validated CHECK bounds the key; a NOT VALID one
-- does not (its child holds a row outside it), nor does an OR.
CREATE TABLE pp_inh (id int, k int);
CREATE TABLE pp_inh_a (CHECK (k >= 0 AND k < 1000)) INHERITS (pp_inh);
CREATE TABLE pp_inh_b (CHECK (k BETWEEN 1000 AND 1999)) INHERITS (pp_inh);
CREATE TABLE pp_inh_c () INHERITS (pp_inh);
CREATE TABLE pp_inh_d (CHECK (k < 100 OR k > 3900)) INHERITS (pp_inh);
INSERT INTO pp_inh_a SELECT g, g % 1000 FROM generate_series(1, 5000) g;
INSERT INTO pp_inh_b SELECT g, 1000 + g % 1000 FROM generate_series(1, 5000) g;
INSERT INTO pp_inh_c SELECT g, 2000 + g % 1000 FROM generate_series(1, 5000) g;
INSERT INTO pp_inh_c VALUES (0, 3500);
ALTER TABLE pp_inh_c ADD CONSTRAINT pp_inh_c_k CHECK (k BETWEEN 2000 AND 2999) NOT VALID;
INSERT INTO pp_inh_d SELECT g, (g * 37) % 100 FROM generate_series(1, 5000) g;
INSERT INTO pp_inh VALUES (0, 3500);
ANALYZE pp_inh, pp_inh_a, pp_inh_b, pp_inh_c, pp_inh_d;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_inh f JOIN pp_dim d ON d.k = f.k WHERE d.v = 3500$$);
SELECT 'inheritance' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_inh f JOIN pp_dim d ON d.k = f.k WHERE d.v = 3500')
UNION ALL
SELECT 'inheritance, first child', * FROM pp_same(
    'SELECT f.id FROM pp_inh f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 0 AND 50');
-- validated, the constraint bounds it
DELETE FROM pp_inh_c WHERE k = 3500;
ALTER TABLE pp_inh_c VALIDATE CONSTRAINT pp_inh_c_k;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_inh f JOIN pp_dim d ON d.k = f.k WHERE d.v = 3500$$);
SELECT 'validated' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_inh f JOIN pp_dim d ON d.k = f.k WHERE d.v = 3500');

-- A CHECK that is NOT ENFORCED (18 on; NOT VALID before) bounds nothing:
-- the table holds rows outside it.
CREATE TABLE pp_unenforced (id int, k int);
INSERT INTO pp_unenforced SELECT g, g % 4000 FROM generate_series(1, 8000) g;
DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 180000 THEN
        EXECUTE 'ALTER TABLE pp_unenforced ADD CHECK (k < 1000) NOT ENFORCED';
    ELSE
        EXECUTE 'ALTER TABLE pp_unenforced ADD CHECK (k < 1000) NOT VALID';
    END IF;
END $$;
ANALYZE pp_unenforced;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_unenforced f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 3000 AND 3100$$);
SELECT 'not enforced' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_unenforced f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 3000 AND 3100');

-- A plain table whose CHECK holds no value at all, and one whose bounds
-- exclude the build keys (int8 ends: no overflow).
CREATE TABLE pp_none (id int, k8 int8 CHECK (k8 > 9223372036854775807));
CREATE TABLE pp_top (id int, k8 int8 CHECK (k8 >= 9223372036854775807));
INSERT INTO pp_none SELECT g, NULL FROM generate_series(1, 5000) g;
INSERT INTO pp_top SELECT g, CASE WHEN g % 2 = 0 THEN 9223372036854775807 END FROM generate_series(1, 5000) g;
ANALYZE pp_none, pp_top;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_none f JOIN pp_big_dim d ON d.k8 = f.k8$$);
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_top f JOIN pp_big_dim d ON d.k8 = f.k8 WHERE d.v <> 2$$);
SELECT 'no value' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_none f JOIN pp_big_dim d ON d.k8 = f.k8')
UNION ALL
SELECT 'greatest only', * FROM pp_same(
    'SELECT f.id FROM pp_top f JOIN pp_big_dim d ON d.k8 = f.k8');


-- A hash join built again on each rescan, with other keys: each build
-- decides anew which partitions are skipped.
SET enable_nestloop = on;
CREATE TABLE pp_outer AS SELECT g AS lo FROM (VALUES (0), (1500), (2999), (3990)) v(g);
ANALYZE pp_outer;
SELECT * FROM pp_skips($$
SELECT o.lo, s.n FROM pp_outer o,
LATERAL (SELECT count(*) AS n FROM pp_range f JOIN pp_dim d ON d.k = f.k
         WHERE d.v BETWEEN o.lo AND o.lo + 5) s$$);
SELECT 'rebuilt on rescan' AS q, * FROM pp_same(
    'SELECT o.lo, s.n FROM pp_outer o,
     LATERAL (SELECT count(*) AS n FROM pp_range f JOIN pp_dim d ON d.k = f.k
              WHERE d.v BETWEEN o.lo AND o.lo + 5) s');
SET enable_nestloop = off;

-- The filter node over index scans and index-only scans of the partitions.
CREATE INDEX pp_range_k ON pp_range (k);
CREATE INDEX pp_range_id ON pp_range (id);
VACUUM ANALYZE pp_range;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 2100 AND 2200 AND f.id < 19000$$);
SELECT * FROM pp_skips($$
SELECT count(*) FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 2100 AND 2200 AND f.k > -1$$);
SELECT 'index scans' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 2100 AND 2200 AND f.id < 19000')
UNION ALL
SELECT 'index-only scans', * FROM pp_same(
    'SELECT f.k FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 2100 AND 2200 AND f.k > -1');
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP INDEX pp_range_k, pp_range_id;

-- Parallel Append over the partitions' Parallel Seq Scans: a participant
-- skips a partition, none would return its rows.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT 'parallel append' AS q, * FROM pp_same(
    'SELECT f.id FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 1100 AND 1500')
UNION ALL
SELECT 'parallel append, dates', * FROM pp_same(
    'SELECT f.id FROM pp_days f JOIN pp_dim d ON d.day = f.day WHERE d.v BETWEEN 31 AND 59');
SELECT strpos(string_agg(p, E'\n'), 'Parallel Append') > 0 AS parallel_append,
       strpos(string_agg(p, E'\n'), 'Runtime Filter') > 0 AS filtered
FROM pg_temp.explain($$
SELECT count(*) FROM pp_range f JOIN pp_dim d ON d.k = f.k WHERE d.v BETWEEN 1100 AND 1500$$) p;
