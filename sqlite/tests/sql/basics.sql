-- Constructors, membership, combining and estimates on small filters whose
-- bytes can be read in full.
.load build/bloomfilter
.headers on
.echo on
SELECT bloom_version();

-- The header of an empty filter, field by field: magic 'BLOM', version 1,
-- layout 0, hash id 1, nhashes 3, flags and reserved zero, seed 0x0102
-- little-endian, nbits 64 little-endian, then one zero word of bits.
SELECT hex(bloom_empty_mk(64, 3, 258));
SELECT length(bloom_empty_mk(65, 3)) AS two_words, length(bloom_empty_mk(1, 1)) AS one_bit;
-- A negative seed is the same 64 bits as its unsigned value.
SELECT hex(substr(bloom_empty_mk(64, 3, -2), 17, 8)) AS seed_bytes;
SELECT hex(bloom_empty_mk(256, 8, 0, 'blocked')) = hex(bloom_empty_mk(256, 8, 0, 'BLOCKED')) AS case_insensitive;
SELECT substr(hex(bloom_empty_mk(256, 8, 0, 'blocked')), 1, 64) AS blocked_header;

-- Sizing: classic m = ceil(-n ln p / ln(2)^2), k = round(m/n ln 2).
SELECT json_extract(bloom_info(bloom_empty(1000)), '$.nbits') AS nbits_default_fpr,
       json_extract(bloom_info(bloom_empty(1000)), '$.nhashes') AS nhashes;
SELECT json_extract(bloom_info(bloom_empty(1000, 0.001)), '$.nbits') AS nbits,
       json_extract(bloom_info(bloom_empty(1000, 0.001)), '$.nhashes') AS nhashes;
SELECT bloom_info(bloom_empty(1000, 0.01, 7, 'blocked'));
-- An integral REAL is an integer argument.
SELECT bloom_empty(1000.0) = bloom_empty(1000) AS real_capacity;

-- Membership: added values are present, others (here) absent.
CREATE TABLE f AS SELECT bloom_add(bloom_add(bloom_add(bloom_empty(100), 1), 'two'), X'03') AS b;
SELECT bloom_contains(b, 1) AS one, bloom_contains(b, 'two') AS two, bloom_contains(b, X'03') AS three,
       bloom_contains(b, 4) AS four, bloom_contains(b, 'one') AS text_one FROM f;
-- Adding a present value returns the same bytes.
SELECT bloom_add(b, 1) = b AS unchanged, bloom_add(b, 5) = b AS changed FROM f;
-- The exact bits of one value in a 64-bit filter.
SELECT hex(substr(bloom_add(bloom_empty_mk(64, 3), 1), 33)) AS bits_of_1;
SELECT bloom_info(b) FROM f;

-- Union and intersection of filters holding 1..20 and 11..30.
CREATE TABLE ab AS
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 30)
SELECT (SELECT bloom_agg(v, 100, 0.01) FROM s WHERE v <= 20) AS a,
       (SELECT bloom_agg(v, 100, 0.01) FROM s WHERE v > 10) AS b;
SELECT round(bloom_cardinality(a), 3) AS card_a, round(bloom_cardinality(b), 3) AS card_b,
       round(bloom_cardinality(bloom_union(a, b)), 3) AS card_union,
       round(bloom_intersect_cardinality(a, b), 3) AS card_inter,
       round(bloom_jaccard(a, b), 4) AS jaccard FROM ab;
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 30)
SELECT sum(bloom_contains(bloom_union(a, b), v)) AS in_union,
       sum(bloom_contains(bloom_intersect(a, b), v)) AS in_intersection,
       group_concat(CASE WHEN bloom_contains(bloom_intersect(a, b), v) THEN v END) AS which
FROM ab, s;
-- The union is the filter of the union of the sets, bit for bit.
WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 30)
SELECT bloom_union(a, b) = (SELECT bloom_agg(v, 100, 0.01) FROM s) AS union_is_exact FROM ab;
-- Jaccard of a filter with itself, and of two empty filters.
SELECT bloom_jaccard(a, a) AS self, bloom_jaccard(bloom_empty(100), bloom_empty(100)) AS empties FROM ab;
SELECT bloom_cardinality(bloom_empty(100)) AS empty_card, bloom_fpr(bloom_empty(100)) AS empty_fpr;

-- A filter with every bit set: infinite cardinality, fpr 1, JSON null.
SELECT bloom_cardinality(bloom_add(bloom_empty_mk(1, 1), 1)) AS card,
       bloom_fpr(bloom_add(bloom_empty_mk(1, 1), 1)) AS fpr,
       bloom_jaccard(bloom_add(bloom_empty_mk(1, 1), 1), bloom_add(bloom_empty_mk(1, 1), 2)) AS jaccard;
SELECT bloom_info(bloom_add(bloom_empty_mk(1, 1), 1));

-- Deterministic and innocuous: usable in a generated column and an index.
CREATE TABLE g (v, fb AS (bloom_add(bloom_empty_mk(64, 2), v)));
INSERT INTO g VALUES (1), (2);
SELECT v, hex(substr(fb, 33)) FROM g;
CREATE INDEX g_hash ON g (bloom_hash(v));
SELECT v FROM g WHERE bloom_hash(v) = bloom_hash(2.0);
