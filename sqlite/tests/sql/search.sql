-- bloom_search(table, column, value [, schema]): the rowids whose stored
-- filter may contain value, each read in the bytes a probe needs; the same
-- answers as WHERE bloom_contains(f, value) over the table.
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on
-- 24 filters of 5 to 126 kB (4 kB pages, so overflow chains): classic 1..12, blocked 13..24, each
-- with its own seed; even ids hold integers, odd ids text, the values g with
-- g % 6 = id % 6; and rows with no filter.
CREATE TABLE stored (id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO stored
SELECT d.value,
       bloom_add_all(bloom_empty(4000 * d.value, 0.01, d.value * 1000003,
                                 CASE WHEN d.value <= 12 THEN 'classic' ELSE 'blocked' END),
                     (SELECT json_group_array(CASE WHEN d.value % 2 = 0 THEN g.value ELSE 'k' || g.value END)
                      FROM generate_series(0, 1999) g WHERE g.value % 6 = d.value % 6))
FROM generate_series(1, 24) d;
INSERT INTO stored VALUES (25, NULL), (26, NULL);
SELECT json_extract(bloom_info(f), '$.layout') AS layout, count(*) AS filters,
       min(length(f)) AS smallest, max(length(f)) AS largest
FROM stored WHERE f IS NOT NULL GROUP BY 1 ORDER BY 1;

-- Probes of every kind of key: integers, integral reals (the same members
-- as integers), other reals, text, blobs.
CREATE TABLE probes AS
SELECT value * 7 AS v FROM generate_series(0, 299)
UNION ALL SELECT value * 7.0 FROM generate_series(0, 299)
UNION ALL SELECT value * 7 + 0.5 FROM generate_series(0, 299)
UNION ALL SELECT 'k' || (value * 7) FROM generate_series(0, 299)
UNION ALL SELECT CAST('k' || (value * 7) AS BLOB) FROM generate_series(0, 299);
CREATE TABLE plain AS SELECT p.rowid AS probe, s.id FROM probes p, stored s WHERE bloom_contains(s.f, p.v);
CREATE TABLE searched AS SELECT p.rowid AS probe, b.id FROM probes p, bloom_search('stored', 'f', p.v) b;
SELECT typeof(p.v) AS key, count(*) AS found,
       sum(s.id % 2 = 0 AND typeof(p.v) IN ('integer', 'real') AND p.v = CAST(p.v AS INTEGER)
           AND p.v % 6 = s.id % 6 AND p.v < 2000) AS members_found,
       sum(s.id % 2 = 1 AND typeof(p.v) = 'text' AND CAST(substr(p.v, 2) AS INTEGER) % 6 = s.id % 6
           AND CAST(substr(p.v, 2) AS INTEGER) < 2000) AS text_members_found
FROM searched x JOIN probes p ON p.rowid = x.probe JOIN stored s ON s.id = x.id
GROUP BY 1 ORDER BY 1;
-- every member is found: integers (and integral reals) in even ids, text in odd ids
SELECT (SELECT count(*) FROM probes p, stored s
        WHERE s.id <= 24 AND s.id % 2 = 0 AND typeof(p.v) IN ('integer', 'real')
          AND p.v = CAST(p.v AS INTEGER) AND p.v % 6 = s.id % 6 AND p.v < 2000) AS int_members,
       (SELECT count(*) FROM probes p, stored s
        WHERE s.id <= 24 AND s.id % 2 = 1 AND typeof(p.v) = 'text'
          AND CAST(substr(p.v, 2) AS INTEGER) % 6 = s.id % 6
          AND CAST(substr(p.v, 2) AS INTEGER) < 2000) AS text_members;
-- identical to the plain probe, pair for pair
SELECT (SELECT count(*) FROM plain) AS plain, (SELECT count(*) FROM searched) AS searched,
       (SELECT count(*) FROM (SELECT * FROM plain EXCEPT SELECT * FROM searched)) AS only_plain,
       (SELECT count(*) FROM (SELECT * FROM searched EXCEPT SELECT * FROM plain)) AS only_searched;

-- The arguments are columns too; the schema is optional.
SELECT id, table_name, column_name, value, schema_name FROM bloom_search('stored', 'f', 42, 'main');
ATTACH ':memory:' AS other;
CREATE TABLE other.kept AS SELECT bloom_add(bloom_empty(10), 'x') AS f;
SELECT id FROM bloom_search('kept', 'f', 'x', 'other');
-- Identifiers are quoted: any name works.
CREATE TABLE "odd ""name""" ("a ""col""" BLOB);
INSERT INTO "odd ""name""" VALUES (bloom_add(bloom_empty(10), 5)), (bloom_empty(10)), (NULL);
SELECT id FROM bloom_search('odd "name"', 'a "col"', 5);
-- Statements that change the table they search (SQLite reads the IN list first).
CREATE TABLE copy AS SELECT * FROM stored;
UPDATE copy SET f = bloom_add(f, 'changed') WHERE id IN (SELECT id FROM bloom_search('copy', 'f', 42));
SELECT group_concat(id) AS changed FROM copy WHERE bloom_contains(f, 'changed');
DELETE FROM copy WHERE id IN (SELECT id FROM bloom_search('copy', 'f', 42));
SELECT count(*) AS left_after_delete FROM copy;
-- NULL is never a member: no rows.
SELECT count(*) AS none FROM bloom_search('stored', 'f', NULL);

-- Errors.
SELECT * FROM bloom_search('stored', 'f');
SELECT * FROM bloom_search(NULL, 'f', 1);
SELECT * FROM bloom_search('stored', 1, 1);
SELECT * FROM bloom_search('stored', 'f', 1, NULL);
SELECT * FROM bloom_search('nosuch', 'f', 1);
SELECT * FROM bloom_search('stored', 'nosuch', 1);
SELECT * FROM bloom_search('kept', 'f', 'x', 'nosuch');
CREATE TABLE bad (f);
INSERT INTO bad VALUES (NULL), ('text');
SELECT * FROM bloom_search('bad', 'f', 1);
UPDATE bad SET f = X'00010203' WHERE f = 'text';
SELECT * FROM bloom_search('bad', 'f', 1);
-- a header that claims more bits than the value holds
UPDATE bad SET f = substr(bloom_empty(1000), 1, 64) WHERE f IS NOT NULL;
SELECT * FROM bloom_search('bad', 'f', 1);
CREATE TABLE norowid (k INTEGER PRIMARY KEY, f BLOB) WITHOUT ROWID;
SELECT * FROM bloom_search('norowid', 'f', 1);
-- Filters on both sides of the size read whole with the row (8 KiB): the
-- same answers as bloom_contains, small ones from their row, larger ones in
-- the bytes a probe needs.
CREATE TABLE sizes (id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO sizes
SELECT value, bloom_add_all(bloom_empty(value * 50, 0.01, 0, CASE WHEN value % 2 = 0 THEN 'classic' ELSE 'blocked' END),
                            (SELECT json_group_array(g.value * 3 + s.value % 3) FROM generate_series(0, 99) g))
FROM generate_series(1, 300) s;
SELECT sum(length(f) <= 8192) AS whole, sum(length(f) > 8192) AS in_slices FROM sizes;
SELECT count(*) AS probes,
       sum((SELECT group_concat(id) FROM (SELECT id FROM sizes WHERE bloom_contains(f, p.value) ORDER BY id)) IS
           (SELECT group_concat(id) FROM (SELECT id FROM bloom_search('sizes', 'f', p.value) ORDER BY id))) AS same
FROM generate_series(0, 400) p;
DROP TABLE sizes;
