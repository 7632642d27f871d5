\set ECHO none
-- pg_temp.stored_probes(): how many stored filters this backend probed
-- piecewise, from their TOAST chunks (pg/stored_probe.c), through a
-- test-only entry point that is no object of the extension.  A test loads
-- it as sql/include/majors.sql says.
CREATE FUNCTION pg_temp.stored_probes() RETURNS bigint
    AS '$libdir/bloomfilter', 'bloom_debug_stored_probes' LANGUAGE C STRICT;

\set ECHO all
