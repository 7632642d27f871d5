-- bytea binds as bloom without a cast in the SQL text (what client
-- libraries send for a bytes parameter), and the cast still validates.

CREATE TABLE bind_t (id int, f bloom);
-- INSERT of a bytea value into a bloom column
INSERT INTO bind_t VALUES (1, bloom_add(bloom_empty(100), 42)::bytea);
SELECT bloom_add(bloom_empty(100), 7)::bytea AS f7, bloom_add(bloom_empty(100), 42)::bytea AS f42 \gset
PREPARE ins(int, bytea) AS INSERT INTO bind_t VALUES ($1, $2);
EXECUTE ins(2, :'f7');
SELECT id, bloom_contains(f, 42) AS has_42, bloom_contains(f, 7) AS has_7 FROM bind_t ORDER BY id;

-- a bytea parameter where a function takes a bloom
PREPARE probe(bytea, int) AS SELECT bloom_contains($1, $2);
EXECUTE probe(:'f42', 42);
EXECUTE probe(:'f42', 43);
SELECT bloom_cardinality(f::bytea) > 0 AS cardinality, f::bytea @> 42 AS operator FROM bind_t WHERE id = 1;

-- mixed operands resolve to bloom; two bytea operands keep bytea's operators
SELECT f = f::bytea AS bloom_eq_bytea FROM bind_t WHERE id = 1;
SELECT pg_typeof(coalesce(NULL::bloom, bloom_empty(10)::bytea)) AS common_type;
SELECT '\x0102'::bytea = '\x0102'::bytea AS bytea_eq, '\x01'::bytea || '\x02'::bytea AS bytea_concat;

-- bad bytes are refused, as by the explicit cast
INSERT INTO bind_t VALUES (3, '\x0001'::bytea);
EXECUTE probe('\x0001', 1);
DROP TABLE bind_t;
DEALLOCATE ALL;
