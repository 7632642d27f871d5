-- The index access method bloom_bitslice: an index over a column of filters.
-- Every probe is answered twice, through the index and by a sequential scan,
-- and the rows must be the same, over a table of filters of every kind a
-- column may hold (sizes, layouts, nhashes, seeds, odd sizes, large ones
-- folded, saturated ones, NULLs), after inserts, updates, deletes,
-- rollbacks and VACUUM, and with a max_nbits that folds or sets rows aside.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
SET max_parallel_workers_per_gather = 0;
-- what the metapage counts (a test-only entry point)
CREATE FUNCTION pg_temp.bitslice(regclass) RETURNS json
    AS '$libdir/bloomfilter', 'bloom_bitslice_debug' LANGUAGE C STRICT;

-- the access method and its operator class
SELECT amname, amtype FROM pg_am WHERE amname = 'bloom_bitslice';
SELECT opcname, opcdefault, opcintype::regtype,
       (SELECT count(*) FROM pg_amop WHERE amopfamily = opcfamily) AS operators,
       (SELECT count(*) FROM pg_amproc WHERE amprocfamily = opcfamily) AS support_functions,
       amvalidate(oid)
FROM pg_opclass WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bloom_bitslice');

-- ---------------------------------------------------------------------------
-- a table of filters of every kind
-- ---------------------------------------------------------------------------
CREATE TABLE bs (id int PRIMARY KEY, kind text, f bloom) WITH (autovacuum_enabled = off);
-- self-sized, 1 to 400 int values: size classes 64 to 8192 bits
INSERT INTO bs SELECT g, 'self-sized',
    (SELECT bloom_agg(g * 7 + x) FROM generate_series(1, 1 + (hashint4(g) & 1023) % 400) x)
FROM generate_series(1, 1500) g;
-- text values, blocked, at 0.001
SET bloomfilter.default_layout = 'blocked';
INSERT INTO bs SELECT g, 'blocked text',
    (SELECT bloom_agg('k' || (g * 3 + x), 50 + g % 500, 0.001) FROM generate_series(1, 1 + g % 300) x)
FROM generate_series(1501, 1800) g;
RESET bloomfilter.default_layout;
-- two seeds, nhashes 1, 7 and 32, three sizes
INSERT INTO bs SELECT g, 'seeds and nhashes',
    bloom_add_all(bloom_empty_mk(1024 * (1 + g % 3), (ARRAY[1, 7, 32])[1 + g / 3 % 3], g / 9 % 2 - 1),
                  ARRAY[g, g + 1, g * 7 + 1])
FROM generate_series(1801, 1900) g;
-- odd sizes (a 1.0 filter's, bloom_empty_mk's): 1 bit, 61, 1000, 100003 (a prime)
INSERT INTO bs SELECT g, 'odd sizes',
    bloom_add(bloom_empty_mk((ARRAY[1, 61, 1000, 100003])[1 + g % 4], 3), g * 7 + 2)
FROM generate_series(1901, 1940) g;
-- large, stored out of line: folded to max_nbits
INSERT INTO bs SELECT g, 'large',
    (SELECT bloom_agg(g * 7 + x, 100000, 0.01) FROM generate_series(1, 2000) x)
FROM generate_series(1941, 1950) g;
-- saturated (every bit set), and empty
INSERT INTO bs SELECT g, 'saturated', bloom_add_all(bloom_empty_mk(64, 1), (SELECT array_agg(x) FROM generate_series(1, 2000) x))
FROM generate_series(1951, 1955) g;
INSERT INTO bs SELECT g, 'empty', bloom_empty(10) FROM generate_series(1956, 1960) g;
INSERT INTO bs SELECT g, 'null', NULL FROM generate_series(1961, 1970) g;
SELECT kind, count(*), min((bloom_info(f)).nbits) AS least_nbits, max((bloom_info(f)).nbits) AS most_nbits
FROM bs GROUP BY kind ORDER BY min(id);

CREATE INDEX bs_f ON bs USING bloom_bitslice (f);
SELECT pg_temp.bitslice('bs_f');
-- rows the index holds: live slots, live pending rows, rows aside; and
-- whether the metapage's counters are what a walk counts
CREATE FUNCTION pg_temp.indexed(regclass, OUT indexed int, OUT counters_agree bool) LANGUAGE sql AS $$
SELECT (j->>'live')::int + (j->>'pending')::int + (j->>'aside')::int, (j->>'counters_agree')::bool
FROM pg_temp.bitslice($1) j $$;
SELECT pg_temp.indexed('bs_f'), count(*) FILTER (WHERE f IS NOT NULL) AS non_null_rows FROM bs;

-- ---------------------------------------------------------------------------
-- the same rows through the index and by a sequential scan
-- ---------------------------------------------------------------------------
-- The ids of the rows of bs where cond holds, through the index (with_index)
-- or by a sequential scan.
CREATE FUNCTION pg_temp.ids(cond text, with_index bool) RETURNS int[] LANGUAGE plpgsql AS $fn$
DECLARE
    r int[];
BEGIN
    PERFORM set_config('enable_seqscan', CASE WHEN with_index THEN 'off' ELSE 'on' END, false);
    PERFORM set_config('enable_bitmapscan', CASE WHEN with_index THEN 'on' ELSE 'off' END, false);
    PERFORM set_config('enable_indexscan', 'off', false);
    EXECUTE 'SELECT array_agg(id ORDER BY id) FROM bs WHERE ' || cond INTO r;
    RESET enable_seqscan;
    RESET enable_bitmapscan;
    RESET enable_indexscan;
    RETURN coalesce(r, '{}');
END
$fn$;
-- Whether the plan of cond (index forced) reads the index.
CREATE FUNCTION pg_temp.uses_index(cond text) RETURNS bool LANGUAGE plpgsql AS $fn$
DECLARE
    line text;
    found bool := false;
BEGIN
    SET enable_seqscan = off;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) SELECT id FROM bs WHERE ' || cond LOOP
        found := found OR line ~ 'Bitmap Index Scan on bs_f';
    END LOOP;
    RESET enable_seqscan;
    RETURN found;
END
$fn$;
-- cond_format with each of vals: probes, probes answered differently (each
-- named in a NOTICE), rows found, probes whose plan read the index.
CREATE FUNCTION pg_temp.compare(cond_format text, vals text[],
    OUT probes int, OUT different int, OUT rows_found int, OUT through_index int)
LANGUAGE plpgsql AS $fn$
DECLARE
    v text;
    cond text;
    a int[];
    b int[];
BEGIN
    probes := 0; different := 0; rows_found := 0; through_index := 0;
    FOREACH v IN ARRAY vals LOOP
        cond := format(cond_format, v);
        a := pg_temp.ids(cond, true);
        b := pg_temp.ids(cond, false);
        probes := probes + 1;
        rows_found := rows_found + cardinality(b);
        IF a IS DISTINCT FROM b THEN
            different := different + 1;
            RAISE NOTICE 'different: %: index %, scan %', cond, a, b;
        END IF;
        IF pg_temp.uses_index(cond) THEN
            through_index := through_index + 1;
        END IF;
    END LOOP;
END
$fn$;
CREATE FUNCTION pg_temp.ints(lo int, hi int, step int) RETURNS text[] LANGUAGE sql AS
$$ SELECT array_agg(g::text) FROM generate_series(lo, hi, step) g $$;
-- every form of the question, the plan of each
SET enable_seqscan = off;
SELECT * FROM pg_temp.explain('SELECT id FROM bs WHERE f @> 42');
SELECT * FROM pg_temp.explain('SELECT id FROM bs WHERE 42 <@ f');
SELECT * FROM pg_temp.explain('SELECT id FROM bs WHERE bloom_contains(f, 42)');
SELECT * FROM pg_temp.explain('SELECT id FROM bs WHERE contained_in_bloom(42::int8, f)');
SELECT * FROM pg_temp.explain('SELECT id FROM bs WHERE f @> 42 AND f @> 43');
SELECT * FROM pg_temp.explain('SELECT id FROM bs WHERE f @> ANY (ARRAY[42, 4242])');
RESET enable_seqscan;
CREATE FUNCTION pg_temp.check_all() RETURNS TABLE (question text, probes int, different int, rows_found int, through_index int)
LANGUAGE sql AS $fn$
SELECT 'f @> int', * FROM pg_temp.compare('f @> %s', pg_temp.ints(1, 14000, 97))
UNION ALL SELECT '<@, int8', * FROM pg_temp.compare('%s::int8 <@ f', pg_temp.ints(3, 14000, 331))
UNION ALL SELECT 'bloom_contains, numeric', * FROM pg_temp.compare('bloom_contains(f, %s.0)', pg_temp.ints(5, 14000, 313))
UNION ALL SELECT 'contained_in_bloom, float8', * FROM pg_temp.compare('contained_in_bloom(%s::float8, f)', pg_temp.ints(8, 14000, 317))
UNION ALL SELECT 'text', * FROM pg_temp.compare('f @> %L', (SELECT array_agg('k' || g) FROM generate_series(4500, 6000, 37) g))
UNION ALL SELECT 'two values', * FROM pg_temp.compare('f @> %1$s AND f @> %1$s + 1', pg_temp.ints(1801, 1900, 7))
UNION ALL SELECT 'ANY', * FROM pg_temp.compare('f @> ANY (ARRAY[%1$s, %1$s * 7 + 2, 7])', pg_temp.ints(1, 2000, 83))
UNION ALL SELECT 'NULL', * FROM pg_temp.compare('f @> %s', ARRAY['NULL::int'])
$fn$;
SELECT * FROM pg_temp.check_all();

-- a type without its own overload (an enum) hashes its binary send form:
-- the index condition is @>(bloom, bytea) of that form, the call rechecks
CREATE TYPE pg_temp.color AS ENUM ('red', 'green', 'blue');
INSERT INTO bs SELECT 3000 + g, 'enum',
    bloom_add(bloom_empty(10), (ARRAY['red', 'green', 'blue'])[1 + g % 3]::pg_temp.color)
FROM generate_series(1, 30) g;
SET enable_seqscan = off;
SELECT * FROM pg_temp.explain($$SELECT id FROM bs WHERE f @> 'red'::pg_temp.color$$);
RESET enable_seqscan;
SELECT * FROM pg_temp.compare('f @> %L::pg_temp.color', '{red,green,blue}');
SELECT * FROM pg_temp.compare('bloom_contains(f, %L::pg_temp.color)', '{red,green,blue}');
-- a text probe cannot be read as the values of a type that is not built in
-- (docs/HASHING.md, "What a text probe checks"): it raises, so the rows go
-- before the text questions of check_all
SELECT id FROM bs WHERE f @> 'red' AND kind = 'enum';
DELETE FROM bs WHERE kind = 'enum';

-- ---------------------------------------------------------------------------
-- maintained: inserts (sliced from the pending rows in batches), updates,
-- deletes, rollbacks, VACUUM
-- ---------------------------------------------------------------------------
INSERT INTO bs SELECT g, 'inserted',
    (SELECT bloom_agg(g * 7 + x) FROM generate_series(1, 1 + (hashint4(g) & 1023) % 400) x)
FROM generate_series(4001, 5000) g;
SELECT pg_temp.bitslice('bs_f');
SELECT pg_temp.indexed('bs_f'), count(*) FILTER (WHERE f IS NOT NULL) AS non_null_rows FROM bs;
SELECT * FROM pg_temp.check_all();
BEGIN;
INSERT INTO bs SELECT g, 'rolled back',
    (SELECT bloom_agg(x) FROM generate_series(1, 300) x) FROM generate_series(6001, 6300) g;
UPDATE bs SET f = bloom_add(f, -1) WHERE id % 5 = 0;
DELETE FROM bs WHERE id % 7 = 0;
SELECT count(*) AS seen_in_the_transaction FROM bs WHERE f @> -1;
ROLLBACK;
SELECT * FROM pg_temp.compare('f @> %s', '{-1,150,300}');
UPDATE bs SET f = bloom_add(f, -2) WHERE id % 3 = 0;
UPDATE bs SET f = NULL WHERE id % 11 = 0;
UPDATE bs SET f = bloom_add(bloom_empty(5), -3) WHERE id % 13 = 0;
DELETE FROM bs WHERE id % 4 = 0;
SELECT * FROM pg_temp.compare('f @> %s', '{-1,-2,-3}');
SELECT * FROM pg_temp.check_all();
VACUUM bs;
SELECT pg_temp.indexed('bs_f'), count(*) FILTER (WHERE f IS NOT NULL) AS non_null_rows FROM bs;
SELECT * FROM pg_temp.check_all();
-- most rows gone: emptied blocks are freed, sparse ones folded into the pending rows
SELECT pg_relation_size('bs_f') AS size_before \gset
SELECT (pg_temp.bitslice('bs_f')->>'blocks')::int AS blocks_before \gset
DELETE FROM bs WHERE id % 10 <> 1;
VACUUM bs;
SELECT (pg_temp.bitslice('bs_f')->>'blocks')::int < :blocks_before AS fewer_blocks;
SELECT pg_temp.indexed('bs_f'), count(*) FILTER (WHERE f IS NOT NULL) AS non_null_rows FROM bs;
SELECT * FROM pg_temp.check_all();
-- and the freed pages are used again
INSERT INTO bs SELECT g, 'inserted again',
    (SELECT bloom_agg(g * 7 + x) FROM generate_series(1, 1 + (hashint4(g) & 1023) % 400) x)
FROM generate_series(7001, 8000) g;
SELECT pg_relation_size('bs_f') <= :size_before AS no_larger_than_before,
       pg_temp.indexed('bs_f'), count(*) FILTER (WHERE f IS NOT NULL) AS non_null_rows FROM bs;
SELECT * FROM pg_temp.check_all();
REINDEX INDEX bs_f;
SELECT * FROM pg_temp.check_all();
-- built and rebuilt concurrently (the validation pass reads every entry
-- through bulk delete's callback)
DROP INDEX bs_f;
CREATE INDEX CONCURRENTLY bs_f ON bs USING bloom_bitslice (f);
REINDEX INDEX CONCURRENTLY bs_f;
SELECT pg_temp.indexed('bs_f'), count(*) FILTER (WHERE f IS NOT NULL) AS non_null_rows FROM bs;
SELECT * FROM pg_temp.check_all();

-- ---------------------------------------------------------------------------
-- max_nbits: larger filters folded, those it cannot fold kept aside
-- ---------------------------------------------------------------------------
DROP INDEX bs_f;
CREATE INDEX bs_f ON bs USING bloom_bitslice (f) WITH (max_nbits = 256);
SELECT pg_temp.bitslice('bs_f');
SELECT * FROM pg_temp.check_all();
INSERT INTO bs SELECT g, 'inserted, folded',
    (SELECT bloom_agg(g * 7 + x) FROM generate_series(1, 1 + (hashint4(g) & 1023) % 400) x)
FROM generate_series(9001, 9300) g;
SELECT * FROM pg_temp.check_all();
-- 80 geometries: the metapage holds 64 groups, the others' rows go aside
INSERT INTO bs SELECT 9500 + g, 'seeds', bloom_add(bloom_empty(10, 0.01, 1000 + g), 77) FROM generate_series(1, 80) g;
SELECT (pg_temp.bitslice('bs_f')->>'groups')::int AS groups, (pg_temp.bitslice('bs_f')->>'aside')::int > 16 AS some_aside;
SELECT * FROM pg_temp.compare('f @> %s', '{77,78}');
ALTER INDEX bs_f SET (max_nbits = 4096);  -- the metapage's value holds until REINDEX
SELECT pg_temp.bitslice('bs_f')->>'max_nbits' AS max_nbits;
REINDEX INDEX bs_f;
SELECT pg_temp.bitslice('bs_f')->>'max_nbits' AS max_nbits;
SELECT * FROM pg_temp.check_all();

-- ---------------------------------------------------------------------------
-- filters the index does not know: kept aside, never an error, never lost
-- ---------------------------------------------------------------------------
-- The index slices the layouts it knows (classic, blocked), by a list of
-- them: a filter of any other layout (one a later release adds), hash id or
-- format version is kept aside.  This build's input functions refuse such
-- bytes, so they are forged here past them (byteasend returns its input):
-- layout byte 7, hash id 7, version 7 (none of them this release's).  INSERT and
-- CREATE INDEX keep them aside without an error; every probe returns them,
-- so the recheck reads them, and raises what the sequential scan raises.
CREATE FUNCTION pg_temp.forged(bytea) RETURNS bloom LANGUAGE internal IMMUTABLE STRICT AS 'byteasend';
SELECT (pg_temp.bitslice('bs_f')->>'aside')::int AS aside_before \gset
INSERT INTO bs SELECT 9900 + b, 'unknown ' || what,
    pg_temp.forged(set_byte(bloom_add(bloom_empty(10), 77)::bytea, b, 7))
FROM (VALUES (5, 'layout'), (6, 'hash id'), (4, 'version')) AS x(b, what);
SELECT (pg_temp.bitslice('bs_f')->>'aside')::int - :aside_before AS set_aside,
       (pg_temp.indexed('bs_f')).counters_agree;
-- The error a query raises (message: detail), or 'no error'.
CREATE FUNCTION pg_temp.error_of(cond text, with_index bool) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    detail text;
BEGIN
    PERFORM pg_temp.ids(cond, with_index);
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLERRM || ': ' || detail;
END
$fn$;
SELECT pg_temp.uses_index('f @> 77') AS uses_index;
SELECT pg_temp.error_of('f @> 77', true) AS through_index, pg_temp.error_of('f @> 77', false) AS scan \gx
REINDEX INDEX bs_f;
SELECT (pg_temp.bitslice('bs_f')->>'aside')::int - :aside_before AS set_aside_by_the_build;
SELECT pg_temp.error_of('f @> 78', true) AS through_index, pg_temp.error_of('f @> 78', false) AS scan \gx
-- and the row of an unknown layout alone: found through the index
DELETE FROM bs WHERE id IN (9904, 9906);
SELECT pg_temp.uses_index('f @> 78') AS uses_index;
SELECT pg_temp.error_of('f @> 78', true) AS through_index, pg_temp.error_of('f @> 78', false) AS scan \gx
DELETE FROM bs WHERE id = 9905;
SELECT * FROM pg_temp.compare('f @> %s', '{77,78}');
-- counting and scalable filters are valid but not sliced: kept aside, and
-- every probe finds them as the scan does
SELECT (pg_temp.bitslice('bs_f')->>'aside')::int AS aside_before \gset
INSERT INTO bs VALUES
    (9910, 'counting', bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 77)),
    (9911, 'scalable', bloom_add_all(bloom_empty(10, 0.01, 0, 'scalable'), ARRAY(SELECT generate_series(70, 200))));
SELECT (pg_temp.bitslice('bs_f')->>'aside')::int - :aside_before AS set_aside;
SELECT * FROM pg_temp.compare('f @> %s', '{77,78,150,5000}');
DELETE FROM bs WHERE id IN (9910, 9911);

-- options out of range, an unknown option
CREATE INDEX ON bs USING bloom_bitslice (f) WITH (max_nbits = 10);
CREATE INDEX ON bs USING bloom_bitslice (f) WITH (max_nbits = 1000000);
CREATE INDEX ON bs USING bloom_bitslice (f) WITH (fillfactor = 50);
-- one column, of type bloom
CREATE INDEX ON bs USING bloom_bitslice (f, id);
CREATE INDEX ON bs USING bloom_bitslice (id);

-- an index on an expression, over a copy of the live rows: a build also
-- evaluates the expression on deleted rows that an older snapshot may still
-- see (an autovacuum ANALYZE of another table), and bloom_add refuses the
-- corrupted filters deleted above
CREATE TABLE bs_live AS SELECT * FROM bs;
CREATE INDEX bs_expr ON bs_live USING bloom_bitslice (bloom_add(f, 'added'));
SET enable_seqscan = off;
SELECT * FROM pg_temp.explain($$SELECT count(*) FROM bs_live WHERE bloom_add(f, 'added') @> 77$$);
SELECT count(*) FROM bs_live WHERE bloom_add(f, 'added') @> 77;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*) FROM bs_live WHERE bloom_add(f, 'added') @> 77;
RESET enable_bitmapscan;
DROP TABLE bs_live;
-- a partial index
CREATE INDEX bs_part ON bs USING bloom_bitslice (f) WHERE id < 2000;
SET enable_seqscan = off;
SELECT * FROM pg_temp.explain('SELECT count(*) FROM bs WHERE f @> 77 AND id < 2000');
SELECT count(*) FROM bs WHERE f @> 77 AND id < 2000;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*) FROM bs WHERE f @> 77 AND id < 2000;
RESET enable_bitmapscan;
DROP INDEX bs_part;

-- ---------------------------------------------------------------------------
-- an unlogged table (the index's init fork), an empty table
-- ---------------------------------------------------------------------------
CREATE UNLOGGED TABLE bs_unlogged (id int, f bloom);
CREATE INDEX ON bs_unlogged USING bloom_bitslice (f);
INSERT INTO bs_unlogged SELECT g, bloom_add(bloom_empty(10), g) FROM generate_series(1, 200) g;
SET enable_seqscan = off;
SELECT array_agg(id) FROM bs_unlogged WHERE f @> 150;
CREATE TABLE bs_empty (f bloom);
CREATE INDEX ON bs_empty USING bloom_bitslice (f);
SELECT count(*) FROM bs_empty WHERE f @> 1;
RESET enable_seqscan;

-- ---------------------------------------------------------------------------
-- the planner picks the index when it pays
-- ---------------------------------------------------------------------------
CREATE TABLE bs_big (id int, f bloom);
INSERT INTO bs_big SELECT g, (SELECT bloom_agg(g + x * 7) FROM generate_series(1, 60) x) FROM generate_series(1, 20000) g;
CREATE INDEX ON bs_big USING bloom_bitslice (f);
ANALYZE bs_big;
SELECT * FROM pg_temp.explain('SELECT id FROM bs_big WHERE f @> 4242');
SELECT count(*) FROM bs_big WHERE f @> 4242;
-- not on a table of a few rows, nor when every filter is saturated
CREATE TABLE bs_tiny (id int, f bloom);
INSERT INTO bs_tiny SELECT g, bloom_add(bloom_empty(10), g) FROM generate_series(1, 5) g;
CREATE INDEX ON bs_tiny USING bloom_bitslice (f);
ANALYZE bs_tiny;
SELECT * FROM pg_temp.explain('SELECT id FROM bs_tiny WHERE f @> 3');
CREATE TABLE bs_full (id int, f bloom);
INSERT INTO bs_full SELECT g, bloom_add_all(bloom_empty_mk(64, 1), (SELECT array_agg(x) FROM generate_series(1, 2000) x)) FROM generate_series(1, 20000) g;
CREATE INDEX ON bs_full USING bloom_bitslice (f);
ANALYZE bs_full;
SELECT * FROM pg_temp.explain('SELECT id FROM bs_full WHERE f @> 3');

-- the method has one strategy and no support function; amvalidate refuses
-- an operator class whose operator does not take the filter on the left
CREATE OPERATOR CLASS pg_temp_bad_ops FOR TYPE bloom USING bloom_bitslice AS
    OPERATOR 2 @> (bloom, int4);
CREATE OPERATOR CLASS pg_temp_bad_ops FOR TYPE bloom USING bloom_bitslice AS
    FUNCTION 1 bloom_type_hash(bloom);
CREATE OPERATOR CLASS pg_temp_bad_ops FOR TYPE bloom USING bloom_bitslice AS
    OPERATOR 1 <@ (int4, bloom);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'pg_temp_bad_ops';
DROP OPERATOR CLASS pg_temp_bad_ops USING bloom_bitslice;
DROP OPERATOR FAMILY pg_temp_bad_ops USING bloom_bitslice;

-- a bitmap scan of the index is one index search: counted in the index's
-- statistics (idx_scan) and, from 18, in EXPLAIN ANALYZE's "Index Searches"
-- (before 18 EXPLAIN shows none: true there)
CREATE FUNCTION pg_temp.shows_one_search(query text) RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        IF line ~ 'Index Searches: ' THEN
            RETURN line ~ 'Index Searches: 1$';
        END IF;
    END LOOP;
    RETURN current_setting('server_version_num')::int < 180000;
END $fn$;
SET enable_seqscan = off;
BEGIN;
SELECT pg_temp.shows_one_search('SELECT id FROM bs_big WHERE f @> 4242') AS one_index_search;
SELECT pg_stat_get_xact_numscans('bs_big_f_idx'::regclass) > 0 AS counted;
COMMIT;
RESET enable_seqscan;

DROP TABLE bs, bs_unlogged, bs_empty, bs_big, bs_tiny, bs_full;
