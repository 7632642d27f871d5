-- sqlstate_of(query): the error query raises, as its SQLSTATE and message,
-- or 'no error'.  Not the detail: it may count what depends on how the rows
-- were split (the bits set where a union was refused).  Included by
-- sql/bloom_saturation_plans.sql, tests/pg_fmgr/sql/fmgr_calls.sql and
-- tests/citus/setup.sql.
CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $fn$
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
END
$fn$;
