-- Limits and the one validator: every value the type accepts can be dumped
-- (its text form fits in one allocation), parameters are checked by the
-- core with the messages SQLite gives, and bloom_info's figures come from
-- one pass that agrees with the single functions.
SET extra_float_digits = 0;

\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/errors.sql

-- A filter of 2^32 bits stored, but its text form (1 GB of hex) could not
-- be printed, so pg_dump failed: refused now when it is made.  The largest
-- filter, 2^32 - 2^23 bits (511 MiB), prints (tools/suites/30-pg.sh dumps
-- and restores one).
SELECT pg_temp.error_of('SELECT bloom_empty_mk(4294967296, 1)');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(4286578688 + 256, 8, 0, ''blocked'')');
SELECT pg_temp.error_of('SELECT bloom_empty(450000000, 0.01)');
SELECT pg_temp.error_of('SELECT bloom_agg(g, 450000000, 0.01) FROM generate_series(1, 3) g');
SELECT length(bloom_empty_mk(4286578688, 1)::text) AS text_of_the_largest;

-- A capacity written as a numeric literal or a double: integral values
-- only, the core's messages (SQLite's, too).
SELECT bloom_empty(1e6) = bloom_empty(1000000) AS numeric_capacity,
       bloom_empty(1e6::float8, 0.001, 7, 'blocked') = bloom_empty(1000000, 0.001, 7, 'blocked') AS float_capacity,
       bloom_empty(1000) = bloom_empty(1000::bigint) AS integer_capacity;
SELECT pg_temp.error_of('SELECT bloom_empty(1e20)');
SELECT pg_temp.error_of('SELECT bloom_empty(-1e20)');
SELECT pg_temp.error_of('SELECT bloom_empty(2.5)');
SELECT pg_temp.error_of('SELECT bloom_empty(''NaN''::float8)');
SELECT pg_temp.error_of('SELECT bloom_empty(0.0)');
SELECT pg_temp.error_of('SELECT bloom_empty(1e6, 0)');
SELECT pg_temp.error_of('SET bloomfilter.default_fpr = 1');

-- bloom_info in one pass: the same figures as the single functions.
WITH f(f) AS (VALUES
  (bloom_empty(100)),
  ((SELECT bloom_agg(g, 1000, 0.01) FROM generate_series(1, 700) g)),
  ((SELECT bloom_agg(g, 10, 0.01) FROM generate_series(1, 500) g)),
  ((SELECT bloom_union(bloom_add(bloom_empty(1000, 0.01, 3, 'blocked'), 1), bloom_add(bloom_empty(1000, 0.01, 3, 'blocked'), 2)))))
SELECT i.layout, i.nbits, i.bits_set, i.fill = i.bits_set::float8 / i.nbits AS fill_agrees,
       i.est_cardinality IS NOT DISTINCT FROM bloom_cardinality(f) AS cardinality_agrees,
       i.est_fpr = bloom_fpr(f) AS fpr_agrees
FROM f, LATERAL bloom_info(f) i ORDER BY i.nbits;

-- No user's settings can make the self-sizing builder allocate past a
-- value's limit: the size is checked before any candidate filter is built,
-- and the error is immediate.
SET bloomfilter.default_layout = 'blocked';
SET bloomfilter.default_fpr = 1e-18;
SET statement_timeout = '5s';
SELECT pg_temp.error_of('SELECT bloom_agg(i) FROM generate_series(1, 200) i');
SELECT pg_temp.error_of('SELECT bloom_agg(i) FROM generate_series(1, 70000) i');
RESET statement_timeout;
RESET bloomfilter.default_fpr;
RESET bloomfilter.default_layout;
