-- Canonical hashing: the SQL value decides the member, not its storage
-- class (docs/HASHING.md).
.load build/bloomfilter
.headers on
.echo on
-- Pinned hashes: these values are the cross-engine contract; a change here
-- changes the meaning of every stored filter.
SELECT bloom_hash(0) AS zero, bloom_hash(5) AS five, bloom_hash('a') AS a, bloom_hash(X'') AS empty_blob;
SELECT bloom_hash(5, 1) AS seeded, bloom_hash(5, -1) AS seed_minus_one, bloom_hash(0.5) AS half;

-- INTEGER and integral REAL are one value; -0.0 is 0.
SELECT bloom_hash(5) = bloom_hash(5.0) AS int_real, bloom_hash(0) = bloom_hash(-0.0) AS neg_zero,
       bloom_hash(-7) = bloom_hash(-7.0) AS negative, bloom_hash(1e15) = bloom_hash(1000000000000000) AS big;
-- 2^53 + 1 is not a double: the REAL nearest is 2^53.
SELECT bloom_hash(9007199254740993) = bloom_hash(9007199254740993.0) AS not_exact,
       bloom_hash(9007199254740992) = bloom_hash(9007199254740993.0) AS nearest;
SELECT bloom_hash(9223372036854775807) = bloom_hash(9223372036854775807.0) AS int64_max_vs_2p63;
SELECT bloom_hash(-9223372036854775808) = bloom_hash(-9223372036854775808.0) AS int64_min;
-- Non-integral reals are their IEEE-754 bits.
SELECT bloom_hash(0.5) = bloom_hash(0.50) AS same_real, bloom_hash(0.1) = bloom_hash(0.2) AS different;
-- Infinities hash (as their bits); SQLite has no NaN value to pass.
SELECT bloom_hash(9e999) = bloom_hash(9e999) AS inf, bloom_hash(9e999) = bloom_hash(-9e999) AS neg_inf;

-- TEXT is its UTF-8 bytes: the blob of those bytes is the same member,
-- and text '5' is not the number 5.
SELECT bloom_hash('a') = bloom_hash(X'61') AS text_blob, bloom_hash('5') = bloom_hash(5) AS text_number;
SELECT bloom_hash('é') = bloom_hash(X'C3A9') AS utf8, bloom_hash('') = bloom_hash(X'') AS empty;
-- Bytes after a NUL count: 'a' || NUL || 'b' is three bytes.
SELECT length(CAST('a' || char(0) || 'b' AS BLOB)) AS nbytes,
       bloom_hash('a' || char(0) || 'b') = bloom_hash(X'610062') AS with_nul,
       bloom_hash('a' || char(0) || 'b') = bloom_hash('a') AS truncated;

-- The same equivalences hold for membership; a TEXT probe of a filter that
-- holds numbers is also read as a number, so '5' finds 5 (text_probes.sql).
CREATE TABLE f AS SELECT bloom_add(bloom_add(bloom_add(bloom_empty(100), 5), 'a'), 0.25) AS b;
SELECT bloom_contains(b, 5.0) AS real5, bloom_contains(b, X'61') AS blob_a, bloom_contains(b, 0.25) AS quarter,
       bloom_contains(b, '5') AS text5, bloom_contains(b, 'A') AS upper_a FROM f;
-- Type affinity of a column does not change the member: '5' stored in an
-- INTEGER column is the integer 5.
CREATE TABLE typed (i INTEGER, r REAL, t TEXT);
INSERT INTO typed VALUES ('5', 5, 5);
SELECT typeof(i), typeof(r), typeof(t), bloom_contains(b, i) AS i, bloom_contains(b, r) AS r,
       bloom_contains(b, t) AS t FROM typed, f;

-- A filter's seed is the seed of its hashes.
SELECT bloom_contains(bloom_add(bloom_empty(100, 0.01, 42), 5), 5) AS seeded_member,
       hex(bloom_add(bloom_empty(100, 0.01, 42), 5)) = hex(bloom_add(bloom_empty(100, 0.01, 0), 5)) AS same_bits;
