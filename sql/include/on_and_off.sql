\set ECHO none
-- pg_temp.on_and_off(setting, q): query q with the boolean setting on, then
-- off (for this transaction; on again after): both plans as EXPLAIN (COSTS
-- OFF) prints them, the count of rows with it on, and whether both runs
-- return the same rows.  For the tests of a planner feature that must never
-- change a result; a test loads it as sql/include/majors.sql says.
CREATE FUNCTION pg_temp.on_and_off(setting text, q text)
RETURNS TABLE (plan_on text, plan_off text, row_count int, same bool)
LANGUAGE plpgsql AS $fn$
DECLARE
    line text;
    rows_on text[];
    rows_off text[];
BEGIN
    plan_on := '';
    plan_off := '';
    PERFORM set_config(setting, 'on', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan_on := plan_on || line || E'\n';
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_on;
    PERFORM set_config(setting, 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan_off := plan_off || line || E'\n';
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_off;
    PERFORM set_config(setting, 'on', true);
    row_count := coalesce(cardinality(rows_on), 0);
    same := rows_on IS NOT DISTINCT FROM rows_off;
    RETURN NEXT;
END
$fn$;

\set ECHO all
