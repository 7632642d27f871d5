-- The btree operator class: a total order (parameters first, then bits),
-- consistent with = and hashing; UNIQUE, ORDER BY, DISTINCT, min/max and
-- merge joins on bloom columns.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql

-- Filters that differ in one parameter each, and in bits.
CREATE TABLE ord_ordered (name text, f bloom);
INSERT INTO ord_ordered VALUES
  ('blocked 256',        bloom_empty_mk(256, 8, 0, 'blocked')),
  ('k4 m64',             bloom_empty_mk(64, 4)),
  ('k3 m128',            bloom_empty_mk(128, 3)),
  ('k3 m64 seed 1',      bloom_empty_mk(64, 3, 1)),
  ('k3 m64 seed -1',     bloom_empty_mk(64, 3, -1)),
  ('k3 m64 seed 256',    bloom_empty_mk(64, 3, 256)),
  ('k3 m64 +1',          bloom_add(bloom_empty_mk(64, 3), 1)),
  ('k3 m64 +2',          bloom_add(bloom_empty_mk(64, 3), 2)),
  ('k3 m64 empty',       bloom_empty_mk(64, 3)),
  ('k3 m64 +1+2',        bloom_add(bloom_add(bloom_empty_mk(64, 3), 1), 2));

-- The documented order: layout, nhashes, seed (signed), nbits, then the
-- bit array byte by byte.
SELECT name, f::bytea AS bytes FROM ord_ordered ORDER BY f;
SELECT name FROM ord_ordered ORDER BY f DESC;

-- Every pair: cmp is antisymmetric, 0 exactly when =, the operators agree
-- with cmp, and equal filters hash alike.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE bloom_cmp(a.f, b.f) <> -bloom_cmp(b.f, a.f)) AS not_antisymmetric,
       count(*) FILTER (WHERE (bloom_cmp(a.f, b.f) = 0) <> (a.f = b.f)) AS cmp_vs_eq,
       count(*) FILTER (WHERE (a.f < b.f) <> (bloom_cmp(a.f, b.f) < 0)
                           OR (a.f <= b.f) <> (bloom_cmp(a.f, b.f) <= 0)
                           OR (a.f > b.f) <> (bloom_cmp(a.f, b.f) > 0)
                           OR (a.f >= b.f) <> (bloom_cmp(a.f, b.f) >= 0)) AS ops_vs_cmp,
       count(*) FILTER (WHERE a.f = b.f AND bloom_type_hash(a.f) <> bloom_type_hash(b.f)) AS hash_vs_eq
FROM ord_ordered a, ord_ordered b;
-- transitivity over every triple
SELECT count(*) AS not_transitive
FROM ord_ordered a, ord_ordered b, ord_ordered c
WHERE a.f < b.f AND b.f < c.f AND NOT a.f < c.f;

-- The catalog: the default btree opclass, and = can merge.
SELECT opcname, opcdefault FROM pg_opclass
WHERE opcintype = 'bloom'::regtype AND opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree');
SELECT oprcanmerge, oprcanhash FROM pg_operator WHERE oid = '=(bloom,bloom)'::regoperator;

-- UNIQUE: a second equal filter is refused; a different one is not.
CREATE TABLE ord_unique_filters (id int, f bloom UNIQUE);
INSERT INTO ord_unique_filters VALUES (1, bloom_add(bloom_empty(100), 'a'));
INSERT INTO ord_unique_filters VALUES (2, bloom_add(bloom_empty(100), 'b'));
INSERT INTO ord_unique_filters VALUES (3, bloom_add(bloom_empty(100), 'a'));
SELECT id FROM ord_unique_filters ORDER BY f;

-- ORDER BY is stable: the same order by sort and by index scan.
CREATE TABLE ord_many AS
  SELECT g AS id, (SELECT bloom_agg(x, 200, 0.01) FROM generate_series(g % 7, g % 7 + g % 5) x) AS f
  FROM generate_series(1, 200) g;
CREATE TABLE ord_sorted AS SELECT row_number() OVER (ORDER BY f, id) AS pos, id FROM ord_many;
CREATE INDEX ord_many_f ON ord_many (f);
-- VACUUM: every page all-visible on every major (19 also sets the
-- visibility map as it reads, which makes index-only scans cheaper)
VACUUM ANALYZE ord_many;
SET enable_seqscan = off;
SET enable_sort = off;
SELECT * FROM pg_temp.explain('SELECT id FROM ord_many ORDER BY f, id');
SELECT count(*) AS differs
FROM (SELECT row_number() OVER (ORDER BY f, id) AS pos, id FROM ord_many) s JOIN ord_sorted USING (pos)
WHERE s.id <> ord_sorted.id;
RESET enable_seqscan;
RESET enable_sort;

-- DISTINCT and GROUP BY by sorting (hash aggregation off): 35 distinct filters.
SET enable_hashagg = off;
SELECT count(DISTINCT f) AS distinct_filters, count(*) AS rows FROM ord_many;
SELECT count(*) AS groups FROM (SELECT f FROM ord_many GROUP BY f) g;
RESET enable_hashagg;

-- min and max follow the order, and an index answers them.
SELECT (SELECT name FROM ord_ordered WHERE f = (SELECT min(f) FROM ord_ordered)) AS min_name,
       (SELECT name FROM ord_ordered WHERE f = (SELECT max(f) FROM ord_ordered)) AS max_name;
SELECT min(f) = (SELECT f FROM ord_many ORDER BY f LIMIT 1) AS min_ok,
       max(f) = (SELECT f FROM ord_many ORDER BY f DESC LIMIT 1) AS max_ok FROM ord_many;
SELECT * FROM pg_temp.explain('SELECT min(f) FROM ord_many');
SELECT min(f) IS NULL AS no_rows FROM ord_many WHERE false;

-- Merge join on a bloom column, of inputs sorted in the bloom order (not
-- read from the index: index-only scans cost less than sorts from 19).
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SELECT * FROM pg_temp.explain('SELECT count(*) FROM ord_many a JOIN ord_many b ON a.f = b.f');
SELECT count(*) AS joined FROM ord_many a JOIN ord_many b ON a.f = b.f;
RESET enable_hashjoin;
RESET enable_nestloop;
RESET enable_indexscan;
RESET enable_indexonlyscan;
SELECT count(*) AS joined_by_hash FROM ord_many a JOIN ord_many b ON a.f = b.f;

-- Large filters stored out of line (1 MB: compared slice by slice) and
-- compressed in line (detoasted once): the same answers as in memory.
CREATE TABLE ord_big (name text, f bloom);
INSERT INTO ord_big VALUES
  ('empty',    bloom_empty_mk(8000000, 3)),
  ('empty 2',  bloom_empty_mk(8000000, 3)),
  ('with x',   bloom_add(bloom_empty_mk(8000000, 3), 'x')),
  ('with y',   bloom_add(bloom_empty_mk(8000000, 3), 'y'));
SELECT a.name, b.name, bloom_cmp(a.f, b.f), a.f = b.f AS eq,
       bloom_cmp(a.f, b.f) = bloom_cmp(a.f::bytea::bloom, b.f::bytea::bloom) AS same_in_memory
FROM ord_big a, ord_big b WHERE a.name < b.name ORDER BY 1, 2;
CREATE TABLE ord_big_compressed (name text, f bloom);
ALTER TABLE ord_big_compressed ALTER COLUMN f SET STORAGE main;
INSERT INTO ord_big_compressed SELECT * FROM ord_big;
SELECT a.name, bloom_cmp(a.f, b.f) AS compressed_vs_external
FROM ord_big_compressed a JOIN ord_big b USING (name) ORDER BY 1;
SELECT name FROM ord_big_compressed ORDER BY f, name;

DROP TABLE ord_ordered, ord_unique_filters, ord_many, ord_sorted, ord_big, ord_big_compressed;
