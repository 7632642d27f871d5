-- A TEXT probe of a filter of numbers: a filter records the kinds of values
-- added to it (header byte 10: 01 number, 02 text beside another kind, 04
-- blob, 08 PostgreSQL-typed; bytes 12..15 that type's OID), and a TEXT probe
-- is read as each kind the filter holds: as text, and as the number it
-- reads as by SQLite's own rule (what a comparison with an INTEGER or REAL
-- column applies).  A filter with no kinds recorded (text only, empty, or
-- written before 1.2) is probed with the text's bytes, as before.
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on

-- ---- what an add records ----
CREATE TABLE built (name TEXT, f BLOB);
INSERT INTO built VALUES
  ('agg integers', (SELECT bloom_agg(value) FROM generate_series(1, 5))),
  ('agg reals', (SELECT bloom_agg(value + 0.5) FROM generate_series(1, 5))),
  ('agg text', (SELECT bloom_agg('k' || value) FROM generate_series(1, 5))),
  ('agg blobs', (SELECT bloom_agg(CAST('k' || value AS BLOB)) FROM generate_series(1, 5))),
  ('agg mixed', (SELECT bloom_agg(v) FROM (SELECT 1 AS v UNION ALL SELECT 'a' UNION ALL SELECT X'01'))),
  ('agg fixed integers', (SELECT bloom_agg(value, 100, 0.01) FROM generate_series(1, 5))),
  ('agg fixed text and real', (SELECT bloom_agg(v, 100, 0.01) FROM (SELECT 'a' AS v UNION ALL SELECT 2.5))),
  ('empty', bloom_empty(100)),
  ('add integer', bloom_add(bloom_empty(100), 42)),
  ('add text', bloom_add(bloom_empty(100), '42')),
  ('add text then integer', bloom_add(bloom_add(bloom_empty(100), 'a'), 42)),
  ('add integer then text', bloom_add(bloom_add(bloom_empty(100), 42), 'a')),
  ('add blob', bloom_add(bloom_empty(100), X'2A')),
  ('add NULL', bloom_add(bloom_empty(100), NULL)),
  ('add_all numbers', bloom_add_all(bloom_empty(100), '[1, 2.5, true]')),
  ('add_all numbers and text', bloom_add_all(bloom_empty(100), '[1, "a"]')),
  ('add_all text', bloom_add_all(bloom_empty(100), '["a", "b"]')),
  ('blocked integer', bloom_add(bloom_empty(100, 0.01, 0, 'blocked'), 42)),
  ('counting integer', bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 42)),
  ('scalable integers', bloom_add_all(bloom_empty(10, 0.01, 0, 'scalable'),
                                      (SELECT json_group_array(value) FROM generate_series(1, 100)))),
  ('union integers and text', bloom_union(bloom_add(bloom_empty(100), 42), bloom_add(bloom_empty(100), 'a'))),
  ('union integers and empty', bloom_union(bloom_add(bloom_empty(100), 42), bloom_empty(100))),
  ('intersect integers and blobs', bloom_intersect(bloom_add(bloom_empty(100), 42), bloom_add(bloom_empty(100), X'2A'))),
  ('union_agg', (SELECT bloom_union_agg(f) FROM (SELECT bloom_add(bloom_empty(100), 42) AS f
                                                 UNION ALL SELECT bloom_add(bloom_empty(100), X'2A')))),
  ('intersect_agg', (SELECT bloom_intersect_agg(f) FROM (SELECT bloom_add(bloom_empty(100), 42) AS f
                                                         UNION ALL SELECT bloom_add(bloom_empty(100), 'a')))),
  ('fold', bloom_fold(bloom_add(bloom_empty_mk(1024, 3), 42), 512)),
  ('remove', bloom_remove(bloom_add(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 42), 'a'), 42)),
  ('to_classic', bloom_to_classic(bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 42)));
SELECT name, hex(substr(f, 11, 6)) AS kinds FROM built ORDER BY rowid;

-- ---- the rule: a TEXT probe of numbers finds what SQLite's comparison finds ----
CREATE TABLE numbers AS
SELECT bloom_agg(v) AS f FROM (SELECT 42 AS v UNION ALL SELECT 10.1 UNION ALL SELECT 1000
                              UNION ALL SELECT -7 UNION ALL SELECT 9223372036854775807
                              UNION ALL SELECT 9223372036854775808.0 UNION ALL SELECT 0.5);
CREATE TABLE col (i INTEGER, r REAL);
INSERT INTO col VALUES (42, 42), (10.1, 10.1), (1000, 1000), (-7, -7), (9223372036854775807, 9223372036854775807),
                       (9223372036854775808.0, 9223372036854775808.0), (0.5, 0.5);
CREATE TABLE probes (p TEXT);
INSERT INTO probes VALUES ('42'), (' 42'), ('42 '), (char(9) || '42' || char(10)), ('+42'), ('0042'), ('42.0'),
  ('4.2e1'), ('1e3'), ('1000.0'), ('10.1'), ('10.10'), ('1.01e1'), ('-7'), ('-7.0'), ('.5'), ('0.50'),
  ('9223372036854775807'), ('9223372036854775808'), ('9.223372036854775808e18'),
  ('42abc'), ('0x2A'), ('4 2'), (''), (' '), ('42' || char(0)), ('42' || char(160)), ('inf'), ('43'), ('10.2');
-- found = what a comparison with an INTEGER or a REAL column finds, probe by probe
SELECT replace(replace(replace(replace(quote(p), char(0), '<NUL>'), char(9), '<TAB>'), char(10), '<LF>'),
               char(160), '<NBSP>') AS probe,
       EXISTS (SELECT 1 FROM col WHERE i = p OR r = p) AS sqlite_finds,
       bloom_contains(f, p) AS filter_finds
FROM probes, numbers ORDER BY probes.rowid;
SELECT count(*) AS probes, sum(bloom_contains(f, p) = EXISTS (SELECT 1 FROM col WHERE i = p OR r = p)) AS agree
FROM probes, numbers;

-- non-text probes are hashed as before: a number is not text, a blob not a number
SELECT bloom_contains(f, 42) AS int42, bloom_contains(f, 42.0) AS real42, bloom_contains(f, X'3432') AS blob_42
FROM numbers;
SELECT bloom_contains(bloom_add(bloom_empty(100), '42'), 42) AS number_in_text,
       bloom_contains(bloom_add(bloom_empty(100), '42'), '42') AS text_in_text,
       bloom_contains(bloom_add(bloom_empty(100), '42'), ' 42') AS spaced_text_in_text;

-- text and numbers in one filter: either reading finds a member
CREATE TABLE mixed AS SELECT bloom_agg(v) AS f FROM (SELECT 42 AS v UNION ALL SELECT 'abc' UNION ALL SELECT ' 7');
SELECT bloom_contains(f, '42') AS n42, bloom_contains(f, 'abc') AS abc, bloom_contains(f, ' 7') AS text_7,
       bloom_contains(f, '7') AS seven, bloom_contains(f, 'abd') AS abd FROM mixed;

-- blobs: SQLite never equates TEXT and BLOB, so a text probe of blobs finds nothing,
-- and a blob probe finds the blob
CREATE TABLE blobs AS SELECT bloom_agg(CAST(v AS BLOB)) AS f FROM (SELECT '42' AS v UNION ALL SELECT 'abc');
SELECT bloom_contains(f, '42') AS text_42, bloom_contains(f, 'abc') AS text_abc,
       bloom_contains(f, X'3432') AS blob_42 FROM blobs;

-- a filter from before 1.2 (byte 10 zero: kinds unknown): text is read as text, as before
CREATE TABLE old AS SELECT CAST(substr(f, 1, 10) || X'00' || substr(f, 12) AS BLOB) AS f FROM numbers;
SELECT hex(substr(f, 11, 1)) AS kinds, bloom_contains(f, 42) AS int42, bloom_contains(f, '42') AS text42 FROM old;
-- and adding a number to it keeps its text readable: 03
SELECT hex(substr(bloom_add(f, 1), 11, 1)) AS kinds, bloom_contains(bloom_add(f, 1), '42') AS text42 FROM old;
-- a union with an old filter: the old one counts as text
SELECT hex(substr(bloom_union(f, (SELECT f FROM numbers)), 11, 1)) AS kinds FROM old;

-- ---- the many-value and stored paths ----
SELECT bloom_contains_all(f, '["42", " 1e3", 10.1]') AS all_numbers,
       bloom_contains_all(f, '["42", "43"]') AS all_one_absent,
       bloom_contains_any(f, '["43", "10.10"]') AS any_one_member,
       bloom_contains_any(f, '["43", "abc"]') AS any_none FROM numbers;
SELECT bloom_contains_all(f, '["42", "abc", " 7"]') AS mixed_all FROM mixed;

CREATE TABLE stored (id INTEGER PRIMARY KEY, what TEXT, f BLOB);
INSERT INTO stored VALUES
  (1, 'integers', (SELECT bloom_agg(value) FROM generate_series(40, 50))),
  (2, 'text', (SELECT bloom_agg('k' || value) FROM generate_series(40, 50))),
  (3, 'text 42', bloom_add(bloom_empty(100), '42')),
  (4, 'mixed', (SELECT f FROM mixed)),
  (5, 'old integers', (SELECT f FROM old)),
  (6, 'blocked reals', bloom_add_all(bloom_empty(100, 0.01, 7, 'blocked'), '[42.0, 10.1]')),
  (7, 'counting', bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 42)),
  (8, 'scalable', bloom_add_all(bloom_empty(10, 0.01, 0, 'scalable'),
                                (SELECT json_group_array(value) FROM generate_series(1, 100)))),
  (9, 'blobs', (SELECT f FROM blobs)),
  (10, 'null', NULL),
  -- 4 kB and more: a stored probe reads the header and a few bytes
  (11, 'large integers', (SELECT bloom_agg(value, 100000, 0.01) FROM generate_series(1, 42)));
CREATE TABLE keys (k);
INSERT INTO keys VALUES ('42'), (' 42 '), ('4.2e1'), ('10.1'), ('abc'), ('k42'), ('7'), (' 7'), ('43'), (42), (X'3432');
-- each probe path's rows, against bloom_contains over the table
CREATE TEMP VIEW answers AS
SELECT quote(k.k) AS probe,
       (SELECT group_concat(id) FROM (SELECT id FROM stored WHERE bloom_contains(f, k.k) ORDER BY id)) AS contains,
       (SELECT group_concat(id) FROM (SELECT id FROM bloom_search('stored', 'f', k.k) ORDER BY id)) AS search
FROM keys k ORDER BY k.rowid;
SELECT * FROM answers;
-- the same with a bloom_bitslice index (bloom_search then reads it), and the index itself
CREATE VIRTUAL TABLE stored_f USING bloom_bitslice(stored, f, max_nbits=1024);
SELECT * FROM answers;
SELECT quote(k.k) AS probe,
       (SELECT group_concat(rowid) FROM (SELECT rowid FROM stored_f WHERE value = k.k ORDER BY rowid)) AS indexed
FROM keys k ORDER BY k.rowid;
SELECT count(*) AS probes, sum(contains IS search) AS agree FROM answers;
-- rows added after the index: pending rows answer the same
INSERT INTO stored VALUES (12, 'integers later', (SELECT bloom_agg(value) FROM generate_series(42, 45))),
                          (13, 'text later', bloom_add(bloom_empty(100), '42'));
SELECT * FROM answers;
SELECT rowid FROM stored_f WHERE value = '42' ORDER BY rowid;
SELECT rowid FROM stored_f WHERE value = '0042' ORDER BY rowid;

-- ---- PostgreSQL-typed values: SQLite cannot read a text probe as them ----
-- a filter of date values from PostgreSQL (kinds 08, type OID 1082 = 0x043A),
-- made here from its bits: the canonical bytes of date '2026-10-25' are 00002642
CREATE TABLE pg AS SELECT CAST(substr(f, 1, 10) || X'08003A040000' || substr(f, 17) AS BLOB) AS f
FROM (SELECT bloom_add(bloom_empty(100), X'00002642') AS f);
SELECT hex(substr(f, 11, 6)) AS kinds, bloom_contains(f, X'00002642') AS blob_member,
       bloom_contains(f, 9794) AS number FROM pg;
SELECT bloom_contains(f, '2026-10-25') FROM pg;
SELECT bloom_contains_any(f, '["2026-10-25"]') FROM pg;
-- typed and number: a number found answers, else the same error
CREATE TABLE pg_mixed AS SELECT bloom_add(f, 42) AS f FROM pg;
SELECT hex(substr(f, 11, 6)) AS kinds, bloom_contains(f, '42') AS text42 FROM pg_mixed;
SELECT bloom_contains(f, '43') FROM pg_mixed;
-- stored: bloom_search and the index fail alike, never a silent miss
CREATE TABLE pg_stored (id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO pg_stored VALUES (1, (SELECT bloom_agg(value) FROM generate_series(1, 10))), (2, (SELECT f FROM pg));
SELECT id FROM bloom_search('pg_stored', 'f', '5');
SELECT id FROM bloom_search('pg_stored', 'f', X'00002642');
CREATE VIRTUAL TABLE pg_stored_f USING bloom_bitslice(pg_stored, f);
SELECT id FROM bloom_search('pg_stored', 'f', '5');
SELECT rowid FROM pg_stored_f WHERE value = '2026-10-25';
SELECT rowid FROM pg_stored_f WHERE value = X'00002642';
SELECT rowid FROM pg_stored_f WHERE value = 5;

-- ---- bytes 10..15 are validated ----
SELECT bloom_contains(CAST(substr(f, 1, 10) || X'10' || substr(f, 12) AS BLOB), 42) FROM numbers;
SELECT bloom_contains(CAST(substr(f, 1, 11) || X'01' || substr(f, 13) AS BLOB), 42) FROM numbers;
SELECT bloom_contains(CAST(substr(f, 1, 10) || X'02' || substr(f, 12) AS BLOB), 42) FROM numbers;
SELECT bloom_contains(CAST(substr(f, 1, 12) || X'3A04' || substr(f, 15) AS BLOB), 42) FROM numbers;
