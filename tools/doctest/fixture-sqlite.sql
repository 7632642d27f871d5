-- The data the examples of README.md and docs/*.md run against in SQLite
-- (tools/doctest.py; tools/doctest/fixture-pg.sql is the same data for
-- PostgreSQL, where the tables are described).  Dates are ISO text.
CREATE TABLE customers (id INTEGER PRIMARY KEY, country TEXT NOT NULL, segment TEXT NOT NULL,
                        vip INTEGER NOT NULL);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
INSERT INTO customers
SELECT i, CASE i % 5 WHEN 0 THEN 'NO' WHEN 1 THEN 'NZ' WHEN 2 THEN 'SE' WHEN 3 THEN 'US' ELSE 'DE' END,
       CASE WHEN i % 3 = 0 THEN 'enterprise' ELSE 'smb' END, i % 50 = 0
FROM s;

CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount REAL NOT NULL,
                     ordered_at TEXT NOT NULL);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000)
INSERT INTO orders
SELECT i, i * 7919 % 2000 + 1, (i * 31 % 1000) / 10.0, date('2023-01-01', '+' || (i % 730) || ' days')
FROM s;

CREATE TABLE visits (day TEXT NOT NULL, user_id INTEGER NOT NULL);
WITH RECURSIVE d(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM d WHERE d < 13),
     j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j WHERE j < 749)
INSERT INTO visits
SELECT date('2026-10-25', '+' || d || ' days'), d * 37 + j FROM d, j WHERE j <= 99 + 50 * d;

CREATE TABLE small (k INTEGER PRIMARY KEY, region TEXT NOT NULL);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000)
INSERT INTO small
SELECT i * 25, CASE i % 4 WHEN 0 THEN 'north' WHEN 1 THEN 'south' WHEN 2 THEN 'east' ELSE 'west' END
FROM s;

CREATE TABLE big (k INTEGER NOT NULL, v TEXT NOT NULL);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 50000)
INSERT INTO big SELECT i, 'row ' || i FROM s;

CREATE TABLE sales (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount REAL NOT NULL);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10000)
INSERT INTO sales SELECT i, i * 13 % 1500 + 1, (i * 17 % 500) / 10.0 FROM s;

ANALYZE;
