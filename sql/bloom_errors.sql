-- Every error path: SQLSTATE, message and detail.
SET extra_float_digits = 0;

\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/errors.sql

-- Damage a valid filter (64 bits, 3 hashes: 32 header bytes + 8 bit bytes)
-- field by field.  Header: magic (1-4), version (5), layout (6), hash id (7),
-- nhashes (8), flags (9-10), reserved (11-16), seed (17-24), nbits (25-32).
CREATE TABLE bad (field text, bytes bytea);
INSERT INTO bad
SELECT field, bytes FROM (SELECT bloom_empty_mk(64, 3)::bytea AS b) base, LATERAL (VALUES
  ('a valid filter', b),
  ('short',          substring(b FROM 1 FOR 5)),
  ('magic',          overlay(b PLACING '\x4e' FROM 4)),
  ('version',        overlay(b PLACING '\x02' FROM 5)),
  ('layout',         overlay(b PLACING '\x04' FROM 6)),
  ('hash id',        overlay(b PLACING '\x02' FROM 7)),
  ('nhashes 0',      overlay(b PLACING '\x00' FROM 8)),
  ('nhashes 33',     overlay(b PLACING '\x21' FROM 8)),
  ('flags',          overlay(b PLACING '\x01' FROM 9)),
  ('reserved',       overlay(b PLACING '\x01' FROM 13)),
  ('nbits 0',        overlay(b PLACING '\x00' FROM 25)),
  ('nbits 2^41',     overlay(b PLACING '\x0000000000020000' FROM 25)),
  ('blocked k',      overlay(overlay(b PLACING '\x01' FROM 6) PLACING '\x0001' FROM 25)),
  ('blocked m',      overlay(overlay(b PLACING '\x01' FROM 6) PLACING '\x08' FROM 8)),
  ('truncated',      overlay(b PLACING '\x80' FROM 25)),
  ('trailing',       b || '\x0000000000000000'::bytea),
  ('padding',        overlay(overlay(b PLACING '\x3f' FROM 25) PLACING '\x80' FROM 40))
) v(field, bytes);

-- text input: INVALID_TEXT_REPRESENTATION (22P02) naming the field
SELECT field, pg_temp.error_of(format('SELECT %L::bloom', '\x' || encode(bytes, 'hex'))) FROM bad ORDER BY field;
SELECT pg_temp.error_of($$SELECT 'abc'::bloom$$);
SELECT pg_temp.error_of($$SELECT ''::bloom$$);
SELECT pg_temp.error_of($$SELECT '\x424c4f4'::bloom$$);
SELECT pg_temp.error_of($$SELECT '\x424c4f4g'::bloom$$);
SELECT pg_temp.error_of($$SELECT '\x 424c4f4d'::bloom$$);
-- bytea cast: INVALID_BINARY_REPRESENTATION (22P03)
SELECT field, pg_temp.error_of(format('SELECT %L::bytea::bloom', bytes)) FROM bad ORDER BY field;
-- binary input (bloom_recv) through COPY: the bytea column's binary form is
-- the raw bytes, read back as bloom
CREATE TABLE bad_one (b bytea);
INSERT INTO bad_one SELECT bytes FROM bad WHERE field = 'reserved';
COPY bad_one TO '/tmp/bloomfilter_regress_bad.bin' (FORMAT binary);
CREATE TABLE bloom_col (f bloom);
\set VERBOSITY default
COPY bloom_col FROM '/tmp/bloomfilter_regress_bad.bin' (FORMAT binary);
-- and a bloom_builder state through bloom_builder_recv
CREATE TABLE bad_state (b bytea);
INSERT INTO bad_state VALUES ('\x424c4d420100010000000000000000007b14ae47e17a843f0100000000000000');
COPY bad_state TO '/tmp/bloomfilter_regress_bad_state.bin' (FORMAT binary);
CREATE TABLE state_col (s bloom_builder);
COPY state_col FROM '/tmp/bloomfilter_regress_bad_state.bin' (FORMAT binary);
-- the same through the message shown to users, with its detail
SELECT '\x424c4f4d0100010300000000000000000000000000000000400000000000000000000000000000'::bloom;
SELECT '\x424c4f4d01000103000000000000000000000000000000003f000000000000000000000000000080'::bloom;

-- a stored value that no longer validates: DATA_CORRUPTED (XX001)
CREATE FUNCTION unchecked_bloom(bytea) RETURNS bloom LANGUAGE internal IMMUTABLE STRICT AS 'byteasend';
SELECT field, pg_temp.error_of(format('SELECT bloom_contains(unchecked_bloom(%L), 1)', bytes)) FROM bad
WHERE field IN ('magic', 'padding', 'truncated', 'a valid filter') ORDER BY field;
SELECT pg_temp.error_of($$SELECT bloom_cardinality(unchecked_bloom('\x00'))$$);
SELECT pg_temp.error_of($$SELECT bloom_union(bloom_empty_mk(64, 3), unchecked_bloom('\x00'))$$);

-- parameters: INVALID_PARAMETER_VALUE (22023) and PROGRAM_LIMIT_EXCEEDED (54000)
SELECT pg_temp.error_of('SELECT bloom_empty(0)');
SELECT pg_temp.error_of('SELECT bloom_empty(-5)');
SELECT pg_temp.error_of('SELECT bloom_empty(100, 0)');
SELECT pg_temp.error_of('SELECT bloom_empty(100, 1)');
SELECT pg_temp.error_of('SELECT bloom_empty(100, -0.1)');
SELECT pg_temp.error_of($$SELECT bloom_empty(100, 'NaN')$$);
SELECT pg_temp.error_of($$SELECT bloom_empty(100, 0.01, 0, 'sparse')$$);
SELECT pg_temp.error_of('SELECT bloom_empty(1000000000, 0.01)');
SELECT pg_temp.error_of('SELECT bloom_empty(1000000000000000, 0.01)');
SELECT pg_temp.error_of('SELECT bloom_empty(1000000000000000, 0.01, 0, ''blocked'')');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(0, 3)');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(-64, 3)');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(64, 0)');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(64, 33)');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(64, -1)');
SELECT pg_temp.error_of($$SELECT bloom_empty_mk(512, 7, 0, 'blocked')$$);
SELECT pg_temp.error_of($$SELECT bloom_empty_mk(100, 8, 0, 'blocked')$$);
SELECT pg_temp.error_of('SELECT bloom_empty_mk(8589934592, 3)');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(2199023255552, 3)');
SELECT pg_temp.error_of($$SELECT bloom_empty_mk(64, 3, 0, '')$$);

-- combining filters with different parameters names both sides
\set VERBOSITY default
SELECT bloom_union(bloom_empty_mk(64, 3), bloom_empty_mk(96, 3));
SELECT pg_temp.error_of('SELECT bloom_empty_mk(64, 3) | bloom_empty_mk(64, 4)');
SELECT pg_temp.error_of('SELECT bloom_intersect(bloom_empty_mk(64, 3), bloom_empty_mk(64, 3, 1))');
SELECT pg_temp.error_of('SELECT bloom_empty_mk(64, 3) & bloom_empty_mk(256, 8, 0, ''blocked'')');
SELECT pg_temp.error_of('SELECT bloom_intersect_cardinality(bloom_empty_mk(64, 3), bloom_empty_mk(96, 3))');
SELECT pg_temp.error_of('SELECT bloom_jaccard(bloom_empty_mk(64, 3), bloom_empty_mk(96, 3))');
SELECT pg_temp.error_of('SELECT bloom_union_agg(f) FROM (VALUES (bloom_empty_mk(64, 3)), (bloom_empty_mk(96, 3))) t(f)');
SELECT pg_temp.error_of('SELECT bloom_intersect_agg(f) FROM (VALUES (bloom_empty_mk(64, 3)), (bloom_empty_mk(64, 2))) t(f)');

-- fixed-size bloom_agg
SELECT pg_temp.error_of('SELECT bloom_agg(g, 0, 0.01) FROM generate_series(1, 3) g');
SELECT pg_temp.error_of('SELECT bloom_agg(g, 100, 1.5) FROM generate_series(1, 3) g');
SELECT pg_temp.error_of('SELECT bloom_agg(g, NULL, 0.01) FROM generate_series(1, 3) g');
SELECT pg_temp.error_of('SELECT bloom_agg(g, 100 * g, 0.01) FROM generate_series(1, 3) g');
-- the same from a state beyond the caches, which adds a batch at a time
SELECT pg_temp.error_of('SELECT bloom_agg(g, 1000000 * (1 + g / 500), 0.01) FROM generate_series(1, 600) g');
SELECT pg_temp.error_of('SELECT bloom_agg(g, 1000000000, 0.01) FROM generate_series(1, 3) g');

-- bloom_agg states: text input validated; states of different settings do not combine
SELECT pg_temp.error_of($$SELECT 'abc'::bloom_builder$$);
SELECT pg_temp.error_of($$SELECT '\x424c4f4d0100010000000000000000007b14ae47e17a843f0000000000000000'::bloom_builder$$);
SELECT pg_temp.error_of($$SELECT '\x424c4d420200010000000000000000007b14ae47e17a843f0000000000000000'::bloom_builder$$);
SELECT pg_temp.error_of($$SELECT '\x424c4d420104010000000000000000007b14ae47e17a843f0000000000000000'::bloom_builder$$);
SELECT pg_temp.error_of($$SELECT '\x424c4d420100010000000000000000000000000000000000000000000000000000'::bloom_builder$$);
SELECT pg_temp.error_of($$SELECT '\x424c4d420100010000000000000000007b14ae47e17a843f0100000000000000'::bloom_builder$$);
SET bloomfilter.default_fpr = 0.05;
CREATE TABLE state_005 AS SELECT bloom_agg_trans(NULL, 1::int8) AS s;
RESET bloomfilter.default_fpr;
SELECT bloom_agg_combine(bloom_agg_trans(NULL, 2::int8), s) FROM state_005;

-- Parquet
SELECT pg_temp.error_of($$SELECT bloom_from_parquet('\x00')$$);
SELECT pg_temp.error_of($$SELECT bloom_from_parquet('\x')$$);
SELECT pg_temp.error_of('SELECT bloom_to_parquet(bloom_empty(10))');
SELECT pg_temp.error_of($$SELECT bloom_to_parquet(bloom_empty(10, 0.01, 3, 'blocked'))$$);

-- an untyped NULL resolves as text, and a NULL hashes to NULL
SELECT bloom_hash(NULL) IS NULL AS null_hash;

-- Counting and scalable filters (1.2): removing a value the filter says is
-- absent, or from a layout without counters, is 22023; a union of one size
-- class that saturates where none of its members was is 54000, and says what
-- to do.
SELECT pg_temp.error_of($$SELECT bloom_remove(bloom_empty(10, 0.01, 0, 'counting'), 1)$$);
SELECT pg_temp.error_of($$SELECT bloom_remove(bloom_add(bloom_empty(10), 1), 1)$$);
SELECT pg_temp.error_of($$SELECT bloom_remove(bloom_empty(10, 0.01, 0, 'scalable'), 1)$$);
SELECT pg_temp.error_of($$SELECT bloom_union_agg(bloom_agg) FROM (SELECT bloom_agg(v) FROM generate_series(1, 3000) v GROUP BY v % 30) s$$);
SELECT pg_temp.error_of($$SELECT bloom_empty(10, 0.01, 0, 'sparse')$$);
