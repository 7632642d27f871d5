-- The bloom type: text and binary I/O, casts, equality, hashing, storage.
SET extra_float_digits = 0;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql

-- The byte format, visible in the text form: magic BLOM, version 1,
-- layout 0, hash id 1, nhashes 3, flags, reserved, seed, nbits, bits.
SELECT bloom_empty_mk(64, 3);
SELECT bloom_empty_mk(64, 3, 258);
SELECT bloom_add(bloom_empty_mk(64, 3), 1);

-- text round trip, upper-case hex accepted, output is lower case
SELECT bloom_add(bloom_empty_mk(64, 3), 1)::text::bloom = bloom_add(bloom_empty_mk(64, 3), 1);
SELECT '\X424C4F4D010001030000000000000000000000000000000040000000000000000000000000000000'::bloom;

-- casts: bloom -> bytea is binary coercible, bytea -> bloom validates
SELECT castmethod FROM pg_cast WHERE castsource = 'bloom'::regtype AND casttarget = 'bytea'::regtype;
SELECT castmethod FROM pg_cast WHERE castsource = 'bytea'::regtype AND casttarget = 'bloom'::regtype;
SELECT bloom_add(bloom_empty_mk(64, 3), 1)::bytea;
SELECT bloom_add(bloom_empty_mk(64, 3), 1)::bytea::bloom = bloom_add(bloom_empty_mk(64, 3), 1);
-- binary send is the same bytes
SELECT bloom_send(bloom_add(bloom_empty_mk(64, 3), 1)) = bloom_add(bloom_empty_mk(64, 3), 1)::bytea;
-- ... in a copy of its own: array_send and record_send free what a send
-- function returns (an array or row of filters sent in binary, e.g. to psycopg)
SELECT length(array_send(ARRAY[bloom_empty_mk(64, 3), NULL, bloom_add(bloom_empty_mk(64, 3), 1)])) AS array_send_bytes;

-- storage: external (filters do not compress)
SELECT typstorage, typlen, typalign FROM pg_type WHERE typname = 'bloom';

-- equality: parameters and bits
SELECT bloom_empty_mk(64, 3) = bloom_empty_mk(64, 3) AS same,
       bloom_empty_mk(64, 3) = bloom_empty_mk(64, 4) AS other_k,
       bloom_empty_mk(64, 3) = bloom_empty_mk(128, 3) AS other_m,
       bloom_empty_mk(64, 3) = bloom_empty_mk(64, 3, 1) AS other_seed,
       bloom_empty_mk(64, 3) = bloom_add(bloom_empty_mk(64, 3), 1) AS other_bits,
       bloom_empty_mk(64, 3) <> bloom_add(bloom_empty_mk(64, 3), 1) AS ne;

-- GROUP BY, DISTINCT and UNION use the hash opclass
CREATE TABLE filters (id int, f bloom);
INSERT INTO filters
SELECT g, bloom_add(bloom_empty_mk(256, 4), g % 3) FROM generate_series(1, 9) g;
INSERT INTO filters VALUES (10, NULL);
SELECT bloom_contains(f, 0) AS has0, bloom_contains(f, 1) AS has1, bloom_contains(f, 2) AS has2,
       count(*), sum(id) AS sum_id
FROM filters GROUP BY f ORDER BY 1, 2, 3, 4;
-- DISTINCT by sorting (the btree opclass of 1.1, bloom_ordering) and by hashing
SELECT count(DISTINCT f) FROM filters;
SELECT count(*) FROM (SELECT DISTINCT f FROM filters) d;
SELECT count(*) FROM (SELECT f FROM filters UNION SELECT f FROM filters) u;
SELECT bloom_type_hash(bloom_empty_mk(64, 3)) = bloom_type_hash(bloom_empty_mk(64, 3)),
       bloom_type_hash(bloom_empty_mk(64, 3)) = bloom_type_hash(bloom_empty_mk(64, 4)),
       bloom_type_extended_hash(bloom_empty_mk(64, 3), 0) = bloom_type_extended_hash(bloom_empty_mk(64, 3), 0),
       bloom_type_extended_hash(bloom_empty_mk(64, 3), 0) = bloom_type_extended_hash(bloom_empty_mk(64, 3), 1);
-- a hash join on bloom equality
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT * FROM pg_temp.explain('SELECT count(*) FROM filters a JOIN filters b ON a.f = b.f');
SELECT count(*) FROM filters a JOIN filters b ON a.f = b.f;
RESET enable_mergejoin;
RESET enable_nestloop;

-- COPY text round trip
COPY (SELECT * FROM filters WHERE id <= 3 ORDER BY id) TO STDOUT;
CREATE TABLE filters_copy (LIKE filters);
COPY filters TO '/tmp/bloomfilter_regress_filters.txt';
COPY filters_copy FROM '/tmp/bloomfilter_regress_filters.txt';
SELECT count(*) FROM filters a JOIN filters_copy b ON a.id = b.id AND a.f = b.f;
SELECT count(*) FROM filters_copy WHERE f IS NULL;

-- COPY binary round trip (bloom_send / bloom_recv)
TRUNCATE filters_copy;
COPY filters TO '/tmp/bloomfilter_regress_filters.bin' (FORMAT binary);
COPY filters_copy FROM '/tmp/bloomfilter_regress_filters.bin' (FORMAT binary);
SELECT count(*) FROM filters a JOIN filters_copy b ON a.id = b.id AND a.f = b.f;

-- a large filter is stored out of line and not compressed (STORAGE external)
CREATE TABLE big_filters (id int, f bloom);
INSERT INTO big_filters
SELECT 1, bloom_agg(g::int8, 200000, 0.01) FROM generate_series(1, 20000) g;
INSERT INTO big_filters
SELECT 2, bloom_agg(g::int8, 200000, 0.01) FROM generate_series(20001, 40000) g;
SELECT id, octet_length(f::bytea) AS bytes, pg_column_size(f) AS stored FROM big_filters ORDER BY id;
-- COPY binary of TOASTed filters
CREATE TABLE big_copy (LIKE big_filters);
COPY big_filters TO '/tmp/bloomfilter_regress_big.bin' (FORMAT binary);
COPY big_copy FROM '/tmp/bloomfilter_regress_big.bin' (FORMAT binary);
SELECT count(*) FROM big_filters a JOIN big_copy b USING (id) WHERE a.f = b.f;
-- contains over TOASTed filters: the per-call-site cache must follow the
-- filter as it changes from row to row (members: no false negatives)
CREATE TABLE probe AS SELECT g::int8 AS v FROM generate_series(1, 40000, 97) g;
-- (probe outer, filters inner: the filter alternates from row to row)
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET join_collapse_limit = 1;
-- (no eager aggregation, 19 on: grouping probe by v below the join puts the
-- filters outside, each then kept for many rows in a row)
CALL pg_temp.set_known('{enable_eager_aggregate}', 'off');
SELECT * FROM pg_temp.explain($$
SELECT id, count(*) FROM probe CROSS JOIN big_filters WHERE bloom_contains(f, v) GROUP BY id$$);
SELECT id,
       count(*) FILTER (WHERE (id = 1 AND v <= 20000) OR (id = 2 AND v > 20000)) AS members,
       count(*) FILTER (WHERE NOT ((id = 1 AND v <= 20000) OR (id = 2 AND v > 20000))) AS false_positives
FROM probe CROSS JOIN big_filters WHERE bloom_contains(f, v) GROUP BY id ORDER BY id;
SELECT count(*) FROM probe;
SELECT count(*) FILTER (WHERE v <= 20000) AS in_1, count(*) FILTER (WHERE v > 20000) AS in_2 FROM probe;
RESET enable_hashjoin;
RESET enable_mergejoin;
CALL pg_temp.set_known('{enable_eager_aggregate}', NULL);

-- a filter from bloom_agg is the filter of its parameters with the values added
SELECT bloom_agg(v) AS f FROM (VALUES (1), (2), (2), (NULL)) t(v) \gset
SELECT :'f'::bloom = bloom_add(bloom_add(bloom_empty_mk(i.nbits, i.nhashes), 1), 2) AS rebuilt
FROM bloom_info(:'f') i;
