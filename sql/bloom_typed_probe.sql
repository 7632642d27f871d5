-- A probe written as text (an untyped literal, a text value) is read as the
-- values the filter holds: the filter records their classes (header byte
-- 10, docs/FORMAT.md) and a text probe is true when one of its readings is
-- a member (docs/HASHING.md, "What a text probe checks").  It never answers
-- false for a member; it raises where it cannot tell.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
SET max_parallel_workers_per_gather = 0;

-- The issue's examples.
SELECT bloom_agg(day) @> '2026-10-25' AS date_member
FROM (VALUES (date '2026-10-24'), (date '2026-10-25')) v(day);
SELECT bloom_agg(u) @> 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS uuid_member
FROM (VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)) v(u);
SELECT bloom_agg(n) @> '10.1' AS numeric_member FROM (VALUES (10.1::numeric), (3)) v(n);
SELECT bloom_contains(bloom_add(bloom_empty(10), 1), '1') AS int_member,
       bloom_contains(bloom_add(bloom_empty(10), 1), ' 1 ') AS int_with_blanks,
       bloom_contains(bloom_add(bloom_empty(10), 1), '1.0') AS int_as_numeric,
       bloom_contains(bloom_add(bloom_empty(10), 1), '1e0') AS int_with_exponent,
       '1' <@ bloom_add(bloom_empty(10), 1) AS commutator;
-- every text type probes so: varchar, char(n) (without its blanks), name
SELECT f @> '42'::varchar AS varchar_probe, f @> '42'::char(6) AS bpchar_probe,
       f @> '42'::name AS name_probe, bloom_contains(f, '42'::text) AS text_probe,
       bloom_contains_any(f, ARRAY['42']::varchar[]) AS varchar_array
FROM (SELECT bloom_add(bloom_empty(100), 42) AS f) a;
-- float4 values hash widened: '0.1' finds 0.1::float4; booleans are 1 and 0
SELECT bloom_agg(x) @> '0.1' AS float4_member FROM (VALUES (0.1::float4)) v(x);
SELECT bloom_agg(b) @> 'true' AS true_member, bloom_agg(b) @> 'f' AS false_absent
FROM (VALUES (true)) v(b);
-- not members: a number that is not there, text that is not a number
SELECT bloom_contains(bloom_add(bloom_empty(1000), 1), '2') AS other_int,
       bloom_contains(bloom_add(bloom_empty(1000), 1), 'one') AS not_a_number;

-- Every type of tools/overloads.py's list: bloom_agg of a column, probed
-- with the text form of each of its values, finds every one of them (the
-- self-sizing aggregate, and the fixed-size one, batched from 64 KiB on).
CREATE SCHEMA typed_probe;
SET search_path = typed_probe, public;
\set samples_rows 300
\set ECHO none
\i :abs_srcdir/tests/samples.sql
\set ECHO all
CREATE TEMP TABLE typed_results (col name, how text, probed bigint, found bigint);
DO $$
DECLARE
    c name;
    typ regtype;
    arr text;
BEGIN
    FOR c, typ IN SELECT attname, atttypid FROM pg_attribute
             WHERE attrelid = 'samples'::regclass AND attname LIKE 'v\_%' ORDER BY attnum LOOP
        -- array_agg of oidvectors would stack them: through text, an oidvector[]
        arr := CASE WHEN (SELECT typsubscript = 'array_subscript_handler'::regproc FROM pg_type WHERE oid = typ)
                    THEN format('(array_agg(%I::text))::%s[]', c, typ)
                    ELSE format('array_agg(%I)', c) END;
        EXECUTE format($q$
            INSERT INTO typed_results
            SELECT %1$L, a.how, count(*), count(*) FILTER (WHERE a.f @> s.%1$I::text)
            FROM (SELECT 'bloom_agg(x)' AS how, bloom_agg(%1$I) AS f FROM samples
                  UNION ALL
                  SELECT 'bloom_agg(x, 1000, 0.01)', bloom_agg(%1$I, 1000, 0.01) FROM samples
                  UNION ALL
                  SELECT 'bloom_agg(x, 100000, 0.01)', bloom_agg(%1$I, 100000, 0.01) FROM samples
                  UNION ALL
                  SELECT 'bloom_add_all', bloom_add_all(bloom_empty(1000), %2$s) FROM samples
                 ) a, samples s
            WHERE s.%1$I IS NOT NULL
            GROUP BY a.how$q$, c, arr);
    END LOOP;
END $$;
SELECT count(DISTINCT col) AS types, count(*) AS filters, sum(probed) AS probes FROM typed_results;
-- every probe found its value: no row here
SELECT col, how, probed, found FROM typed_results WHERE probed <> found ORDER BY col, how;
-- the class each records (byte 10; bytes 12..15 the type OID of typed values)
SELECT col, get_byte(f::bytea, 10) AS kinds, get_byte(f::bytea, 12) + 256 * get_byte(f::bytea, 13) AS type_oid_low
FROM (SELECT 'v_int4' AS col, bloom_agg(v_int4) f FROM samples UNION ALL
      SELECT 'v_text', bloom_agg(v_text) FROM samples UNION ALL
      SELECT 'v_bpchar', bloom_agg(v_bpchar) FROM samples UNION ALL
      SELECT 'v_bytea', bloom_agg(v_bytea) FROM samples UNION ALL
      SELECT 'v_date', bloom_agg(v_date) FROM samples UNION ALL
      SELECT 'v_numeric', bloom_agg(v_numeric, 1000, 0.01) FROM samples) k
ORDER BY col;

-- bloom_contains_all / _any with arrays of text
SELECT bloom_contains_all(f, ARRAY['1', '2', '3']) AS all_found,
       bloom_contains_all(f, ARRAY['1', '2', '4000']) AS not_all,
       bloom_contains_any(f, ARRAY['4000', '3']) AS any_found,
       bloom_contains_any(f, ARRAY['4000', 'x']) AS none_found,
       bloom_contains_all(f, ARRAY['1', NULL]) AS with_null
FROM (SELECT bloom_agg(g) AS f FROM generate_series(1, 100) g) a;

-- Mixed classes: the union of a filter of integers and one of text holds
-- both, each read its own way.
SELECT get_byte(f::bytea, 10) AS kinds, f @> '5' AS int_5, f @> 'apple' AS text_apple,
       f @> 5 AS typed_5, f @> 'pear' AS text_pear
FROM (SELECT bloom_union(bloom_agg(g, 100, 0.01), bloom_agg(t, 100, 0.01)) AS f
      FROM generate_series(1, 10) g, (VALUES ('apple'), ('plum')) v(t)) u;

-- A filter stored before 1.2 records nothing (byte 10 = 0): a text probe is
-- read as text, as 1.1 answered.
SELECT get_byte(f::bytea, 10) AS now_kinds, set_byte(f::bytea, 10, 0)::bloom @> '42' AS old_text,
       set_byte(f::bytea, 10, 0)::bloom @> 42 AS old_int, f @> '42' AS now_text
FROM (SELECT bloom_add(bloom_empty(100), 42) AS f) a;

-- A literal that is not a value of the filter's one type: the type's own
-- error, as a typed literal would raise.
SELECT bloom_agg(d) @> 'not a date' FROM (VALUES (date '2026-10-25')) v(d);
-- typed values of several types: a text probe cannot be read; a typed one can
SELECT bloom_union(bloom_agg(d, 100, 0.01), bloom_agg(u, 100, 0.01)) @> '2026-10-25'
FROM (VALUES (date '2026-10-25', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)) v(d, u);
SELECT bloom_union(bloom_agg(d, 100, 0.01), bloom_agg(u, 100, 0.01)) @> date '2026-10-25' AS typed
FROM (VALUES (date '2026-10-25', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)) v(d, u);
-- beside other classes, a text that is not of the typed one is no member
-- of it; PostgreSQL 15 has no soft input errors and raises the type's
CREATE FUNCTION pg_temp.probe_or_error(f bloom, t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN (f @> t)::text;
EXCEPTION WHEN invalid_datetime_format THEN
    RETURN CASE WHEN current_setting('server_version_num')::int < 160000 THEN 'false' ELSE SQLERRM END;
END $$;
SELECT pg_temp.probe_or_error(f, 'not a date') AS not_a_date, pg_temp.probe_or_error(f, 'k1') AS text_k1,
       pg_temp.probe_or_error(f, '2026-10-25') AS date_member
FROM (SELECT bloom_union(bloom_agg(d, 100, 0.01), bloom_agg('k' || g, 100, 0.01)) AS f
      FROM (VALUES (date '2026-10-25')) v(d), generate_series(1, 3) g) u;
-- a number probe of a date filter is no member (not a text probe)
SELECT bloom_agg(d) @> 20261025 AS number_of_date FROM (VALUES (date '2026-10-25')) v(d);

-- A stored column probed with a literal, without and with the
-- bloom_bitslice index, and through a prepared statement whose parameter
-- has no type.
CREATE TABLE visits (day int, visitors bloom);
INSERT INTO visits
SELECT d, (SELECT bloom_agg(v) FROM generate_series(d * 100, d * 100 + 99) v)
FROM generate_series(1, 40) d;
SELECT day FROM visits WHERE visitors @> '142';
PREPARE visit_days AS SELECT day FROM visits WHERE visitors @> $1 ORDER BY day;
EXECUTE visit_days('142');
PREPARE visit_days_unknown(unknown) AS SELECT day FROM visits WHERE visitors @> $1 ORDER BY day;
EXECUTE visit_days_unknown('3999');
CREATE INDEX visits_bitslice ON visits USING bloom_bitslice (visitors);
SET enable_seqscan = off;
SELECT * FROM pg_temp.explain($$SELECT day FROM visits WHERE visitors @> '142'$$);
SELECT day FROM visits WHERE visitors @> '142';
SELECT day FROM visits WHERE visitors @> 142;
EXECUTE visit_days('1234');
-- the index's metapage merges the kinds of the filters it holds: once one
-- records any, a text key makes every row a candidate (rechecked)...
SELECT * FROM pg_temp.explain($$SELECT day FROM visits WHERE visitors @> '142'$$,
                              'ANALYZE') WHERE "QUERY PLAN" ~ 'Rows Removed|Bitmap Heap';
-- ...while over filters of text alone, a text key reads its slices
CREATE TABLE words (id int, f bloom);
INSERT INTO words SELECT d, (SELECT bloom_agg('w' || v) FROM generate_series(d * 100, d * 100 + 99) v)
FROM generate_series(1, 40) d;
CREATE INDEX words_bitslice ON words USING bloom_bitslice (f);
SELECT * FROM pg_temp.explain($$SELECT id FROM words WHERE f @> 'w142'$$,
                              'ANALYZE') WHERE "QUERY PLAN" ~ 'Rows Removed|Bitmap Heap';
SELECT id FROM words WHERE f @> 'w142';
-- a filter of numbers inserted later: from then on every row is a candidate
INSERT INTO words VALUES (100, bloom_add(bloom_empty(100), 7));
SELECT id FROM words WHERE f @> '7';
SELECT id FROM words WHERE f @> 'w4001';
RESET enable_seqscan;
DROP TABLE visits, words;

-- Stored out of line: probed from its TOAST chunks (stored_probe.c), each
-- reading a probe of its own.
\i :abs_srcdir/sql/include/stored_probes.sql
CREATE TABLE stored_typed (id int, f bloom);
ALTER TABLE stored_typed ALTER COLUMN f SET STORAGE EXTERNAL;
SET bloomfilter.default_layout = 'blocked';
INSERT INTO stored_typed
SELECT i, (SELECT bloom_agg(date '2026-01-01' + g, 20000, 0.01) FROM generate_series(0, 99) g WHERE g % 4 = i)
FROM generate_series(0, 3) i;
INSERT INTO stored_typed
SELECT 10 + i, (SELECT bloom_union(bloom_agg(g, 20000, 0.01), bloom_agg('k' || g, 20000, 0.01))
                FROM generate_series(0, 99) g WHERE g % 4 = i)
FROM generate_series(0, 3) i;
RESET bloomfilter.default_layout;
CREATE TEMP TABLE probes_before AS SELECT pg_temp.stored_probes() AS n;
SELECT id FROM stored_typed WHERE id < 10 AND f @> '2026-01-03' ORDER BY id;
SELECT id FROM stored_typed WHERE id >= 10 AND f @> '6' ORDER BY id;
SELECT id FROM stored_typed WHERE id >= 10 AND f @> 'k7' ORDER BY id;
SELECT pg_temp.stored_probes() - n AS probes FROM probes_before;

-- The batched probe scan: a column of text keys probed against one filter
-- of integers.
SET bloomfilter.batched_probe_min_size = 0;
CREATE TABLE text_keys AS SELECT g, g::text AS k FROM generate_series(1, 2000) g;
ANALYZE text_keys;
SELECT * FROM pg_temp.explain($$SELECT count(*) FROM text_keys
WHERE k <@ (SELECT bloom_agg(v, 2000, 0.01) FROM generate_series(1, 2000, 2) v)$$);
SELECT count(*) FROM text_keys
WHERE k <@ (SELECT bloom_agg(v, 2000, 0.01) FROM generate_series(1, 2000, 2) v);
SELECT count(*) FROM text_keys
WHERE k <@ (SELECT bloom_agg(v, 2000, 0.01) FROM generate_series(1, 2000, 2) v) AND g % 2 = 1;
RESET bloomfilter.batched_probe_min_size;
RESET search_path;
