\set ECHO none
-- The runtime filter tests' check (sql/bloom_runtime_filter*.sql), loaded
-- after sql/include/on_and_off.sql, as majors.sql says.
--
-- pg_temp.same_on_off(setting, q, marker, never_off): q with the boolean
-- setting on and off: whether the plan on shows marker (and the plan off
-- never shows never_off), how many rows, and the same rows.
CREATE FUNCTION pg_temp.same_on_off(setting text, q text, marker text, never_off text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    SELECT * INTO r FROM pg_temp.on_and_off(setting, q);
    IF strpos(r.plan_off, never_off) > 0 THEN
        RAISE EXCEPTION '"%" with % off: %', never_off, setting, r.plan_off;
    END IF;
    RETURN QUERY SELECT strpos(r.plan_on, marker) > 0, r.row_count, r.same;
END $$;

-- pg_temp.rf_same_on_off(q, marker): q with bloomfilter.runtime_filter on
-- and off: whether the plan on shows marker (and the plan off no runtime
-- filter at all), how many rows, and the same rows.
CREATE FUNCTION pg_temp.rf_same_on_off(q text, marker text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE sql AS $$
    SELECT * FROM pg_temp.same_on_off('bloomfilter.runtime_filter', q, marker, 'Runtime Filter')
$$;
\set ECHO all
