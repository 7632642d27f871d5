-- Every value-taking function, operator and aggregate has an overload for
-- every type of tools/overloads.py's list (docs/POSTGRESQL.md, "Types with
-- their own overloads"):
--   - the list is what the catalog says PostgreSQL can hash;
--   - each overload is its anyelement sibling with a concrete type;
--   - an exact-type call resolves to the extension's object even with a
--     planted overload of that type in a schema on the search_path after the
--     extension's, and it hashes as the anyelement path did, bit for bit.
SET extra_float_digits = 0;

-- The list against the catalog: every built-in type PostgreSQL can hash (a
-- hash operator class of its own, or of anyrange, anymultirange) with a
-- binary send function, and every built-in type with an implicit cast to one
-- of them (an overload for the target alone would turn the source's calls
-- into a cast and change their hash).  Not listed: arrays (the array
-- functions take an array of every listed type), and the server's own
-- pg_node_tree, pg_ndistinct, pg_dependencies, pg_mcv_list, whose input
-- functions refuse every value.
CREATE TEMP VIEW overload_types AS
SELECT p.proargtypes[1]::regtype AS t
FROM pg_proc p
WHERE p.proname = 'bloom_contains'
  AND p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'bloomfilter')
  AND p.proargtypes[1] <> 'anyelement'::regtype;
CREATE TEMP VIEW hashable_types AS
WITH hashable AS (
  SELECT t.oid FROM pg_type t
  WHERE t.typnamespace = 'pg_catalog'::regnamespace AND t.typtype IN ('b', 'r', 'm')
    AND t.typname !~ '^_' AND t.typsend <> 0
    AND EXISTS (SELECT 1 FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
                WHERE a.amname = 'hash' AND c.opcdefault
                  AND c.opcintype = CASE t.typtype WHEN 'r' THEN 'anyrange'::regtype
                                                   WHEN 'm' THEN 'anymultirange'::regtype
                                                   ELSE t.oid::regtype END))
SELECT oid::regtype AS t FROM hashable
UNION
SELECT c.castsource::regtype FROM pg_cast c JOIN pg_type s ON s.oid = c.castsource
WHERE c.castcontext = 'i' AND c.casttarget IN (SELECT oid FROM hashable)
  AND s.typnamespace = 'pg_catalog'::regnamespace AND s.typname !~ '^_' AND s.typsend <> 0
  AND s.typname NOT IN ('pg_node_tree', 'pg_ndistinct', 'pg_dependencies', 'pg_mcv_list');
SELECT count(*) AS listed_types FROM overload_types;
-- (types newer than the oldest supported major have no overloads: 1.2's
-- script installs on 15; README.md, "PostgreSQL 15, 16, 17, 18 and 19")
SELECT t AS hashable_but_not_listed FROM hashable_types EXCEPT SELECT t FROM overload_types
EXCEPT SELECT to_regtype(n) FROM unnest(ARRAY['oid8', 'regdatabase']) n  -- new in 19
ORDER BY 1;
SELECT t AS listed_but_not_hashable FROM overload_types EXCEPT SELECT t FROM hashable_types ORDER BY 1;

-- Every type has all its objects: bloom_add, bloom_contains,
-- contained_in_bloom, bloom_hash, bloom_add_all, bloom_contains_all,
-- bloom_contains_any, @>, <@ (each other's commutators), both bloom_agg and
-- their transition functions.
CREATE TEMP VIEW ext_procs AS
SELECT p.*, ARRAY(SELECT unnest(p.proargtypes::oid[]::regtype[])) AS args FROM pg_proc p
WHERE p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'bloomfilter');
SELECT count(*) AS types, min(n) AS fewest_objects, max(n) AS most_objects FROM (
  SELECT o.t, (SELECT count(*) FROM ext_procs p
               WHERE (p.proname IN ('bloom_add', 'bloom_contains') AND p.args = ARRAY['bloom', o.t]::regtype[])
                  OR (p.proname = 'contained_in_bloom' AND p.args = ARRAY[o.t, 'bloom']::regtype[])
                  OR (p.proname = 'bloom_hash' AND p.args = ARRAY[o.t, 'int8']::regtype[])
                  OR (p.proname IN ('bloom_add_all', 'bloom_contains_all', 'bloom_contains_any')
                      AND p.args = ARRAY['bloom', (SELECT typarray FROM pg_type WHERE oid = o.t)]::regtype[])
                  OR (p.proname = 'bloom_agg' AND p.args IN (ARRAY[o.t], ARRAY[o.t, 'int8', 'float8']::regtype[]))
                  OR (p.proname = 'bloom_agg_trans' AND p.args = ARRAY['bloom_builder', o.t]::regtype[])
                  OR (p.proname = 'bloom_agg_fixed_trans' AND p.args = ARRAY['bloom', o.t, 'int8', 'float8']::regtype[]))
            + (SELECT count(*) FROM pg_operator op
               WHERE (op.oprname = '@>' AND op.oprleft = 'bloom'::regtype AND op.oprright = o.t
                      AND op.oprcom = (SELECT oid FROM pg_operator WHERE oprname = '<@' AND oprleft = o.t AND oprright = 'bloom'::regtype))
                  OR (op.oprname = '<@' AND op.oprleft = o.t AND op.oprright = 'bloom'::regtype
                      AND op.oprcom = (SELECT oid FROM pg_operator WHERE oprname = '@>' AND oprleft = 'bloom'::regtype AND oprright = o.t)))
            AS n
  FROM overload_types o) s;

-- Each overload is its anyelement (anyarray) sibling with a concrete type:
-- same C function, volatility, strictness, parallel safety, planner support,
-- result, argument names, defaults, aggregate support and comment.
CREATE TEMP VIEW siblings AS
SELECT p.oid AS concrete, s.oid AS sibling
FROM ext_procs p
CROSS JOIN LATERAL (
  SELECT array_agg(CASE WHEN u.i <> v.i THEN u.a WHEN u.a IN (SELECT t FROM overload_types) THEN 'anyelement'::regtype
                        ELSE 'anyarray'::regtype END ORDER BY u.i) AS generic
  FROM unnest(p.args) WITH ORDINALITY u(a, i),
       -- the value: the first argument of a listed type or an array of one
       (SELECT min(i) AS i FROM unnest(p.args) WITH ORDINALITY w(a, i)
        WHERE a IN (SELECT t FROM overload_types)
           OR a IN (SELECT typarray FROM pg_type WHERE oid IN (SELECT t FROM overload_types))) v) g
JOIN ext_procs s ON s.proname = p.proname AND s.args = g.generic
WHERE s.oid <> p.oid;
CREATE TEMP VIEW proc_traits AS
SELECT p.oid, row(p.prosrc, p.probin, p.provolatile, p.proisstrict, p.proparallel, p.prosupport, p.prorettype,
                  p.proargnames, pg_get_expr(p.proargdefaults, 0),
                  (SELECT row(g.aggtranstype, g.aggfinalfn, g.aggcombinefn) FROM pg_aggregate g WHERE g.aggfnoid = p.oid),
                  regexp_replace(obj_description(p.oid, 'pg_proc'), 'bloom_agg\(.*\)', 'bloom_agg(...)'))::text AS traits
FROM ext_procs p;
SELECT p.proname, count(*) AS overloads,
       count(*) FILTER (WHERE a.traits = b.traits) AS like_their_sibling
FROM siblings JOIN proc_traits a ON a.oid = concrete JOIN proc_traits b ON b.oid = sibling
JOIN pg_proc p ON p.oid = concrete
GROUP BY p.proname ORDER BY 1;

\set samples_rows 14
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/tests/samples.sql

-- The anyelement path, called directly: C functions over the extension's own
-- symbols and aggregates over its anyelement transition functions.
CREATE SCHEMA ref;
CREATE FUNCTION ref.hash(anyelement, bigint) RETURNS bigint
    AS '$libdir/bloomfilter', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT;
CREATE FUNCTION ref.add(bloom, anyelement) RETURNS bloom
    AS '$libdir/bloomfilter', 'bloom_add' LANGUAGE C IMMUTABLE;
CREATE FUNCTION ref.contains(bloom, anyelement) RETURNS boolean
    AS '$libdir/bloomfilter', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT;
CREATE FUNCTION ref.add_all(bloom, anyarray) RETURNS bloom
    AS '$libdir/bloomfilter', 'bloom_add_all' LANGUAGE C IMMUTABLE;
CREATE AGGREGATE ref.agg(anyelement) (
    SFUNC = public.bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = public.bloom_agg_final, COMBINEFUNC = public.bloom_agg_combine);
CREATE AGGREGATE ref.agg(anyelement, bigint, float8) (
    SFUNC = public.bloom_agg_fixed_trans, STYPE = bloom, COMBINEFUNC = public.bloom_union_agg_trans);

-- Planted objects: for every type of the list, an object of the same name
-- and exact argument types as each of the extension's, answering wrong
-- (true, 42, NULL), in a schema anyone could create objects in.
CREATE SCHEMA planted;
CREATE FUNCTION planted.step(int4, anyelement) RETURNS int4 LANGUAGE sql AS 'SELECT 0';
CREATE FUNCTION planted.step(int4, anyelement, bigint, float8) RETURNS int4 LANGUAGE sql AS 'SELECT 0';
CREATE FUNCTION planted.nothing(int4) RETURNS bloom LANGUAGE sql AS 'SELECT NULL::bloom';
DO $$
DECLARE
    t regtype;
BEGIN
    FOR t IN SELECT o.t FROM overload_types o LOOP
        EXECUTE format($f$
            CREATE FUNCTION planted.bloom_contains(bloom, %1$s) RETURNS boolean LANGUAGE sql AS 'SELECT true';
            CREATE FUNCTION planted.contained_in_bloom(%1$s, bloom) RETURNS boolean LANGUAGE sql AS 'SELECT true';
            CREATE FUNCTION planted.bloom_add(bloom, %1$s) RETURNS bloom LANGUAGE sql AS 'SELECT NULL::bloom';
            CREATE FUNCTION planted.bloom_hash(%1$s, bigint DEFAULT 0) RETURNS bigint LANGUAGE sql AS 'SELECT 42::bigint';
            CREATE FUNCTION planted.bloom_add_all(bloom, %1$s[]) RETURNS bloom LANGUAGE sql AS 'SELECT NULL::bloom';
            CREATE FUNCTION planted.bloom_contains_all(bloom, %1$s[]) RETURNS boolean LANGUAGE sql AS 'SELECT true';
            CREATE FUNCTION planted.bloom_contains_any(bloom, %1$s[]) RETURNS boolean LANGUAGE sql AS 'SELECT true';
            CREATE FUNCTION planted.yes(bloom, %1$s) RETURNS boolean LANGUAGE sql AS 'SELECT true';
            CREATE FUNCTION planted.yes(%1$s, bloom) RETURNS boolean LANGUAGE sql AS 'SELECT true';
            CREATE OPERATOR planted.@> (LEFTARG = bloom, RIGHTARG = %1$s, FUNCTION = planted.yes);
            CREATE OPERATOR planted.<@ (LEFTARG = %1$s, RIGHTARG = bloom, FUNCTION = planted.yes);
            CREATE AGGREGATE planted.bloom_agg(%1$s) (
                SFUNC = planted.step, STYPE = int4, INITCOND = '0', FINALFUNC = planted.nothing);
            CREATE AGGREGATE planted.bloom_agg(%1$s, bigint, float8) (
                SFUNC = planted.step, STYPE = int4, INITCOND = '0', FINALFUNC = planted.nothing);
            $f$, t);
    END LOOP;
END $$;

-- Every call of a sample column of type t, unqualified, resolved by the
-- session's search_path, against the anyelement path: the checks that do
-- not give the extension's answer.
CREATE FUNCTION calls_not_ours(t regtype) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    col text := (SELECT 'v_' || typname FROM pg_type WHERE oid = t);  -- the sample column
    -- arrays of T built by array_append: ARRAY[v, v] of a type that is itself
    -- an array (oidvector) is a bigger array of its elements from 16 on
    arr text := (SELECT format_type(typarray, NULL) FROM pg_type WHERE oid = t);
    ok boolean[];
    names text[] := ARRAY['bloom_contains', '@>', '<@', 'bloom_add', 'bloom_hash', 'bloom_hash seeded',
                          'bloom_add_all', 'bloom_contains_all', 'bloom_contains_any', 'bloom_agg',
                          'bloom_agg fixed'];
    failed text[] := '{}';
BEGIN
    EXECUTE format($q$
        SELECT ARRAY[
          bool_and(bloom_contains(e, %1$I) IS NOT DISTINCT FROM ref.contains(e, %1$I)),
          bool_and((e @> %1$I) IS NOT DISTINCT FROM ref.contains(e, %1$I)),
          bool_and((%1$I <@ e) IS NOT DISTINCT FROM ref.contains(e, %1$I)),
          bool_and(bloom_add(e, %1$I) IS NOT DISTINCT FROM ref.add(e, %1$I)),
          bool_and(bloom_hash(%1$I) IS NOT DISTINCT FROM ref.hash(%1$I, 0)),
          bool_and(bloom_hash(%1$I, -7::bigint) IS NOT DISTINCT FROM ref.hash(%1$I, -7)),
          bool_and(bloom_add_all(e, array_append(array_append('{}'::%2$s, %1$I), %1$I))
                   IS NOT DISTINCT FROM ref.add_all(e, array_append(array_append('{}'::%2$s, %1$I), %1$I))),
          bool_and(bloom_contains_all(e, array_append('{}'::%2$s, %1$I)) IS NOT DISTINCT FROM ref.contains(e, %1$I)),
          bool_and(bloom_contains_any(e, array_append('{}'::%2$s, %1$I)) IS NOT DISTINCT FROM ref.contains(e, %1$I)),
          bloom_agg(%1$I) IS NOT DISTINCT FROM ref.agg(%1$I) AND bloom_agg(%1$I) IS NOT NULL,
          bloom_agg(%1$I, 100::bigint, 0.01::float8) IS NOT DISTINCT FROM ref.agg(%1$I, 100, 0.01)
            AND bloom_agg(%1$I, 100::bigint, 0.01::float8) IS NOT NULL]
        FROM samples, (SELECT public.bloom_empty(100::bigint) AS e) f$q$, col, arr) INTO ok;
    FOR i IN 1 .. array_length(names, 1) LOOP
        IF ok[i] IS NOT TRUE THEN
            failed := failed || names[i];
        END IF;
    END LOOP;
    RETURN array_to_string(failed, ', ');
END $f$;

-- The planted schema listed after the extension's (last, then between two
-- others): every call is the extension's, and gives the anyelement path's
-- answer, bit for bit.
SET search_path = public, planted;
SELECT t AS type, calls_not_ours(t) FROM overload_types ORDER BY t::text;
SET search_path = app, public, planted, other;
SELECT count(*) AS types, count(*) FILTER (WHERE calls_not_ours(t) = '') AS all_calls_ours FROM overload_types;
-- a domain resolves as its base type, an unknown-typed literal as text: the
-- extension's objects too
CREATE DOMAIN address AS inet;
SELECT bloom_contains(public.bloom_empty(100::bigint), '10.0.0.1'::address) AS domain_value,
       public.bloom_empty(100::bigint) @> '10.0.0.1'::address AS domain_operand,
       bloom_contains(public.bloom_empty(100::bigint), '10.0.0.1') AS unknown_literal,
       public.bloom_empty(100::bigint) @> '10.0.0.1' AS unknown_operand;
-- the control: listed first, the planted objects are found first (every
-- function and operator, as for any name on a search path), so the checks
-- above could see them
SET search_path = planted, public;
SELECT count(*) AS types, count(*) FILTER (WHERE calls_not_ours(t) = 'bloom_contains, @>, <@, bloom_add, bloom_hash, bloom_hash seeded, bloom_add_all, bloom_contains_all, bloom_contains_any, bloom_agg, bloom_agg fixed') AS every_call_planted
FROM overload_types;
RESET search_path;
