-- bloom_agg(x) over many groups (one filter per day, tenant, ...): the
-- states of one aggregate share one arena context, so a group of a few
-- values costs a few hundred bytes, not a context of 8 KB each (which also
-- made HashAggregate's memory accounting quadratic in the groups).
SET extra_float_digits = 0;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
CREATE TABLE many_groups AS
SELECT g % 20000 AS g, g::int8 AS x FROM generate_series(1, 60000) g;
CREATE INDEX ON many_groups (g);
ANALYZE many_groups;

SET work_mem = '1GB';
SET enable_sort = off;
SET max_parallel_workers_per_gather = 0;
-- Measured while the hash table is full (the first result row): every
-- context of ours, per group.  One context per group cost 8 KB here.
SELECT * FROM pg_temp.explain('SELECT g, bloom_agg(x) FROM many_groups GROUP BY g');
SELECT octet_length(f::bytea) > 0 AS built,
       (SELECT count(*) FROM pg_backend_memory_contexts WHERE name LIKE 'bloom%') AS our_contexts,
       (SELECT sum(total_bytes) FROM pg_backend_memory_contexts WHERE name LIKE 'bloom%') / 20000 < 300
         AS under_300_bytes_per_group
FROM (SELECT g, bloom_agg(x) AS f FROM many_groups GROUP BY g) s LIMIT 1;

-- Hashed and sorted aggregation give every group the same filter, the one
-- built from the group's values alone.
CREATE TABLE hashed AS SELECT g, bloom_agg(x) AS f FROM many_groups WHERE g < 500 GROUP BY g;
RESET enable_sort;
SET enable_hashagg = off;
CREATE TABLE sorted AS SELECT g, bloom_agg(x) AS f FROM many_groups WHERE g < 500 GROUP BY g;
RESET enable_hashagg;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE h.f = s.f) AS same,
       count(*) FILTER (WHERE h.f = (SELECT bloom_agg(x) FROM many_groups m WHERE m.g = h.g)) AS same_as_alone
FROM hashed h JOIN sorted s USING (g);

-- A hash aggregate that spills (its hash context, our arena with it, is
-- reset for every batch) gives the same filters.
SET work_mem = '64kB';
SET enable_sort = off;
CREATE TABLE spilled AS SELECT g, bloom_agg(x) AS f FROM many_groups WHERE g < 5000 GROUP BY g;
RESET enable_sort;
SET work_mem = '1GB';
SET enable_hashagg = off;
SELECT count(*) AS groups, count(*) FILTER (WHERE p.f = s.f) AS same
FROM spilled p JOIN (SELECT g, bloom_agg(x) AS f FROM many_groups WHERE g < 5000 GROUP BY g) s USING (g);
RESET enable_hashagg;
DROP TABLE spilled;

-- Grouping sets (several aggregate contexts in one call site, hashed and
-- sorted together) and a window aggregate restarted per frame.
SET enable_sort = off;
SELECT count(*) AS sets,
       count(*) FILTER (WHERE f = (SELECT bloom_agg(x) FROM many_groups m
                                   WHERE m.g < 100 AND (gs.g IS NULL OR m.g = gs.g)
                                     AND (gs.parity IS NULL OR m.g % 2 = gs.parity))) AS right
FROM (SELECT g, g % 2 AS parity, bloom_agg(x) AS f FROM many_groups WHERE g < 100
      GROUP BY GROUPING SETS ((g), (g % 2), ())) gs;
RESET enable_sort;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE bloom_contains(f, x) AND bloom_contains(f, x - 1)) AS both_members
FROM (SELECT x, bloom_agg(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS f
      FROM many_groups WHERE x BETWEEN 2 AND 1001) w;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE f = (SELECT bloom_agg(x) FROM many_groups m WHERE m.g = w.g)) AS right
FROM (SELECT g, bloom_agg(x) OVER (PARTITION BY g) AS f FROM many_groups WHERE g < 300) w;
DROP TABLE many_groups, hashed, sorted;
RESET ALL;
