\set ECHO none
-- What differs between the PostgreSQL majors (pg/majors) for the tests: one
-- expected output per test serves every major.  A test loads it with
--     \getenv abs_srcdir PG_ABS_SRCDIR
--     \i :abs_srcdir/sql/include/majors.sql
-- (pg_regress feeds a test to psql on stdin, so \ir would look in the
-- build directory, not beside the test).  Not a test itself: pg/pg.mk runs
-- sql/*.sql only.

-- pg_temp.explain(query, options): the plan of query as EXPLAIN (COSTS OFF,
-- options) prints it, with what the majors print differently written one
-- way.  With ANALYZE, TIMING, SUMMARY and BUFFERS are off (BUFFERS is on by
-- default from 18).  Rewritten:
--   InitPlan and SubPlan names: "InitPlan 1 (returns $0)" (15, 16),
--     "InitPlan 1" (17, 18) and "InitPlan expr_1" (19, numbered per kind)
--     become "InitPlan N", N counting the InitPlan and SubPlan headers in
--     the order printed; references to their results, "$0" (15, 16) and
--     "(InitPlan expr_1).col1" (19), become "(InitPlan N).col1".  Remote
--     SQL lines keep their "$1": those are the remote query's parameters.
--   Actual rows: 18 prints two decimals ("rows=2.50"), the others round to
--     an integer as printf's %.0f does (half to even): "rows=2".
-- Removed: lines that only some majors print: "Params Evaluated" of a
-- Gather (15, 16), "Disabled: true" (18: the node was disabled, e.g. a Seq
-- Scan under enable_seqscan = off), "Index Searches" (18, with ANALYZE),
-- "Replaces: MinMaxAggregate" (19).
-- Not handled: an ANY or ALL sublink prints as "(hashed SubPlan 2)" before
-- 17 and "(ANY (x = (hashed SubPlan 2).col1))" after; plans that show one
-- need more here.
CREATE FUNCTION pg_temp.explain(query text, options text DEFAULT '')
RETURNS TABLE ("QUERY PLAN" text) LANGUAGE plpgsql AS $fn$
DECLARE
    opts text := 'COSTS OFF';
    lines text[] := '{}';
    line text;
    plans text[] := '{}';       -- 'InitPlan expr_1', ...: index = canonical number
    params text[] := '{}';      -- 15, 16: '$0', ... returned by an InitPlan
    param_refs text[] := '{}';  -- and its canonical reference
    m text[];
    p text;
    i int;
    rounded numeric;
BEGIN
    IF options <> '' THEN
        opts := opts || ', ' || options;
    END IF;
    IF options ~* '\manalyze\M' THEN
        opts := opts || ', TIMING OFF, SUMMARY OFF, BUFFERS OFF';
    END IF;
    FOR line IN EXECUTE format('EXPLAIN (%s) %s', opts, query) LOOP
        lines := lines || line;
    END LOOP;

    -- the InitPlan and SubPlan headers, in the order printed
    FOREACH line IN ARRAY lines LOOP
        m := regexp_match(line, '^\s*(InitPlan|SubPlan) ([a-z_]*[0-9]+)(?: \(returns (.*)\))?$');
        CONTINUE WHEN m IS NULL;
        plans := plans || (m[1] || ' ' || m[2]);
        i := 1;
        FOREACH p IN ARRAY coalesce(string_to_array(m[3], ','), '{}') LOOP
            params := params || p;
            param_refs := param_refs || format('(InitPlan #%s#).col%s', cardinality(plans), i);
            i := i + 1;
        END LOOP;
    END LOOP;

    FOREACH line IN ARRAY lines LOOP
        CONTINUE WHEN line ~ '^\s*(Params Evaluated: |Disabled: true$|Index Searches: |Replaces: )';
        IF line !~ '^\s*Remote SQL: ' THEN
            line := regexp_replace(line, '^(\s*(?:InitPlan|SubPlan) [a-z_]*[0-9]+) \(returns .*\)$', '\1');
            -- through "#N#" markers, so that no name is rewritten twice
            FOR i IN 1 .. cardinality(plans) LOOP
                line := regexp_replace(line, '\m' || plans[i] || '\M',
                                       split_part(plans[i], ' ', 1) || ' #' || i || '#', 'g');
            END LOOP;
            FOR i IN 1 .. cardinality(params) LOOP
                line := regexp_replace(line, '\' || params[i] || '\M', param_refs[i], 'g');
            END LOOP;
            line := regexp_replace(line, '(InitPlan|SubPlan) #([0-9]+)#', '\1 \2', 'g');
        END IF;
        LOOP
            m := regexp_match(line, 'rows=([0-9]+)\.([0-9]{2})');
            EXIT WHEN m IS NULL;
            rounded := round((m[1] || '.' || m[2])::numeric);
            IF m[2] = '50' AND m[1]::numeric % 2 = 0 THEN
                rounded := m[1]::numeric;
            END IF;
            line := regexp_replace(line, 'rows=[0-9]+\.[0-9]{2}', 'rows=' || rounded);
        END LOOP;
        "QUERY PLAN" := line;
        RETURN NEXT;
    END LOOP;
END
$fn$;

-- pg_temp.set_known(names, value): set, for the session, the first of
-- these settings this major has (value NULL: reset it); none: nothing.  For
-- a setting renamed (force_parallel_mode, 15; debug_parallel_query, 16 on)
-- or that only some majors have (enable_eager_aggregate, 19 on).
CREATE PROCEDURE pg_temp.set_known(names text[], value text)
LANGUAGE plpgsql AS $fn$
DECLARE
    known text;
BEGIN
    SELECT name INTO known FROM pg_settings WHERE name = ANY (names)
    ORDER BY array_position(names, name) LIMIT 1;
    IF known IS NULL THEN
        RETURN;
    ELSIF value IS NULL THEN
        EXECUTE format('RESET %I', known);
    ELSE
        PERFORM set_config(known, value, false);
    END IF;
END
$fn$;

\set ECHO all
