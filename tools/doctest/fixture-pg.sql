-- The data the examples of README.md and docs/*.md run against in PostgreSQL
-- (tools/doctest.py; tools/doctest/fixture-sqlite.sql is the same data for
-- SQLite).  Small, deterministic, and shaped like the examples expect:
--   customers (id, country, segment, vip)          1,000 rows
--   orders    (id, customer_id, amount, ordered_at) 20,000 rows, customer ids 1..2,000
--   visits    (day, user_id)                       14 days from 2026-10-25, 100 to 750 users a day
--   small     (k, region), big (k, v)              a Bloom join: 2,000 keys, 50,000 rows
--   sales     (id, customer_id, amount)            the remote table of the postgres_fdw recipe
-- No table holds a filter: the examples build their own (daily, key_filters, filters).
-- This is `make psql`'s database (tools/psql.sh) and the one every PostgreSQL
-- example of the docs runs in, in order (tools/doctest.py): a table an
-- example creates is not made here.
CREATE EXTENSION IF NOT EXISTS bloomfilter;

CREATE TABLE customers (id bigint PRIMARY KEY, country text NOT NULL, segment text NOT NULL,
                        vip boolean NOT NULL);
INSERT INTO customers
SELECT i, (ARRAY['NO', 'NZ', 'SE', 'US', 'DE'])[i % 5 + 1],
       CASE WHEN i % 3 = 0 THEN 'enterprise' ELSE 'smb' END, i % 50 = 0
FROM generate_series(1, 1000) i;

CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL, amount numeric NOT NULL,
                     ordered_at date NOT NULL);
INSERT INTO orders
SELECT i, i * 7919 % 2000 + 1, (i * 31 % 1000) / 10.0, date '2023-01-01' + i % 730
FROM generate_series(1, 20000) i;

-- Every day has a different number of distinct users (100 to 750): each
-- day's bloom_agg(user_id) is sized differently, and the README's
-- bloom_union_agg over days must combine them.
CREATE TABLE visits (day date NOT NULL, user_id bigint NOT NULL);
INSERT INTO visits
SELECT date '2026-10-25' + d, d * 37 + j
FROM generate_series(0, 13) d, generate_series(0, 99 + 50 * d) j;

CREATE TABLE small (k bigint PRIMARY KEY, region text NOT NULL);
INSERT INTO small
SELECT i * 25, (ARRAY['north', 'south', 'east', 'west'])[i % 4 + 1]
FROM generate_series(1, 2000) i;

CREATE TABLE big (k bigint NOT NULL, v text NOT NULL);
INSERT INTO big SELECT i, 'row ' || i FROM generate_series(1, 50000) i;

CREATE TABLE sales (id bigint PRIMARY KEY, customer_id bigint NOT NULL, amount numeric NOT NULL);
INSERT INTO sales SELECT i, i * 13 % 1500 + 1, (i * 17 % 500) / 10.0 FROM generate_series(1, 10000) i;

ANALYZE;
