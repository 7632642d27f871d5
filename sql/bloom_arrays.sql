-- bloom_add_all, bloom_contains_all, bloom_contains_any: many values in one
-- call, each element hashed as bloom_add hashes it alone.

-- the same filter as one bloom_add per element, for several element types
SELECT bloom_add_all(bloom_empty(100), ARRAY[1, 2, 3])
     = bloom_add(bloom_add(bloom_add(bloom_empty(100), 1), 2), 3) AS int4;
SELECT bloom_add_all(bloom_empty(100, 0.01, 7, 'blocked'), ARRAY['a', 'bc', ''])
     = bloom_add(bloom_add(bloom_add(bloom_empty(100, 0.01, 7, 'blocked'), 'a'::text), 'bc'::text), ''::text) AS text_blocked_seeded;
SELECT bloom_add_all(bloom_empty(100), ARRAY['2026-11-22'::date, '2000-01-01'])
     = bloom_add(bloom_add(bloom_empty(100), '2026-11-22'::date), '2000-01-01'::date) AS date_send;
-- canonical hashing per element: 5 in an int8[], a float8[] and a numeric[]
-- is the same member as the int4 5
SELECT bloom_add_all(bloom_empty(100), ARRAY[5::int8, 6]) = bloom_add_all(bloom_empty(100), ARRAY[5.0::float8, 6.0])
   AND bloom_add_all(bloom_empty(100), ARRAY[5::int8, 6]) = bloom_add_all(bloom_empty(100), ARRAY[5.000::numeric, 6])
   AND bloom_add_all(bloom_empty(100), ARRAY[5::int8, 6]) = bloom_add(bloom_add(bloom_empty(100), 5), 6) AS canonical;
-- char(n) elements without trailing blanks, as bloom_add hashes them
SELECT bloom_add_all(bloom_empty(100), ARRAY['ab'::char(5)]) = bloom_add(bloom_empty(100), 'ab'::text) AS bpchar;
-- a domain over int hashes as int; an array of a domain matches the array
-- overloads of several types (1.2: int4[], int8[], numeric[], ...), so it
-- is passed as an array of its base type, which hashes the same
CREATE DOMAIN small_id AS int CHECK (VALUE > 0);
SELECT bloom_add_all(bloom_empty(100), ARRAY[3::small_id, 4::small_id]::int[]) = bloom_add_all(bloom_empty(100), ARRAY[3, 4]) AS domain;
-- (terse: 19 splits the ambiguity message into a detail and a hint)
\set VERBOSITY terse
SELECT bloom_add_all(bloom_empty(100), ARRAY[3::small_id, 4::small_id]);
\set VERBOSITY default
DROP DOMAIN small_id;

-- an array is not one value: today's bloom_add(f, ARRAY[...]) hashes the
-- whole array, bloom_add_all its elements
SELECT bloom_contains(bloom_add_all(bloom_empty(100), ARRAY[1, 2]), 1) AS elem_added,
       bloom_contains(bloom_add(bloom_empty(100), ARRAY[1, 2]), 1) AS whole_array_is_not_elem;

-- multi-dimensional arrays are read in storage order, as unnest() reads them
SELECT bloom_add_all(bloom_empty(100), ARRAY[[1, 2], [3, 4]]) = bloom_add_all(bloom_empty(100), ARRAY[1, 2, 3, 4]) AS flattened;
-- non-default lower bounds do not matter
SELECT bloom_add_all(bloom_empty(100), '[5:7]={7,8,9}'::int[]) = bloom_add_all(bloom_empty(100), ARRAY[7, 8, 9]) AS lower_bound;

-- NULLs: a NULL element or a NULL array adds nothing; a NULL filter stays NULL
SELECT bloom_add_all(bloom_empty(100), ARRAY[1, NULL, 2]) = bloom_add_all(bloom_empty(100), ARRAY[1, 2]) AS null_elem,
       bloom_add_all(bloom_add(bloom_empty(100), 9), NULL::int[]) = bloom_add(bloom_empty(100), 9) AS null_array,
       bloom_add_all(NULL, ARRAY[1]) IS NULL AS null_filter,
       bloom_add_all(bloom_empty(100), '{}'::int[]) = bloom_empty(100) AS empty_array;

-- the argument is not modified
CREATE TABLE arr_f AS SELECT bloom_add(bloom_empty(100), 1) AS f;
SELECT bloom_add_all(f, ARRAY[2, 3]) <> f AS changed FROM arr_f;
SELECT bloom_info(f) = bloom_info(bloom_add(bloom_empty(100), 1)) AS unmodified FROM arr_f;
DROP TABLE arr_f;

-- contains_all / contains_any: SQL's ALL / ANY logic over the answers
-- (a 10,000-bit filter of 1..3: 100 and 200 are absent in it)
CREATE TABLE arr_probe AS SELECT bloom_add_all(bloom_empty_mk(10000, 7), ARRAY[1, 2, 3]) AS f;
SELECT bloom_contains(f, 100) AS has_100, bloom_contains(f, 200) AS has_200 FROM arr_probe;
SELECT a AS vals, bloom_contains_all(f, a) AS all_, bloom_contains_any(f, a) AS any_
FROM arr_probe, (VALUES ('{1,2,3}'::int[]), ('{1,100}'), ('{100,200}'), ('{}'),
                        ('{1,NULL}'), ('{100,NULL}'), ('{NULL}'), ('{{1,2},{3,100}}')) v(a)
ORDER BY 1;
SELECT bloom_contains_all(f, NULL::int[]) IS NULL AS all_null_array,
       bloom_contains_any(f, NULL::int[]) IS NULL AS any_null_array FROM arr_probe;
-- probes hash like bloom_contains: float8 1.0 and 2.0, numeric 3 find the ints
SELECT bloom_contains_all(f, ARRAY[1.0::float8, 2.0]) AS float8,
       bloom_contains_all(f, ARRAY[3::numeric]) AS numeric FROM arr_probe;

-- a stored, TOASTed filter probed per row agrees with bloom_contains
CREATE TABLE arr_big AS SELECT bloom_agg(g, 100000, 0.01) AS f FROM generate_series(1, 50000, 2) g;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE bloom_contains_all(f, ARRAY[g, g + 2]) IS DISTINCT FROM (bloom_contains(f, g) AND bloom_contains(f, g + 2))) AS all_differs,
       count(*) FILTER (WHERE bloom_contains_any(f, ARRAY[g, g + 1]) IS DISTINCT FROM (bloom_contains(f, g) OR bloom_contains(f, g + 1))) AS any_differs
FROM arr_big, generate_series(1, 2000) g;
-- arrays longer than a batch (batches of 8, 16, ... 256 elements end after
-- 8, 24, 56, 120, 248, 504 elements): the one deciding element at a batch's
-- end or start or nowhere (place = len), a NULL before it, after it or none
CREATE TABLE arr_long AS
SELECT len, place, nullat,
       array_agg(CASE WHEN i = nullat THEN NULL WHEN i = place THEN 2 * i ELSE 2 * i + 1 END ORDER BY i) AS members_but_one,
       array_agg(CASE WHEN i = nullat THEN NULL WHEN i = place THEN 2 * i + 1 ELSE 2 * i END ORDER BY i) AS absent_but_one
FROM (VALUES (1), (8), (9), (24), (25), (256), (505), (600)) l(len),
     (VALUES (0), (7), (8), (23), (24), (55), (56), (247), (248), (503), (504), (599), (600)) p(place),
     (VALUES (-1), (3), (300)) n(nullat),
     generate_series(0, len - 1) i
WHERE place <= len OR place = 600
GROUP BY len, place, nullat;
SELECT count(*) AS arrays,
       count(*) FILTER (WHERE bloom_contains_all(f, members_but_one) IS DISTINCT FROM
           (SELECT CASE WHEN bool_or(NOT c) THEN false WHEN bool_or(c IS NULL) THEN NULL ELSE true END
            FROM (SELECT bloom_contains(f, e) AS c FROM unnest(members_but_one) e) s)) AS all_differs,
       count(*) FILTER (WHERE bloom_contains_any(f, absent_but_one) IS DISTINCT FROM
           (SELECT CASE WHEN bool_or(c) THEN true WHEN bool_or(c IS NULL) THEN NULL ELSE false END
            FROM (SELECT bloom_contains(f, e) AS c FROM unnest(absent_but_one) e) s)) AS any_differs,
       count(*) FILTER (WHERE NOT bloom_contains_all(f, members_but_one)) AS all_false,
       count(*) FILTER (WHERE bloom_contains_all(f, members_but_one) IS NULL) AS all_null,
       count(*) FILTER (WHERE bloom_contains_any(f, absent_but_one)) AS any_true,
       count(*) FILTER (WHERE bloom_contains_any(f, absent_but_one) IS NULL) AS any_null
FROM arr_big, arr_long;
DROP TABLE arr_long;
-- the aggregate and bloom_add_all agree
SELECT bloom_add_all(bloom_empty(1000, 0.01), array_agg(g)) = bloom_agg(g, 1000, 0.01) AS agg
FROM generate_series(1, 700) g;
DROP TABLE arr_probe, arr_big;

-- an untyped literal or NULL (which matches every array overload alike)
-- reads as text[]; a NULL adds nothing, as a NULL value does
SELECT bloom_add_all(bloom_empty(100), NULL) = bloom_empty(100) AS null_adds_nothing,
       bloom_add_all(bloom_empty(100), '{a,b,NULL}') = bloom_add_all(bloom_empty(100), ARRAY['a', 'b']) AS literal_is_text,
       bloom_contains_all(bloom_add_all(bloom_empty(100), ARRAY['1', '2']), '{1,2}') AS contains_all,
       bloom_contains_any(bloom_add_all(bloom_empty(100), ARRAY['1', '2']), '{7,2}') AS contains_any,
       bloom_contains_any(bloom_empty(100), '{7,8}') AS none_of_empty,
       bloom_contains_all(bloom_empty(100), NULL) IS NULL AS all_of_null,
       bloom_contains_any(bloom_empty(100), NULL) IS NULL AS any_of_null;
-- a typed array keeps its overload: the literal cast to int4[] hashes as ints
SELECT bloom_add_all(bloom_empty(100), '{1,2}'::int4[]) = bloom_add_all(bloom_empty(100), ARRAY[1, 2]) AS cast_literal,
       bloom_add_all(bloom_empty(100), ARRAY[1, 2]) = bloom_add(bloom_add(bloom_empty(100), 1), 2) AS typed_array;

-- errors
\set VERBOSITY terse
SELECT bloom_add_all(bloom_empty(10), 'x');
SELECT bloom_add_all(bloom_empty(10), 'x'::text);
\set VERBOSITY default
SELECT bloom_contains_all('\x00'::bytea::bloom, ARRAY[1]);
