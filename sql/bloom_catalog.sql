-- What \dx+ bloomfilter lists, and the naming rule for internals
-- (docs/POSTGRESQL.md, "Naming"): an object users never call by name ends in
-- the job it does (_in, _out, _recv, _send: type I/O; _trans, _final,
-- _combine: aggregate support; _support: planner support; and, named as
-- PostgreSQL names its own, the hash opclass's bloom_type_hash and
-- bloom_type_extended_hash and min/max's bloom_smaller and bloom_larger),
-- and its comment starts with "internal:" and says what it supports.
-- (The array types PostgreSQL makes for bloom and bloom_builder are members
-- from 17 on, implied before: left out, so every major counts alike.)
CREATE TEMP VIEW members AS
SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'bloomfilter' AND d.deptype = 'e'
  AND NOT (d.classid = 'pg_type'::regclass
           AND EXISTS (SELECT FROM pg_type t WHERE t.oid = d.objid AND t.typelem <> 0));

-- the objects by kind
SELECT CASE WHEN m.classid = 'pg_proc'::regclass THEN
            CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'function' END
            ELSE (pg_identify_object(m.classid, m.objid, 0)).type END AS kind,
       count(*)
FROM members m LEFT JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
GROUP BY 1 ORDER BY 2 DESC, 1;
SELECT count(*) AS dx_plus_lists FROM members;

-- every function, aggregate, operator and type says what it is
SELECT pg_describe_object(classid, objid, 0) AS without_comment FROM members
WHERE classid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass)
  AND obj_description(objid, classid::regclass::name) IS NULL
ORDER BY 1;

-- internals by the rule: named as one, commented as one, and nothing else
CREATE TEMP VIEW functions AS
SELECT p.oid::regprocedure AS f, p.proname,
       p.proname ~ '_(in|out|recv|send|trans|final|combine|support)$'
         OR p.proname IN ('bloom_type_hash', 'bloom_type_extended_hash', 'bloom_smaller', 'bloom_larger') AS internal_name,
       coalesce(obj_description(p.oid, 'pg_proc') LIKE 'internal: %', false) AS internal_comment
FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid;
SELECT substring(proname from '_[a-z]+$') AS internal_suffix, count(*)
FROM functions WHERE internal_name AND internal_comment GROUP BY 1 ORDER BY 1;
SELECT f AS named_or_commented_internal_but_not_both FROM functions
WHERE internal_name <> internal_comment ORDER BY f::text;
SELECT count(*) FILTER (WHERE NOT internal_name) AS user_functions_and_aggregates,
       count(*) FILTER (WHERE internal_name) AS internal_functions
FROM functions;
