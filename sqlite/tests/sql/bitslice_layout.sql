-- bloom_bitslice's stored layout: a fixed table indexed, then rows
-- inserted, updated and deleted (pending rows sliced into the last block
-- and new ones, sparse blocks back to pending), and a digest of every
-- shadow table's rows after each step.  The slices' bytes are laid out by
-- core/slices.c for both hosts; a change that moves a byte of any table
-- changes these digests (an index written before must read the same).
.load build/bloomfilter
.headers on
CREATE TABLE t (id INTEGER PRIMARY KEY, f BLOB);
-- four geometries (61, 1000 and 1024 bits, blocked), one folded (65536
-- bits), a prime size kept aside
INSERT INTO t SELECT d.value,
    CASE d.value % 6
        WHEN 0 THEN bloom_add_all(bloom_empty_mk(1024, 3), json_array(d.value, d.value * 3))
        WHEN 1 THEN bloom_add_all(bloom_empty_mk(65536, 5, 7), json_array(d.value, d.value + 11))
        WHEN 2 THEN bloom_add_all(bloom_empty(50 + d.value % 50, 0.01, 0, 'blocked'), json_array('k' || d.value))
        WHEN 3 THEN bloom_add(bloom_empty_mk(61, 2), d.value)
        WHEN 4 THEN bloom_add_all(bloom_empty_mk(1000, 4), json_array(d.value, -d.value))
        ELSE bloom_add(bloom_empty_mk(100003, 3), d.value) END
FROM generate_series(1, 1500) d;
CREATE VIRTUAL TABLE t_f USING bloom_bitslice(t, f, max_nbits=4096);
CREATE TEMP VIEW shadow_digest AS
SELECT (SELECT count(*) FROM t_f_blocks) AS blocks, (SELECT count(*) FROM t_f_pending) AS pending,
       bloom_hash((SELECT group_concat(x, ',') FROM (SELECT id || ':' || hex(data) AS x FROM t_f_slices ORDER BY id))) AS slices_digest,
       bloom_hash((SELECT group_concat(x, ',') FROM (SELECT id || ':' || grp || ':' || cap || ':' || nrows || ':' || nlive || ':' || sum
                                                            || ':' || hex(live) || ':' || hex(rids) AS x FROM t_f_blocks ORDER BY id))) AS blocks_digest,
       bloom_hash((SELECT group_concat(x, ',') FROM (SELECT rid || ':' || loc AS x FROM t_f_map ORDER BY rid))) AS map_digest,
       bloom_hash((SELECT group_concat(x, ',') FROM (SELECT rid || ':' || grp || ':' || sum || ':' || hex(bits) AS x
                                                     FROM t_f_pending ORDER BY rid))) AS pending_digest,
       bloom_hash((SELECT group_concat(x, ',') FROM (SELECT id || ':' || layout || ':' || nhashes || ':' || seed || ':' || nbits || ':'
                                                            || pending || ':' || nblocks || ':' || sum AS x FROM t_f_groups ORDER BY id))) AS groups_digest,
       bloom_hash((SELECT group_concat(x, ',') FROM (SELECT rid || ':' || sum AS x FROM t_f_aside ORDER BY rid))) AS aside_digest;
SELECT 'built' AS step, * FROM shadow_digest;
-- inserts: pending, then sliced into the last block and growing ones
INSERT INTO t SELECT d.value, bloom_add_all(bloom_empty_mk(1024, 3), json_array(d.value)) FROM generate_series(2001, 2300) d;
INSERT INTO t SELECT d.value, bloom_add(bloom_empty_mk(61, 2), d.value) FROM generate_series(2301, 2450) d;
SELECT 'inserted' AS step, * FROM shadow_digest;
-- deletes: emptied blocks gone, sparse ones back to pending; updates
DELETE FROM t WHERE id % 5 <> 0 AND id < 1000;
UPDATE t SET f = bloom_add(f, 99) WHERE id % 7 = 0 AND id > 1200;
SELECT 'deleted' AS step, * FROM shadow_digest;
INSERT INTO t SELECT d.value, bloom_add_all(bloom_empty_mk(1000, 4), json_array(d.value)) FROM generate_series(3001, 3200) d;
SELECT 'inserted again' AS step, * FROM shadow_digest;
-- and every probe through the index is the scan's
SELECT count(*) AS pairs_that_differ FROM (
    SELECT value AS v, id FROM generate_series(1, 400), t WHERE bloom_contains(f, value)
    EXCEPT SELECT p.value, s.rowid FROM generate_series(1, 400) p, bloom_search('t', 'f', p.value) s);
