-- Piecewise probes: a stored (out-of-line, uncompressed) filter that changes
-- from row to row is probed from the TOAST chunks holding the probed bytes;
-- one filter for many rows is read whole once and cached.  Both must answer
-- exactly as a probe of the whole value (f::bytea::bloom is an in-memory
-- copy, always read whole).
SET max_parallel_workers_per_gather = 0;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/stored_probes.sql
-- whether a probe of a new filter reads pieces (stored_probe.c): a value of
-- more than 4 TOAST chunks (1996 bytes each), and more than 4 a probed
-- byte for a probe of k bytes (classic); smaller ones are read whole
CREATE FUNCTION pg_temp.in_pieces(f bloom) RETURNS boolean LANGUAGE sql AS $$
    SELECT chunks > 4 AND ((bloom_info(f)).layout = 'blocked' OR chunks > 4 * (bloom_info(f)).nhashes)
    FROM (SELECT (octet_length(f::bytea) + 1995) / 1996 AS chunks) c $$;

CREATE TABLE stored (id int, kind text, f bloom);
ALTER TABLE stored ALTER COLUMN f SET STORAGE EXTERNAL;
-- 24 filters of 2 to 24 TOAST chunks: both layouts, integer and text keys;
-- filter i holds the values g with g % 6 = i % 6
INSERT INTO stored
SELECT i, CASE WHEN i % 2 = 0 THEN 'int' ELSE 'text' END,
       CASE WHEN i % 2 = 0
            THEN (SELECT bloom_agg(g::int8, 2000 * i, 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
            ELSE (SELECT bloom_agg('k' || g, 2000 * i, 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
       END
FROM generate_series(1, 12) i;
SET bloomfilter.default_layout = 'blocked';
INSERT INTO stored
SELECT i, CASE WHEN i % 2 = 0 THEN 'int' ELSE 'text' END,
       CASE WHEN i % 2 = 0
            THEN (SELECT bloom_agg(g::int8, 2000 * i, 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
            ELSE (SELECT bloom_agg('k' || g, 2000 * i, 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
       END
FROM generate_series(13, 24) i;
RESET bloomfilter.default_layout;
INSERT INTO stored VALUES (25, 'int', NULL), (26, 'text', NULL);
-- two classic filters large enough to be read in pieces (33 and 66 chunks)
INSERT INTO stored
SELECT i, CASE WHEN i % 2 = 0 THEN 'int' ELSE 'text' END,
       CASE WHEN i % 2 = 0
            THEN (SELECT bloom_agg(g::int8, 30000 * (i - 26), 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
            ELSE (SELECT bloom_agg('k' || g, 30000 * (i - 26), 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
       END
FROM generate_series(27, 28) i;
-- and a blocked filter small enough to be read whole (2 chunks)
INSERT INTO stored
SELECT 29, 'text', bloom_add_all(bloom_empty(1000, 0.01, 0, 'blocked'),
                                 ARRAY(SELECT 'k' || g FROM generate_series(0, 1999) g WHERE g % 6 = 29 % 6));
-- The sizes next to each limit: blocked at 4 chunks (whole; a Parquet
-- bitset, whose size is free, where sizes of ours go by powers of two: 2,
-- 3, 5, 9, 17, 33, 66 chunks) and 5 (in pieces); classic with k = 10 at 33
-- chunks (whole: at most 40), where k = 7 is read in pieces (id 27); counting at
-- 17 chunks (whole) and 33 (in pieces).
INSERT INTO stored
SELECT 30, 'text', bloom_add_all(bloom_from_parquet(decode(repeat('00', 7936), 'hex')),
                                 ARRAY(SELECT 'k' || g FROM generate_series(0, 1999) g WHERE g % 6 = 30 % 6));
INSERT INTO stored
SELECT i, 'int', (SELECT bloom_agg(g::int8, c, p) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
FROM (VALUES (32, 20000, 0.001)) v(i, c, p);
SET bloomfilter.default_layout = 'blocked';
INSERT INTO stored
SELECT i, 'text', (SELECT bloom_agg('k' || g, c, 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
FROM (VALUES (31, 5000)) v(i, c);
SET bloomfilter.default_layout = 'counting';
INSERT INTO stored
SELECT i, 'int', (SELECT bloom_agg(g::int8, c, 0.01) FROM generate_series(0, 1999) g WHERE g % 6 = i % 6)
FROM (VALUES (33, 4000), (34, 7000)) v(i, c);
RESET bloomfilter.default_layout;
SELECT id, (bloom_info(f)).layout, (bloom_info(f)).nhashes AS k,
       (octet_length(f::bytea) + 1995) / 1996 AS chunks, pg_temp.in_pieces(f) AS pieces
FROM stored WHERE id >= 27 ORDER BY id;
SELECT (bloom_info(f)).layout, count(*), min(octet_length(f::bytea)) AS smallest,
       max(octet_length(f::bytea)) AS largest
FROM stored WHERE f IS NOT NULL GROUP BY 1 ORDER BY 1;
SELECT (bloom_info(f)).layout, pg_temp.in_pieces(f) AS pieces, count(*) FROM stored WHERE f IS NOT NULL
GROUP BY 1, 2 ORDER BY 1, 2;

-- (filter, value) pairs, with NULL values; v < 32768 so every integer type holds it
CREATE TABLE pairs AS
SELECT s.id, CASE WHEN g % 97 = 0 THEN NULL ELSE g * 7 END AS v
FROM stored s, generate_series(0, 299) g;

-- Interleaved: each row's filter differs from the last row's, so every
-- probe of a non-NULL filter and value is read in pieces, but for small filters.
CREATE TEMP TABLE before AS SELECT pg_temp.stored_probes() AS n;
CREATE TEMP TABLE interleaved AS
SELECT s.id, s.v, s.kind,
       CASE WHEN s.kind = 'int' THEN bloom_contains(s.f, s.v::int8) ELSE bloom_contains(s.f, 'k' || s.v) END AS as_int8,
       CASE WHEN s.kind = 'int' THEN bloom_contains(s.f, s.v::int4) ELSE s.f @> ('k' || s.v)::varchar END AS as_int4,
       CASE WHEN s.kind = 'int' THEN s.f @> s.v::int2 ELSE ('k' || s.v) <@ s.f END AS as_int2,
       CASE WHEN s.kind = 'int' THEN s.v::float8 <@ s.f ELSE bloom_contains(s.f, 'k' || s.v) END AS as_float8,
       CASE WHEN s.kind = 'int' THEN bloom_contains(s.f, s.v::numeric) ELSE bloom_contains(s.f, 'k' || s.v) END AS as_numeric,
       CASE WHEN s.kind = 'int' THEN bloom_contains(s.f, s.v::float4) ELSE bloom_contains(s.f, 'k' || s.v) END AS as_float4,
       CASE WHEN s.kind = 'int' THEN bloom_contains(s.f::bytea::bloom, s.v::int8)
            ELSE bloom_contains(s.f::bytea::bloom, 'k' || s.v) END AS whole
FROM (SELECT p.id, p.v, (SELECT kind FROM stored s WHERE s.id = p.id) AS kind,
             (SELECT f FROM stored s WHERE s.id = p.id) AS f
      FROM pairs p ORDER BY p.v, p.id OFFSET 0) s;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE whole IS NULL) AS null_answers,
       count(*) FILTER (WHERE whole) AS present,
       count(*) FILTER (WHERE whole AND v % 6 = id % 6 AND v < 2000) AS members_found,
       count(*) FILTER (WHERE v % 6 = id % 6 AND v < 2000 AND id NOT IN (25, 26)) AS members,
       count(*) FILTER (WHERE as_int8 IS DISTINCT FROM whole OR as_int4 IS DISTINCT FROM whole
                          OR as_int2 IS DISTINCT FROM whole OR as_float8 IS DISTINCT FROM whole
                          OR as_numeric IS DISTINCT FROM whole OR as_float4 IS DISTINCT FROM whole) AS differ
FROM interleaved;
-- six piecewise probes per row with a filter and a value, a filter not small
SELECT pg_temp.stored_probes() - n AS stored_probes,
       6 * (SELECT count(*) FROM pairs JOIN stored USING (id)
            WHERE f IS NOT NULL AND v IS NOT NULL AND pg_temp.in_pieces(f)) AS expected
FROM before;

-- Grouped: one filter for many rows in a row; the first probes of each are
-- read in pieces until they have cost about a whole read (one per 7 chunks of the
-- value per index lookup a probe makes: the header's, and one per probed
-- byte (classic) or block (blocked)), then the filter is read whole once and
-- cached.
UPDATE before SET n = pg_temp.stored_probes();
SELECT count(*) FILTER (WHERE g.answer IS DISTINCT FROM i.whole) AS differ, count(*) AS rows
FROM (SELECT s.id, s.v, CASE WHEN s.kind = 'int' THEN bloom_contains(s.f, s.v::int8)
                             ELSE bloom_contains(s.f, 'k' || s.v) END AS answer
      FROM (SELECT p.id, p.v, (SELECT kind FROM stored s WHERE s.id = p.id) AS kind,
                   (SELECT f FROM stored s WHERE s.id = p.id) AS f
            FROM pairs p ORDER BY p.id, p.v OFFSET 0) s) g
JOIN interleaved i ON i.id = g.id AND i.v = g.v;
SELECT pg_temp.stored_probes() - n AS stored_probes,
       (SELECT sum(greatest(1, ((octet_length(f::bytea) + 1995) / 1996)
                               / (7 * (CASE (bloom_info(f)).layout WHEN 'blocked' THEN 1
                                            ELSE (bloom_info(f)).nhashes END + 1))))
        FROM stored WHERE f IS NOT NULL AND pg_temp.in_pieces(f)) AS expected
FROM before;

-- Compressed and inline values are read whole: same answers, no pieces.
CREATE TABLE compressed (id int, f bloom);
ALTER TABLE compressed ALTER COLUMN f SET STORAGE EXTENDED;
-- pglz, the default before 19 (lz4 from 19): the large filters stay
-- compressed out of line (lz4 would make them small enough to be inline)
ALTER TABLE compressed ALTER COLUMN f SET COMPRESSION pglz;
INSERT INTO compressed
SELECT i, (SELECT bloom_agg(g::int8, 200000, 0.01) FROM generate_series(0, 99) g WHERE g % 6 = i % 6)
FROM generate_series(1, 6) i;
INSERT INTO compressed
SELECT i, (SELECT bloom_agg(g::int8, 100, 0.01) FROM generate_series(0, 99) g WHERE g % 6 = i % 6)
FROM generate_series(7, 12) i;
SELECT id <= 6 AS large, bool_and(pg_column_size(f) < octet_length(f::bytea)) AS compressed,
       bool_and(pg_column_size(f) < 2000) AS inline
FROM compressed GROUP BY 1 ORDER BY 1;
UPDATE before SET n = pg_temp.stored_probes();
SELECT count(*) AS rows, count(*) FILTER (WHERE answer) AS present,
       count(*) FILTER (WHERE v % 6 = id % 6 AND NOT answer) AS false_negatives,
       count(*) FILTER (WHERE answer IS DISTINCT FROM whole) AS differ
FROM (SELECT c.id, s.v, bloom_contains(c.f, s.v::int8) AS answer,
             bloom_contains(c.f::bytea::bloom, s.v::int8) AS whole
      FROM generate_series(0, 99) s(v), compressed c) x;
SELECT pg_temp.stored_probes() - n AS stored_probes FROM before;

-- A probe reads its row's stored filter, so the planner tests the row's
-- other quals first, equalities included (it puts the quals it derives from
-- equalities last): only the filters of the rows they keep are read.
EXPLAIN (COSTS OFF) SELECT id FROM stored WHERE kind = 'int' AND bloom_contains(f, 42::int8);
EXPLAIN (COSTS OFF) SELECT id FROM stored WHERE f @> 42::int8 AND id = 4;
EXPLAIN (COSTS OFF) SELECT id FROM stored WHERE 42::int8 <@ f AND kind = 'int';
UPDATE before SET n = pg_temp.stored_probes();
SELECT count(*) AS rows, bool_and(bloom_contains(f, 42::int8) = bloom_contains(f::bytea::bloom, 42::int8)) AS same
FROM stored WHERE bloom_contains(f, 42::int8) AND id = 24;
SELECT pg_temp.stored_probes() - n AS stored_probes FROM before;
