-- NULL is never a member; a NULL filter or parameter gives NULL.
.load build/bloomfilter
.headers on
.nullvalue NULL
.echo on
CREATE TABLE f AS SELECT bloom_add(bloom_empty(100), 1) AS b;
SELECT bloom_contains(b, NULL) AS contains_null, bloom_add(b, NULL) = b AS add_null_unchanged FROM f;
SELECT bloom_contains(NULL, 1) AS null_filter, bloom_add(NULL, 1) AS add_to_null;
-- NULL is NULL even when the filter is not one (no filter is read).
SELECT bloom_contains('not a filter', NULL) AS contains_null_any;
SELECT bloom_empty(NULL) AS c, bloom_empty(10, NULL) AS fpr, bloom_empty(10, 0.01, NULL) AS seed,
       bloom_empty(10, 0.01, 0, NULL) AS layout;
SELECT bloom_empty_mk(NULL, 3) AS nbits, bloom_empty_mk(64, NULL) AS k, bloom_empty_mk(64, 3, NULL) AS seed,
       bloom_empty_mk(64, 3, 0, NULL) AS layout;
SELECT bloom_union(b, NULL) AS u1, bloom_union(NULL, b) AS u2, bloom_intersect(b, NULL) AS i1,
       bloom_intersect(NULL, b) AS i2 FROM f;
SELECT bloom_cardinality(NULL) AS card, bloom_fpr(NULL) AS fpr, bloom_info(NULL) AS info,
       bloom_intersect_cardinality(NULL, NULL) AS ic, bloom_jaccard(NULL, NULL) AS j;
SELECT bloom_hash(NULL) AS h, bloom_hash(1, NULL) AS seed, bloom_hash(NULL, 1) AS both;
SELECT bloom_from_parquet(NULL) AS fp, bloom_to_parquet(NULL) AS tp;
-- An invalid filter beside a NULL one is still an error.
SELECT bloom_union(X'00', NULL);

-- Aggregates skip NULL: the filter of (1, NULL, 2) is the filter of (1, 2).
CREATE TABLE v (x);
INSERT INTO v VALUES (1), (NULL), (2);
SELECT (SELECT bloom_agg(x) FROM v) = (SELECT bloom_agg(x) FROM v WHERE x IS NOT NULL) AS self_sizing,
       (SELECT bloom_agg(x, 10, 0.01) FROM v) = bloom_add(bloom_add(bloom_empty(10, 0.01), 1), 2) AS fixed;
-- Empty input, and input of NULLs only, give NULL.
SELECT bloom_agg(x) AS none, bloom_agg(x, 10, 0.01) AS none_fixed, bloom_union_agg(x) AS u,
       bloom_intersect_agg(x) AS i FROM v WHERE 0;
SELECT bloom_agg(x) AS nulls, bloom_agg(x, 10, 0.01) AS nulls_fixed FROM v WHERE x IS NULL;
CREATE TABLE fs (b);
INSERT INTO fs VALUES (bloom_add(bloom_empty(10), 1)), (NULL), (bloom_add(bloom_empty(10), 2));
SELECT bloom_union_agg(b) = bloom_add(bloom_add(bloom_empty(10), 1), 2) AS union_skips_null,
       bloom_intersect_agg(b) = bloom_intersect(bloom_add(bloom_empty(10), 1), bloom_add(bloom_empty(10), 2)) AS intersect_skips_null
FROM fs;
SELECT bloom_union_agg(b) AS u, bloom_intersect_agg(b) AS i FROM fs WHERE b IS NULL;
