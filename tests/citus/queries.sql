-- Run with -v tbl=t_local, t_dist and t_ref (tests/citus/setup.sql): every
-- line, "check|md5 of the result|bytes", must be the same for all three.
\pset footer off
-- every concrete overload of bloom_agg(value)
SELECT 'agg int2', md5(bloom_agg(i2)::bytea), octet_length(bloom_agg(i2)::bytea) FROM :tbl;
SELECT 'agg int4', md5(bloom_agg(i4)::bytea), octet_length(bloom_agg(i4)::bytea) FROM :tbl;
SELECT 'agg int8', md5(bloom_agg(i8)::bytea), octet_length(bloom_agg(i8)::bytea) FROM :tbl;
SELECT 'agg numeric', md5(bloom_agg(num)::bytea), octet_length(bloom_agg(num)::bytea) FROM :tbl;
SELECT 'agg float4', md5(bloom_agg(f4)::bytea), octet_length(bloom_agg(f4)::bytea) FROM :tbl;
SELECT 'agg float8', md5(bloom_agg(f8)::bytea), octet_length(bloom_agg(f8)::bytea) FROM :tbl;
SELECT 'agg text', md5(bloom_agg(t)::bytea), octet_length(bloom_agg(t)::bytea) FROM :tbl;
SELECT 'agg bytea', md5(bloom_agg(b)::bytea), octet_length(bloom_agg(b)::bytea) FROM :tbl;
SELECT 'agg uuid', md5(bloom_agg(u)::bytea), octet_length(bloom_agg(u)::bytea) FROM :tbl;
SELECT 'agg date', md5(bloom_agg(d)::bytea), octet_length(bloom_agg(d)::bytea) FROM :tbl;
SELECT 'agg timestamp', md5(bloom_agg(ts)::bytea), octet_length(bloom_agg(ts)::bytea) FROM :tbl;
SELECT 'agg timestamptz', md5(bloom_agg(tz)::bytea), octet_length(bloom_agg(tz)::bytea) FROM :tbl;
-- every concrete overload of bloom_agg(value, capacity, fpr)
SELECT 'fixed int2', md5(bloom_agg(i2, 30000, 0.01)::bytea), octet_length(bloom_agg(i2, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed int4', md5(bloom_agg(i4, 30000, 0.01)::bytea), octet_length(bloom_agg(i4, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed int8', md5(bloom_agg(i8, 30000, 0.01)::bytea), octet_length(bloom_agg(i8, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed numeric', md5(bloom_agg(num, 30000, 0.01)::bytea), octet_length(bloom_agg(num, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed float4', md5(bloom_agg(f4, 30000, 0.01)::bytea), octet_length(bloom_agg(f4, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed float8', md5(bloom_agg(f8, 30000, 0.01)::bytea), octet_length(bloom_agg(f8, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed text', md5(bloom_agg(t, 30000, 0.01)::bytea), octet_length(bloom_agg(t, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed bytea', md5(bloom_agg(b, 30000, 0.01)::bytea), octet_length(bloom_agg(b, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed uuid', md5(bloom_agg(u, 30000, 0.01)::bytea), octet_length(bloom_agg(u, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed date', md5(bloom_agg(d, 30000, 0.01)::bytea), octet_length(bloom_agg(d, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed timestamp', md5(bloom_agg(ts, 30000, 0.01)::bytea), octet_length(bloom_agg(ts, 30000, 0.01)::bytea) FROM :tbl;
SELECT 'fixed timestamptz', md5(bloom_agg(tz, 30000, 0.01)::bytea), octet_length(bloom_agg(tz, 30000, 0.01)::bytea) FROM :tbl;
-- GROUP BY a column that is not the distribution column (partial states travel)
SELECT 'group grp ' || grp, md5(bloom_agg(t)::bytea), octet_length(bloom_agg(t)::bytea)
FROM :tbl GROUP BY grp ORDER BY grp;
SELECT 'group grp fixed ' || grp, md5(bloom_agg(i8, 5000, 0.001)::bytea), octet_length(bloom_agg(i8, 5000, 0.001)::bytea)
FROM :tbl GROUP BY grp ORDER BY grp;
-- GROUP BY the distribution column (the whole aggregate runs on the shards)
SELECT 'group k', md5(string_agg(md5(f::bytea), ',' ORDER BY k)), count(*)
FROM (SELECT k, bloom_agg(u) AS f FROM :tbl GROUP BY k) s;
-- union of per-group filters
SELECT 'union of groups', md5(bloom_union_agg(f)::bytea), octet_length(bloom_union_agg(f)::bytea)
FROM (SELECT grp, bloom_agg(i4, 30000, 0.01) AS f FROM :tbl GROUP BY grp) s;
-- the Bloom join: the filter of a selection built in a subplan, probed by every row
SELECT 'bloom join probe', count(*), sum(i4)
FROM :tbl b WHERE bloom_contains((SELECT bloom_agg(k) FROM :tbl WHERE grp = 3 AND k < 5000), b.k);
SELECT 'bloom join exact', count(*), sum(i4)
FROM :tbl b
WHERE bloom_contains((SELECT bloom_agg(k) FROM :tbl WHERE grp = 3 AND k < 5000), b.k)
  AND b.k IN (SELECT k FROM :tbl WHERE grp = 3 AND k < 5000);
-- the anyelement fallback's replacement: the value's binary form, same filter
SELECT 'inet via send', md5(bloom_agg(inet_send(('10.0.' || (k % 200) || '.' || (k % 250))::inet))::bytea), 0
FROM :tbl;
