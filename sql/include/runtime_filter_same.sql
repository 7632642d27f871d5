\set ECHO none
-- The runtime filter tests' check (sql/bloom_runtime_filter*.sql), loaded as
-- majors.sql is (\i :abs_srcdir/sql/include/runtime_filter_same.sql).
--
-- pg_temp.rf_same_on_off(q, marker): q with bloomfilter.runtime_filter on
-- and off: whether the plan on shows marker (and the plan off no runtime
-- filter at all), how many rows, and the same rows (sorted as text).
CREATE FUNCTION pg_temp.rf_same_on_off(q text, marker text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan_on text := '';
    plan_off text := '';
    rows_on text[];
    rows_off text[];
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter', 'on', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan_on := plan_on || line || E'\n';
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_on;
    PERFORM set_config('bloomfilter.runtime_filter', 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan_off := plan_off || line || E'\n';
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_off;
    PERFORM set_config('bloomfilter.runtime_filter', 'on', true);
    IF plan_off LIKE '%Runtime Filter%' THEN
        RAISE EXCEPTION 'a filter with bloomfilter.runtime_filter off: %', plan_off;
    END IF;
    RETURN QUERY SELECT strpos(plan_on, marker) > 0, coalesce(cardinality(rows_on), 0),
                        rows_on IS NOT DISTINCT FROM rows_off;
END $$;
\set ECHO all
