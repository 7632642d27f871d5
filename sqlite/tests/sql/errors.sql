-- Bad arguments: every one is an error naming the function, never a result.
.load build/bloomfilter
.headers on
.echo on
-- A filter argument that is not a blob.
SELECT bloom_contains('BLOM', 1);
SELECT bloom_add(42, 1);
SELECT bloom_cardinality(1.5);
SELECT bloom_info('');
SELECT bloom_union(bloom_empty(10), 'x');
SELECT bloom_union_agg(x) FROM (SELECT 'text' AS x);
-- Capacity.
SELECT bloom_empty(0);
SELECT bloom_empty(-5);
SELECT bloom_empty(1.5);
SELECT bloom_empty('100');
SELECT bloom_empty(X'01');
-- The false-positive rate is in the open interval (0, 1).
SELECT bloom_empty(10, 0);
SELECT bloom_empty(10, 1);
SELECT bloom_empty(10, -0.5);
SELECT bloom_empty(10, 1.5);
SELECT bloom_empty(10, 9e999);
SELECT bloom_empty(10, '0.01');
-- Seed and layout.
SELECT bloom_empty(10, 0.01, 'seed');
SELECT bloom_empty(10, 0.01, 0.5);
SELECT bloom_empty(10, 0.01, 0, 'bloomed');
SELECT bloom_empty(10, 0.01, 0, 1);
SELECT bloom_empty(10, 0.01, 0, 'classic' || char(0) || 'x');
SELECT bloom_hash(1, 'seed');
-- Explicit sizes.
SELECT bloom_empty_mk(0, 3);
SELECT bloom_empty_mk(-64, 3);
SELECT bloom_empty_mk(64, 0);
SELECT bloom_empty_mk(64, 33);
SELECT bloom_empty_mk(64, -1);
SELECT bloom_empty_mk(64, 4294967297);
SELECT bloom_empty_mk(1099511627777, 3);
SELECT bloom_empty_mk(300, 8, 0, 'blocked');
SELECT bloom_empty_mk(256, 7, 0, 'blocked');
-- Sizes beyond the format, and beyond SQLite's blob limit.
SELECT bloom_empty(1000000000000000, 0.01);
SELECT bloom_empty(1000000000, 0.01);
SELECT bloom_empty_mk(1099511627776, 1);
.limit length 1000
SELECT bloom_empty(1000);
SELECT length(bloom_empty(100));
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 100000) SELECT bloom_agg(v) FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 10) SELECT bloom_agg(v, 1000, 0.01) FROM s;
.limit length 1000000000
-- What no row can store is refused when it is made: this filter is exactly
-- SQLITE_LIMIT_LENGTH (10^9) bytes, and SQLite applies the limit to a row's
-- whole record.  A filter may take the limit less 1 KiB.
SELECT bloom_empty_mk(7999999744, 7);
.limit length 100000
CREATE TABLE stored (id INTEGER PRIMARY KEY, day TEXT, f BLOB);
INSERT INTO stored VALUES (1, '2026-11-01', bloom_empty_mk(791552, 7));
SELECT id, day, length(f) FROM stored;
SELECT bloom_empty_mk(791553, 7);
DROP TABLE stored;
.limit length 1000000000
-- A capacity given as a REAL: integral, and in range.
SELECT length(bloom_empty(1e6)) = length(bloom_empty(1000000));
SELECT bloom_empty(1e20);
SELECT bloom_empty(-1e20);
SELECT bloom_empty(2.5);
-- Filters that cannot be combined: the message gives both sides.
SELECT bloom_union(bloom_empty(10), bloom_empty(10, 0.001));
SELECT bloom_intersect(bloom_empty(10, 0.01, 1), bloom_empty(10, 0.01, 2));
SELECT bloom_intersect_cardinality(bloom_empty_mk(256, 8, 0, 'blocked'), bloom_empty_mk(256, 8, 0, 'classic'));
SELECT bloom_jaccard(bloom_empty_mk(64, 3), bloom_empty_mk(64, 4));
SELECT bloom_union_agg(b) FROM (SELECT bloom_empty(10) AS b UNION ALL SELECT bloom_empty(10, 0.001));
SELECT bloom_intersect_agg(b) FROM (SELECT bloom_empty(10) AS b UNION ALL SELECT bloom_empty(10, 0.01, 9));
-- Fixed-size bloom_agg parameters.
SELECT bloom_agg(1, 0, 0.01);
SELECT bloom_agg(1, 10, 2);
SELECT bloom_agg(1, NULL, 0.01);
SELECT bloom_agg(1, 'ten', 0.01);
-- An error in the middle of an aggregate stops it (the state is freed).
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 5000)
SELECT bloom_agg(CASE WHEN v < 4000 THEN v ELSE bloom_empty(0) END) FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 100)
SELECT bloom_union_agg(CASE WHEN v < 50 THEN bloom_empty(10) ELSE X'00' END) FROM s;
-- Parquet: only a blocked filter with seed 0 is a Parquet bitset.
SELECT bloom_to_parquet(bloom_empty(10));
SELECT bloom_to_parquet(bloom_empty(10, 0.01, 5, 'blocked'));
SELECT bloom_from_parquet(X'00');
SELECT bloom_from_parquet(X'');
SELECT bloom_from_parquet(zeroblob(33));
SELECT bloom_from_parquet('32 bytes of text................');
-- Wrong number of arguments is SQLite's own error.
SELECT bloom_empty();
SELECT bloom_empty(1, 0.01, 0, 'classic', 5);
SELECT bloom_agg(1, 2);
-- The aggregates have no inverse step: not window functions.
SELECT bloom_agg(1) OVER ();
-- Out of memory (a heap limit lowers what SQLite may allocate; it can only
-- go down, so this comes last): an error, nothing leaked (valgrind run).
-- 6 MB: 20000 distinct values fit, 1200000 (9.6 MB of hashes) cannot;
-- a filter of 12 MB cannot.
PRAGMA hard_heap_limit = 6000000;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 20000) SELECT length(bloom_agg(v)) > 0 FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 1200000) SELECT length(bloom_agg(v)) FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 10) SELECT length(bloom_agg(v, 10000000, 0.01)) FROM s;
SELECT length(bloom_empty(10000000));
PRAGMA hard_heap_limit = 3000000;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 1000) SELECT length(bloom_agg(v)) > 0 FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 400000) SELECT length(bloom_agg(v)) FROM s;
SELECT length(bloom_add(bloom_empty(2000000), 1));
SELECT length(bloom_ref(bloom_empty(2000000)));
SELECT length(bloom_union(bloom_empty(2000000), bloom_empty(2000000)));
-- Every row's capacity and fpr must give the group's size, as in PostgreSQL
-- (another capacity of the same size class is accepted there and here).
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 10)
SELECT bloom_agg(v, 100 + v % 2, 0.01) = bloom_agg(v, 101, 0.01) AS same_size_class FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 10)
SELECT bloom_agg(v, CASE WHEN v < 5 THEN 100 ELSE 100000 END, 0.01) FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 10)
SELECT bloom_agg(v, 100, CASE WHEN v < 5 THEN 0.01 ELSE 0.000001 END) FROM s;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 10)
SELECT bloom_agg(v, CASE WHEN v < 5 THEN 100 END, 0.01) FROM s;
