-- Bloom joins: in one database, and across databases with postgres_fdw.
SET max_parallel_workers_per_gather = 0;
-- the recipes written by hand: no automatic filter besides
-- (bloom_runtime_filter tests those)
SET bloomfilter.runtime_filter = off;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql

CREATE TABLE fact AS
SELECT g AS id, (g * 7919) % 100000 AS k, 'row ' || g AS payload FROM generate_series(1, 100000) g;
CREATE TABLE dim AS
SELECT g AS k, g % 100 = 0 AS selected FROM generate_series(0, 99999) g;
ANALYZE fact;
ANALYZE dim;

-- In one database: the filter of the selected keys is built once (an
-- InitPlan) and probed per row.
SELECT * FROM pg_temp.explain($$
SELECT count(*) FROM fact f
WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)$$);
-- it runs once (loops=1); with a fixed-size filter the counts are those of
-- the formula's size
SELECT * FROM pg_temp.explain($$
SELECT count(*) FROM fact f
WHERE bloom_contains((SELECT bloom_agg(k, 1000, 0.01) FROM dim WHERE selected), f.k)$$, 'ANALYZE');
-- No false negatives: every row of the exact semi-join passes the filter;
-- the few false positives are removed by the exact join.
SELECT semi_join, passed_filter BETWEEN semi_join AND semi_join + 0.02 * (100000 - semi_join) AS few_false_positives,
       filtered_join
FROM (SELECT (SELECT count(*) FROM fact f WHERE f.k IN (SELECT k FROM dim WHERE selected)) AS semi_join,
             (SELECT count(*) FROM fact f
              WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)) AS passed_filter,
             (SELECT count(*) FROM fact f
              WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)
                AND f.k IN (SELECT k FROM dim WHERE selected)) AS filtered_join) c;
-- the operator form
SELECT count(*) = (SELECT count(*) FROM fact f WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)) AS same
FROM fact f WHERE (SELECT bloom_agg(k) FROM dim WHERE selected) @> f.k;

-- Across databases: postgres_fdw ships the filter condition to the remote
-- server when the extension is listed in the server's `extensions` option.
-- A loopback server stands for the remote one; it logs in with the
-- password pg_virtualenv gives the test run.
CREATE EXTENSION postgres_fdw;
\getenv pghost PGHOST
\getenv pguser PGUSER
\getenv pgpassword PGPASSWORD
SELECT current_database() AS dbname, current_setting('port') AS port \gset
CREATE SERVER loopback FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host :'pghost', port :'port', dbname :'dbname', extensions 'bloomfilter');
CREATE USER MAPPING FOR CURRENT_USER SERVER loopback
    OPTIONS (user :'pguser', password :'pgpassword');
CREATE FOREIGN TABLE fact_remote (id int, k int, payload text)
    SERVER loopback OPTIONS (table_name 'fact', use_remote_estimate 'false');

SELECT * FROM pg_temp.explain($$
SELECT id, payload FROM fact_remote f
WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)$$, 'VERBOSE');
SELECT * FROM pg_temp.explain($$
SELECT f.id, f.payload FROM fact_remote f JOIN dim d ON d.k = f.k AND d.selected
WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)$$, 'VERBOSE');
SELECT count(*) AS joined, count(DISTINCT f.k) AS keys
FROM fact_remote f JOIN dim d ON d.k = f.k AND d.selected
WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k);
-- the same answer as the join without the filter
SELECT count(*) AS joined FROM fact_remote f JOIN dim d ON d.k = f.k AND d.selected;
-- a filter kept in a table ships the same way
CREATE TABLE key_filters AS SELECT 'selected' AS name, bloom_agg(k) AS f FROM dim WHERE selected;
SELECT * FROM pg_temp.explain($$
SELECT count(*) FROM fact_remote f
WHERE bloom_contains((SELECT f FROM key_filters WHERE name = 'selected'), f.k)$$, 'VERBOSE');
SELECT count(*) = (SELECT count(*) FROM fact f WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)) AS same_as_local
FROM fact_remote f
WHERE bloom_contains((SELECT f FROM key_filters WHERE name = 'selected'), f.k);
-- without the extensions option the condition is evaluated locally
ALTER SERVER loopback OPTIONS (DROP extensions);
SELECT * FROM pg_temp.explain($$
SELECT id FROM fact_remote f
WHERE bloom_contains((SELECT bloom_agg(k) FROM dim WHERE selected), f.k)$$, 'VERBOSE');
