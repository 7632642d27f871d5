\set ECHO none
-- The runtime filter tests' check (sql/bloom_runtime_filter*.sql), loaded
-- after sql/include/on_and_off.sql, as majors.sql says.
--
-- pg_temp.rf_same_on_off(q, marker): q with bloomfilter.runtime_filter on
-- and off: whether the plan on shows marker (and the plan off no runtime
-- filter at all), how many rows, and the same rows.
CREATE FUNCTION pg_temp.rf_same_on_off(q text, marker text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    SELECT * INTO r FROM pg_temp.on_and_off('bloomfilter.runtime_filter', q);
    IF r.plan_off LIKE '%Runtime Filter%' THEN
        RAISE EXCEPTION 'a filter with bloomfilter.runtime_filter off: %', r.plan_off;
    END IF;
    RETURN QUERY SELECT strpos(r.plan_on, marker) > 0, r.row_count, r.same;
END $$;
\set ECHO all
