-- bloom_add_all, bloom_contains_all, bloom_contains_any over a JSON array:
-- each element hashed as bloom_add hashes that value alone.
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on
-- the same filter as one bloom_add per element
SELECT bloom_add_all(bloom_empty(100), '[1, 2, 3]')
     = bloom_add(bloom_add(bloom_add(bloom_empty(100), 1), 2), 3) AS integers;
SELECT bloom_add_all(bloom_empty(100, 0.01, 7, 'blocked'), '["a", "bc", ""]')
     = bloom_add(bloom_add(bloom_add(bloom_empty(100, 0.01, 7, 'blocked'), 'a'), 'bc'), '') AS text_blocked_seeded;
-- JSON numbers: integers as integers, reals as doubles (5.0 is 5, 2.5 is 2.5);
-- strings unescaped to UTF-8 text; true and false as 1 and 0
SELECT bloom_add_all(bloom_empty(100), '[5.0, 2.5, 1e2]')
     = bloom_add(bloom_add(bloom_add(bloom_empty(100), 5), 2.5), 100) AS reals;
SELECT bloom_add_all(bloom_empty(100), '["caf\u00e9", "tab\there"]')
     = bloom_add(bloom_add(bloom_empty(100), 'café'), 'tab' || char(9) || 'here') AS escapes;
SELECT bloom_add_all(bloom_empty(100), '[true, false]')
     = bloom_add(bloom_add(bloom_empty(100), 1), 0) AS booleans;
SELECT bloom_add_all(bloom_empty(100), '[9223372036854775807, -9223372036854775808]')
     = bloom_add(bloom_add(bloom_empty(100), 9223372036854775807), -9223372036854775808) AS int64_limits;
-- an array is not one value: bloom_add(f, '[1,2]') adds the text
SELECT bloom_contains(bloom_add_all(bloom_empty(100), '[1, 2]'), 1) AS elem_added,
       bloom_contains(bloom_add(bloom_empty(100), '[1, 2]'), 1) AS text_is_not_elem;
-- NULLs: a null element or a NULL array adds nothing; a NULL filter stays NULL
SELECT bloom_add_all(bloom_empty(100), '[1, null, 2]') = bloom_add_all(bloom_empty(100), '[1, 2]') AS null_elem,
       bloom_add_all(bloom_add(bloom_empty(100), 9), NULL) = bloom_add(bloom_empty(100), 9) AS null_array,
       bloom_add_all(NULL, '[1]') AS null_filter,
       bloom_add_all(bloom_empty(100), '[]') = bloom_empty(100) AS empty_array;
-- contains_all / contains_any: SQL's ALL / ANY logic (100 and 200 absent)
CREATE TABLE probe AS SELECT bloom_add_all(bloom_empty_mk(10000, 7), '[1, 2, 3]') AS f;
SELECT bloom_contains(f, 100) AS has_100, bloom_contains(f, 200) AS has_200 FROM probe;
SELECT v AS vals, bloom_contains_all(f, v) AS all_, bloom_contains_any(f, v) AS any_
FROM probe, (SELECT column1 AS v FROM (VALUES ('[1,2,3]'), ('[1,100]'), ('[100,200]'), ('[]'),
                                             ('[1,null]'), ('[100,null]'), ('[null]'), ('[1.0,"x"]')))
ORDER BY 1;
SELECT bloom_contains_all(f, NULL) AS all_null_array, bloom_contains_any(f, NULL) AS any_null_array FROM probe;
-- a stored filter probed per row agrees with bloom_contains
CREATE TABLE big AS WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 2 FROM g WHERE x < 49999)
SELECT bloom_agg(x, 100000, 0.01) AS f FROM g;
WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 2000)
SELECT count(*) AS rows,
       sum(bloom_contains_all(f, json_array(x, x + 2)) IS NOT (bloom_contains(f, x) AND bloom_contains(f, x + 2))) AS all_differs,
       sum(bloom_contains_any(f, json_array(x, x + 1)) IS NOT (bloom_contains(f, x) OR bloom_contains(f, x + 1))) AS any_differs
FROM big, g;
-- the aggregate and bloom_add_all agree
WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 700)
SELECT bloom_add_all(bloom_empty(1000, 0.01), (SELECT json_group_array(x) FROM g))
     = (SELECT bloom_agg(x, 1000, 0.01) FROM g) AS agg;
-- errors
SELECT bloom_add_all(bloom_empty(100), '[1,');
SELECT bloom_contains_any(bloom_empty(100), '{"a": 1}');
SELECT bloom_contains_all(bloom_empty(100), '5');
SELECT bloom_add_all(bloom_empty(100), '[1, [2]]');
SELECT bloom_add_all(bloom_empty(100), '[1, {"a": 2}]');
SELECT bloom_add_all(bloom_empty(100), x'5b315d');
SELECT bloom_contains_all(bloom_empty(100), 5);
SELECT bloom_add_all(x'00', '[1]');
