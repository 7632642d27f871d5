-- Test only (tests/pg_fmgr): an aggregate's transition function called as
-- Citus calls it (fmgr_info per row, no call expression); the result is the
-- state's text form, as a Citus worker sends it to the coordinator.
\echo Use "CREATE EXTENSION bloomfilter_fmgr_test" to load this file. \quit

CREATE FUNCTION fmgr_partial_agg_sfunc(internal, regprocedure, anyelement) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION fmgr_partial_agg_sfunc(internal, regprocedure, anyelement, int8, float8) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION fmgr_partial_agg_ffunc(internal) RETURNS text
    AS 'MODULE_PATHNAME' LANGUAGE C PARALLEL SAFE;
CREATE AGGREGATE fmgr_partial_agg(regprocedure, anyelement) (
    SFUNC = fmgr_partial_agg_sfunc, STYPE = internal, FINALFUNC = fmgr_partial_agg_ffunc
);
CREATE AGGREGATE fmgr_partial_agg(regprocedure, anyelement, int8, float8) (
    SFUNC = fmgr_partial_agg_sfunc, STYPE = internal, FINALFUNC = fmgr_partial_agg_ffunc
);
