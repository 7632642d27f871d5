-- Every value-taking call on a column of every type of tools/overloads.py's
-- list, resolved as the installed version resolves it (1.1: anyelement, or
-- the text overload for varchar, char(n) and name; since 1.2: the type's own
-- overloads), its answer kept in upg_answers under the installed version.
-- tools/suites/60-upgrade.sh runs it under 1.1, then again after ALTER
-- EXTENSION UPDATE in the same database; the second run compares: every
-- call that answered under 1.1 must answer the same (a call 1.1 refused,
-- such as bloom_agg of a "char", may answer now).
SET client_min_messages = warning;
-- A filter's bytes without its value kinds (header bytes 10..15): 1.2
-- records the classes of the values added, where 1.1 wrote zeros
-- (docs/FORMAT.md, "Value kinds"); every other byte must be the same.
CREATE FUNCTION pg_temp.without_kinds(b bytea) RETURNS bytea LANGUAGE sql IMMUTABLE
    AS $$ SELECT overlay(b PLACING '\x000000000000'::bytea FROM 11 FOR 6) $$;
CREATE TABLE IF NOT EXISTS upg_answers (version text, type name, call text, answer text);
DROP TABLE IF EXISTS samples;
\set samples_rows 300
\ir ../samples.sql
DO $do$
DECLARE
    col name;
    typ regtype;
    call text;
    arr text;
    answer text;
    version text := (SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter');
BEGIN
    FOR col, typ IN SELECT attname, atttypid FROM pg_attribute
               WHERE attrelid = 'samples'::regclass AND attname LIKE 'v\_%' ORDER BY attnum LOOP
        -- the column's values as an array (array_agg of oidvectors would
        -- stack them into one oidvector; through text they are an oidvector[])
        arr := CASE WHEN (SELECT typsubscript = 'array_subscript_handler'::regproc FROM pg_type WHERE oid = typ)
                    THEN format('(array_agg(%I::text ORDER BY g))::%s[]', col, typ)
                    ELSE format('array_agg(%I ORDER BY g)', col) END;
        FOREACH call IN ARRAY ARRAY[
            'string_agg(bloom_hash(%1$I)::text, '','' ORDER BY g)',
            'string_agg(bloom_hash(%1$I, -42)::text, '','' ORDER BY g)',
            'string_agg(md5(pg_temp.without_kinds(bloom_add(e, %1$I)::bytea)), '','' ORDER BY g)',
            'string_agg(bloom_contains(f, %1$I)::text, '','' ORDER BY g)',
            'string_agg((f @> %1$I)::text, '','' ORDER BY g)',
            'string_agg((%1$I <@ f)::text, '','' ORDER BY g)',
            'md5(pg_temp.without_kinds(bloom_add_all(e, %3$s)::bytea))',
            'bloom_contains_all(f, %3$s)::text',
            'bloom_contains_any(f, %3$s)::text',
            'md5(pg_temp.without_kinds(bloom_agg(%1$I)::bytea))',
            'md5(pg_temp.without_kinds(bloom_agg(%1$I, 1000, 0.01)::bytea))'] LOOP
            -- f: the filter of the even rows
            BEGIN
                EXECUTE format('SELECT md5(' || call || ') FROM samples, '
                               '(SELECT bloom_empty(1000) AS e, bloom_agg(%1$I) FILTER (WHERE g %% 2 = 0) AS f FROM samples) x '
                               'GROUP BY x.e, x.f', col, typ, arr) INTO answer;
            EXCEPTION WHEN OTHERS THEN
                answer := 'error: ' || SQLERRM;
            END;
            INSERT INTO upg_answers VALUES (version, col, format(call, col, typ, arr), answer);
        END LOOP;
    END LOOP;
END $do$;
-- the answers of this version against the first version's (none on the first run)
SELECT format('%s calls of %s: %s answered as before, %s answered differently, %s refused before, %s refused now',
              count(*), o.version, count(*) FILTER (WHERE o.answer IS NOT DISTINCT FROM n.answer),
              count(*) FILTER (WHERE o.answer IS DISTINCT FROM n.answer AND o.answer NOT LIKE 'error: %'),
              count(*) FILTER (WHERE o.answer LIKE 'error: %'),
              count(*) FILTER (WHERE n.answer LIKE 'error: %'))
FROM upg_answers o JOIN upg_answers n USING (type, call)
WHERE o.version = (SELECT min(version) FROM upg_answers)
  AND n.version = (SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter')
  AND o.version <> n.version
GROUP BY o.version;
-- what answered differently, or is refused now
SELECT n.type, n.call, o.answer AS before, n.answer AS now
FROM upg_answers o JOIN upg_answers n USING (type, call)
WHERE o.version = (SELECT min(version) FROM upg_answers)
  AND n.version = (SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter')
  AND o.version <> n.version
  AND (n.answer LIKE 'error: %' OR (o.answer IS DISTINCT FROM n.answer AND o.answer NOT LIKE 'error: %'))
ORDER BY 1, 2;
