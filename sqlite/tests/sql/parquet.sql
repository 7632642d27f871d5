-- Parquet interchange: a blocked filter with seed 0 is a Parquet
-- split-block bitset plus a header.
.load build/bloomfilter
.headers on
.echo on
CREATE TABLE p AS
WITH RECURSIVE f(i, b) AS (SELECT 0, bloom_empty(100, 0.01, 0, 'blocked')
                           UNION ALL SELECT i + 1, bloom_add(b, i + 1) FROM f WHERE i < 100)
SELECT b FROM f WHERE i = 100;
SELECT length(b) AS filter_bytes, length(bloom_to_parquet(b)) AS bitset_bytes,
       bloom_to_parquet(b) = substr(b, 33) AS bitset_is_the_bits FROM p;
-- the same filter, but for the kinds of its values (header bytes 10..15), which a
-- Parquet bitset does not hold: 0, kinds unknown
SELECT bloom_from_parquet(bloom_to_parquet(b)) = CAST(substr(b, 1, 10) || zeroblob(6) || substr(b, 17) AS BLOB) AS round_trip,
       hex(substr(b, 11, 6)) AS kinds, hex(substr(bloom_from_parquet(bloom_to_parquet(b)), 11, 6)) AS parquet_kinds
FROM p;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 100)
SELECT sum(bloom_contains(bloom_from_parquet(bloom_to_parquet(b)), v)) AS members FROM p, s;
-- A bitset read from elsewhere: 32 zero bytes are one empty block.
SELECT hex(bloom_from_parquet(zeroblob(32)));
SELECT bloom_info(bloom_from_parquet(zeroblob(64)));
-- One value in one block sets one bit in each of the eight 32-bit words.
SELECT hex(bloom_to_parquet(bloom_add(bloom_from_parquet(zeroblob(32)), 'parquet'))) AS block;
