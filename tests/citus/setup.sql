-- Tables for tests/citus/queries.sql: the same rows in a local table, a
-- table distributed by k (32 shards on two workers) and a reference table.
CREATE EXTENSION IF NOT EXISTS bloomfilter;
CREATE TABLE t_local (
    k int8, grp int4, i2 int2, i4 int4, i8 int8, num numeric, f4 float4, f8 float8,
    t text, b bytea, u uuid, d date, ts timestamp, tz timestamptz);
INSERT INTO t_local
SELECT g, g % 10,
       (g % 30000)::int2, CASE WHEN g % 13 = 0 THEN NULL ELSE g::int4 END, g::int8 * 1000003,
       (g / 8.0)::numeric, (g / 4.0)::float4, (g / 3.0)::float8,
       'key ' || g, decode(md5(g::text), 'hex'),
       md5(g::text)::uuid, date '2000-01-01' + g,
       timestamp '2020-01-01' + g * interval '1 minute',
       timestamptz '2020-01-01 00:00+00' + g * interval '1 second'
FROM generate_series(1, 20000) g;
CREATE TABLE t_dist (LIKE t_local);
SELECT create_distributed_table('t_dist', 'k');
INSERT INTO t_dist SELECT * FROM t_local;
CREATE TABLE t_ref (LIKE t_local);
SELECT create_reference_table('t_ref');
INSERT INTO t_ref SELECT * FROM t_local;
ANALYZE t_local, t_dist, t_ref;
