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

-- The coordinator's side: partial states (text) through the state type's
-- input function and the combine function, then the final function.
CREATE FUNCTION fmgr_combine_agg_sfunc(internal, regprocedure, text) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION fmgr_combine_agg_ffunc(internal) RETURNS text
    AS 'MODULE_PATHNAME' LANGUAGE C PARALLEL SAFE;
CREATE AGGREGATE fmgr_combine_agg(regprocedure, text) (
    SFUNC = fmgr_combine_agg_sfunc, STYPE = internal, FINALFUNC = fmgr_combine_agg_ffunc
);
