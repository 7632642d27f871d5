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
SELECT t AS hashable_but_not_listed FROM hashable_types EXCEPT SELECT t FROM overload_types ORDER BY 1;
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

-- BEGIN generated by tools/overloads.py: samples
CREATE TABLE samples AS
SELECT g,
       CASE WHEN g % 13 <> 0 THEN g % 2 = 0 END AS v_bool,
       CASE WHEN g % 13 <> 0 THEN (g % 30000)::int2 END AS v_int2,
       CASE WHEN g % 13 <> 0 THEN g::int4 END AS v_int4,
       CASE WHEN g % 13 <> 0 THEN g::int8 * 1000003 END AS v_int8,
       CASE WHEN g % 13 <> 0 THEN (g * 7)::oid END AS v_oid,
       CASE WHEN g % 13 <> 0 THEN (g / 4.0)::float4 END AS v_float4,
       CASE WHEN g % 13 <> 0 THEN (g / 3.0)::float8 END AS v_float8,
       CASE WHEN g % 13 <> 0 THEN (g / 8.0)::numeric END AS v_numeric,
       CASE WHEN g % 13 <> 0 THEN 'key ' || g END AS v_text,
       CASE WHEN g % 13 <> 0 THEN ('key ' || g)::varchar END AS v_varchar,
       CASE WHEN g % 13 <> 0 THEN ('k' || g)::char(12) END AS v_bpchar,
       CASE WHEN g % 13 <> 0 THEN ('key ' || g)::name END AS v_name,
       CASE WHEN g % 13 <> 0 THEN chr(33 + g % 94)::"char" END AS v_char,
       CASE WHEN g % 13 <> 0 THEN decode(md5(g::text), 'hex') END AS v_bytea,
       CASE WHEN g % 13 <> 0 THEN md5(g::text)::uuid END AS v_uuid,
       CASE WHEN g % 13 <> 0 THEN date '2000-01-01' + g END AS v_date,
       CASE WHEN g % 13 <> 0 THEN time '00:00' + g * interval '1 second' END AS v_time,
       CASE WHEN g % 13 <> 0 THEN timetz '00:00+02' + g * interval '1 second' END AS v_timetz,
       CASE WHEN g % 13 <> 0 THEN timestamp '2020-01-01' + g * interval '1 minute' END AS v_timestamp,
       CASE WHEN g % 13 <> 0 THEN timestamptz '2020-01-01 00:00+00' + g * interval '1 second' END AS v_timestamptz,
       CASE WHEN g % 13 <> 0 THEN g * interval '1 minute' END AS v_interval,
       CASE WHEN g % 13 <> 0 THEN ('10.' || g / 65536 % 256 || '.' || g / 256 % 256 || '.' || g % 256)::inet END AS v_inet,
       CASE WHEN g % 13 <> 0 THEN ('10.' || g / 256 % 256 || '.' || g % 256 || '.0/24')::cidr END AS v_cidr,
       CASE WHEN g % 13 <> 0 THEN lpad(to_hex(g), 12, '0')::macaddr END AS v_macaddr,
       CASE WHEN g % 13 <> 0 THEN lpad(to_hex(g), 16, '0')::macaddr8 END AS v_macaddr8,
       CASE WHEN g % 13 <> 0 THEN jsonb_build_object('k', g) END AS v_jsonb,
       CASE WHEN g % 13 <> 0 THEN ('0/' || to_hex(g * 16))::pg_lsn END AS v_pg_lsn,
       CASE WHEN g % 13 <> 0 THEN g::text::xid END AS v_xid,
       CASE WHEN g % 13 <> 0 THEN g::text::xid8 END AS v_xid8,
       CASE WHEN g % 13 <> 0 THEN g::text::cid END AS v_cid,
       CASE WHEN g % 13 <> 0 THEN ('(' || g / 100 || ',' || g % 100 || ')')::tid END AS v_tid,
       CASE WHEN g % 13 <> 0 THEN (g || ' ' || g + 1)::oidvector END AS v_oidvector,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regproc END AS v_regproc,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regprocedure END AS v_regprocedure,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regoper END AS v_regoper,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regoperator END AS v_regoperator,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regclass END AS v_regclass,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regtype END AS v_regtype,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regrole END AS v_regrole,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regnamespace END AS v_regnamespace,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regconfig END AS v_regconfig,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regdictionary END AS v_regdictionary,
       CASE WHEN g % 13 <> 0 THEN (3000000000 + g)::oid::regcollation END AS v_regcollation,
       CASE WHEN g % 13 <> 0 THEN int4range(g, g + 10) END AS v_int4range,
       CASE WHEN g % 13 <> 0 THEN int8range(g, g * 3 + 1) END AS v_int8range,
       CASE WHEN g % 13 <> 0 THEN numrange(g / 8.0, g / 4.0 + 1) END AS v_numrange,
       CASE WHEN g % 13 <> 0 THEN daterange(date '2000-01-01' + g, date '2000-01-08' + 2 * g) END AS v_daterange,
       CASE WHEN g % 13 <> 0 THEN tsrange(timestamp '2020-01-01' + g * interval '1 minute', timestamp '2020-01-02' + g * interval '2 minute') END AS v_tsrange,
       CASE WHEN g % 13 <> 0 THEN tstzrange(timestamptz '2020-01-01 00:00+00' + g * interval '1 second', timestamptz '2020-01-02 00:00+00' + g * interval '1 minute') END AS v_tstzrange,
       CASE WHEN g % 13 <> 0 THEN int4multirange(int4range(g, g + 10), int4range(g + 20, g + 30)) END AS v_int4multirange,
       CASE WHEN g % 13 <> 0 THEN int8multirange(int8range(g, g * 3 + 1)) END AS v_int8multirange,
       CASE WHEN g % 13 <> 0 THEN nummultirange(numrange(g / 8.0, g / 4.0 + 1)) END AS v_nummultirange,
       CASE WHEN g % 13 <> 0 THEN datemultirange(daterange(date '2000-01-01' + g, date '2000-01-08' + 2 * g)) END AS v_datemultirange,
       CASE WHEN g % 13 <> 0 THEN tsmultirange(tsrange(timestamp '2020-01-01' + g * interval '1 minute', timestamp '2020-01-02' + g * interval '2 minute')) END AS v_tsmultirange,
       CASE WHEN g % 13 <> 0 THEN tstzmultirange(tstzrange(timestamptz '2020-01-01 00:00+00' + g * interval '1 second', timestamptz '2020-01-02 00:00+00' + g * interval '1 minute')) END AS v_tstzmultirange
FROM generate_series(1, 14) g;
-- END generated by tools/overloads.py: samples

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
          bool_and(bloom_add_all(e, ARRAY[%1$I, %1$I]) IS NOT DISTINCT FROM ref.add_all(e, ARRAY[%1$I, %1$I])),
          bool_and(bloom_contains_all(e, ARRAY[%1$I]) IS NOT DISTINCT FROM ref.contains(e, %1$I)),
          bool_and(bloom_contains_any(e, ARRAY[%1$I]) IS NOT DISTINCT FROM ref.contains(e, %1$I)),
          bloom_agg(%1$I) IS NOT DISTINCT FROM ref.agg(%1$I) AND bloom_agg(%1$I) IS NOT NULL,
          bloom_agg(%1$I, 100::bigint, 0.01::float8) IS NOT DISTINCT FROM ref.agg(%1$I, 100, 0.01)
            AND bloom_agg(%1$I, 100::bigint, 0.01::float8) IS NOT NULL]
        FROM samples, (SELECT public.bloom_empty(100::bigint) AS e) f$q$, col) INTO ok;
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
