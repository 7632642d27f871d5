\set ECHO none
-- pg_temp.error_of(query): the error query raises, as its SQLSTATE, message
-- and detail ("SQLSTATE message | detail"), or 'no error'.  For the tests
-- of error paths; a test loads it as sql/include/majors.sql says.  (Without
-- the detail, for tests whose detail depends on how rows were split:
-- tests/sqlstate_of.sql.)
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    detail text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ' ' || SQLERRM || coalesce(' | ' || nullif(detail, ''), '');
END
$fn$;

\set ECHO all
