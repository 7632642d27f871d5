-- A filter that is constant for the statement is parsed once (auxdata);
-- answers must not depend on whether an argument is constant, and two
-- constant filters in one statement must not be confused.
.load build/bloomfilter
.headers on
.echo on
CREATE TABLE s AS
WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < 2000) SELECT v FROM r;
CREATE TABLE f (name, b);
INSERT INTO f SELECT 'low', bloom_agg(v, 1000, 0.01) FROM s WHERE v <= 1000;
INSERT INTO f SELECT 'even', bloom_agg(v, 1000, 0.01) FROM s WHERE v % 2 = 0;
-- The filter as a literal (constant) and as a column (not constant).
CREATE TABLE one AS SELECT X'424C4F4D010001030000000000000000000000000000000040000000000000000200100080000000' AS b;
SELECT 'literal' AS how, sum(bloom_contains(X'424C4F4D010001030000000000000000000000000000000040000000000000000200100080000000', v)) AS hits FROM s
UNION ALL
SELECT 'column', sum(bloom_contains(b, v)) FROM s, one;
-- Two constant filters in one statement, at two call sites and as the two
-- arguments of one call.
SELECT sum(bloom_contains((SELECT b FROM f WHERE name = 'low'), v)) AS low,
       sum(bloom_contains((SELECT b FROM f WHERE name = 'even'), v)) AS even,
       round(bloom_jaccard((SELECT b FROM f WHERE name = 'low'), (SELECT b FROM f WHERE name = 'even')), 3) AS jaccard
FROM s;
-- Per-row filters from a table: each row's own filter answers.
SELECT name, sum(bloom_contains(b, v)) AS hits, sum(bloom_contains(b, v) AND v > 1000 AND v % 2 = 1) AS false_positives
FROM f, s GROUP BY name ORDER BY name;
-- A constant filter passed through bloom_add for every row: the cache of
-- argument 0 stays valid while the results differ.
SELECT count(DISTINCT bloom_add(bloom_empty_mk(1024, 2), v)) AS distinct_results FROM s WHERE v <= 50;
-- A malformed constant is rejected before any row is read.
SELECT count(*) FROM s WHERE bloom_contains(X'424C4F4D', v);

-- bloom_ref: the filter parsed once and passed by reference.  To SQL it is
-- a NULL; to the bloom functions it is the filter.
SELECT typeof(bloom_ref(b)) AS type, bloom_ref(b) IS NULL AS is_null FROM f WHERE name = 'low';
SELECT sum(bloom_contains((SELECT bloom_ref(b) FROM f WHERE name = 'low'), v)) AS low,
       sum(bloom_contains((SELECT bloom_ref(b) FROM f WHERE name = 'even'), v)) AS even FROM s;
SELECT bloom_info(bloom_ref(b)) = bloom_info(b) AS info, bloom_add(bloom_ref(b), NULL) = b AS add_null,
       bloom_add(bloom_ref(b), 2) = b AS add_member, bloom_add(bloom_ref(b), 'new') = bloom_add(b, 'new') AS add_new,
       bloom_union(bloom_ref(b), b) = b AS union_self, bloom_to_parquet(bloom_ref(bloom_empty(10, 0.01, 0, 'blocked'))) = zeroblob(32) AS parquet
FROM f WHERE name = 'even';
SELECT bloom_union_agg(bloom_ref(b)) = bloom_union_agg(b) AS union_agg FROM f;
-- Stored, it is just NULL: a reference does not outlive its statement.
CREATE TABLE refs AS SELECT bloom_ref(b) AS r FROM f;
SELECT count(*) AS rows, count(r) AS non_null FROM refs;
SELECT bloom_ref(NULL) IS NULL AS null_in;
SELECT bloom_ref('text');
SELECT bloom_ref(X'424C4F4D');
-- A FROM-clause subquery is materialized into a table, so the reference is
-- lost there too: every probe is NULL (the documented recipe is a scalar
-- subquery in the function's argument).
SELECT count(*) AS matched, count(bloom_contains(f.r, s.v)) AS answered
FROM (SELECT bloom_ref(b) AS r FROM f WHERE name = 'low' LIMIT 1) AS f, s WHERE bloom_contains(f.r, s.v);
