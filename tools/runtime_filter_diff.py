#!/usr/bin/python3
"""Random joins with the runtime filters on and off: the same rows.

Builds a few small tables with varied key distributions (NULLs, duplicate
keys, int4, int8, numeric and text keys) on a local server and the same
facts on a remote one (foreign tables over postgres_fdw, extensions
'bloomfilter'), then runs random queries: joins of a fact (a table or a
subquery with LIMIT, OFFSET, DISTINCT ON, a window, GROUP BY, UNION, a CTE
read twice whose readers' conditions move into it (counted), ...)
to dimensions, as inner, outer, semi and anti joins (IN, EXISTS, NOT
EXISTS, NOT IN), under random planner settings that favour hash joins and
filters.  Each query runs with bloomfilter.runtime_filter off and on; the
rows (sorted) must be the same.  EXPLAIN counts the queries that got a
local or a remote filter.

    /usr/bin/python3 tools/runtime_filter_diff.py LOCAL_PORT REMOTE_PORT SEED[,SEED...] QUERIES [local,fdw]

QUERIES random joins for each seed and mode: local (the facts are local
tables), fdw (mostly the foreign tables), scans (indexed copies of the
facts, a partitioned one among them, read by index, index-only and bitmap
heap scans as random enable_* settings make the planner choose),
transfer (chains, snowflakes and equivalence classes of local tables, in
the written join order or the planner's, run also with
bloomfilter.runtime_filter_transfer off: the same rows; counted: the queries
where transfer adds filters), and star (the local facts joined to dimensions
with indexes on their keys, mostly without hash joins: nested loops over the
indexes and merge joins, whose filters are built first), keyset (small
selections of a dimension joined to facts with btree indexes on their
int2, int4 and int8 keys, with dead rows: the exact set of keys, probed
and looked up through the index; counted: the queries whose EXPLAIN
ANALYZE shows an exact set, and index lookups), outer (small selections
of suppliers semi, anti, inner and left joined to stock whose rows each
run a correlated subquery over sales: a probe side read first, conditions
moved above a filter; counted: the queries with a probe side read first),
and prune
(partitioned and inherited copies of the facts with random bounds of the
key: range, list, date and int8 partitions, two levels, default
partitions, CHECK constraints validated and NOT VALID; counted: the
queries where a probe skipped a partition, from EXPLAIN ANALYZE).

Connects as postgres to 127.0.0.1 (tools/pgclusters.sh's servers).  Prints
one line per mode and seed ("ok - " or "FAILED - ", with the counts), every
difference in full, and "runtime-filter-diff-counts: queries Q, local
filter F, remote filter R, transferred X, differences D, errors E,
timeouts T".  An error fails (printed with its query), but for
statement_timeout both ways (a slow query on a loaded machine is no wrong
answer; one way alone is a difference).
"""
import random
import re
import sys

import psycopg2

LOCAL_PORT, REMOTE_PORT = int(sys.argv[1]), int(sys.argv[2])
SEEDS = [int(a) for a in sys.argv[3].split(',')]
QUERIES = int(sys.argv[4])
MODES = sys.argv[5].split(',') if len(sys.argv) > 5 else ['local', 'fdw', 'scans', 'transfer', 'star', 'keyset', 'prune',
                                                          'outer']

# The facts (the same rows on both servers): id unique, keys of four types.
FACTS = {
    # skewed keys, a NULL every 97th row
    'fa': '''SELECT g AS id,
       CASE WHEN g % 97 = 0 THEN NULL ELSE (g * 7919) % 6000 END AS k4,
       CASE WHEN g % 89 = 0 THEN NULL ELSE ((g * 7919) % 6000)::int8 * 3 END AS k8,
       CASE WHEN g % 83 = 0 THEN NULL ELSE ((g * 7919) % 6000) / 2.0 END AS kn,
       CASE WHEN g % 79 = 0 THEN NULL ELSE 'k' || ((g * 7919) % 6000) END AS kt,
       g % 37 AS g, g % 1000 AS v,
       CASE WHEN g % 71 = 0 THEN NULL
            ELSE 'k' || ((g * 7919) % 6000) || CASE WHEN (g * 7919) % 6000 % 3 = 0 THEN 'é' ELSE '' END END AS ku
FROM generate_series(1, 20000) g''',
    # many duplicates of few keys, and keys past the dimensions' range
    'fb': '''SELECT g AS id,
       CASE WHEN g % 50 = 0 THEN NULL ELSE (g % 300) * 7 END AS k4,
       ((g % 300) * 7)::int8 * 3 + (g % 2) * 100000 AS k8,
       CASE WHEN g % 61 = 0 THEN NULL ELSE ((g % 300) * 7)::numeric(12, 1) / 2 END AS kn,
       'k' || ((g % 300) * 7) AS kt,
       g % 11 AS g, (g * 13) % 1000 AS v,
       'k' || ((g % 300) * 7) || CASE WHEN (g % 300) * 7 % 3 = 0 THEN 'é' ELSE '' END AS ku
FROM generate_series(1, 12000) g''',
}
FACT_COLUMNS = '(id int4, k4 int4, k8 int8, kn numeric, kt text, g int4, v int4, ku text)'

# The dimensions (local): duplicate keys, NULLs, selections of every size.
DIMS = {
    'da': '''SELECT row_number() OVER () AS did, k4, k4::int8 * 3 AS k8, k4 / 2.0 AS kn,
       'k' || k4 AS kt, k4 % 20 = 0 AS s1, k4 % 3 = 0 AS s2, k4 < 100 AS s3, k4 % 1000 AS x,
       'k' || k4 || CASE WHEN k4 % 3 = 0 THEN 'é' ELSE '' END AS ku
FROM (SELECT g AS k4 FROM generate_series(0, 5999) g
      UNION ALL SELECT g FROM generate_series(0, 5999, 40) g
      UNION ALL SELECT NULL FROM generate_series(1, 5)) s''',
    'db': '''SELECT g AS did, CASE WHEN g % 41 = 0 THEN NULL ELSE g * 14 END AS k4,
       (g * 14)::int8 * 3 AS k8, (g * 14) / 2.0 AS kn, 'k' || (g * 14) AS kt,
       g % 2 = 0 AS s1, g % 7 = 0 AS s2, g < 10 AS s3, g % 13 AS x,
       'k' || (g * 14) || CASE WHEN g * 14 % 3 = 0 THEN 'é' ELSE '' END AS ku
FROM generate_series(0, 400) g''',
    'dv': '''SELECT g AS did, g AS k4, g::int8 * 3 AS k8, g / 2.0 AS kn, 'k' || g AS kt,
       g % 9 = 0 AS s1, g % 2 = 0 AS s2, g > 990 AS s3, g % 5 AS x,
       'k' || g || CASE WHEN g % 3 = 0 THEN 'é' ELSE '' END AS ku
FROM generate_series(0, 999) g''',
}

# Keys: the fact's column and the dimension's, of the same or other types.
KEYS = [('k4', 'k4'), ('k4', 'k8'), ('k8', 'k8'), ('k8', 'k4'), ('kn', 'kn'),
        ('k4', 'kn'), ('kt', 'kt'), ('k4::int8', 'k8'), ('k4', 'k4::int8')]


# The facts as subqueries with columns (id, key, v, g): base is the table
# with its key, n and m a LIMIT and an OFFSET, as Generator.fact fills them in.
FACT_SHAPES = {
    'where': '({base} WHERE v < {w})',
    'limit': '({base} ORDER BY id LIMIT {n})',
    'offset': '({base} ORDER BY id OFFSET {m})',
    'limit_offset': '({base} ORDER BY id LIMIT {n} OFFSET {m})',
    'nested_limit': '(SELECT * FROM ({base}) x ORDER BY id LIMIT {n})',
    'limit_where': '({base} WHERE v % 3 <> 1 ORDER BY id DESC LIMIT {n})',
    'ties': '({base} ORDER BY v FETCH FIRST {n} ROWS WITH TIES)',
    'distinct_on_key': '(SELECT DISTINCT ON (key) * FROM ({base}) x ORDER BY key, id)',
    'distinct_on_other': '(SELECT DISTINCT ON (g) * FROM ({base}) x ORDER BY g, id)',
    'window_rank': ('(SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY {part} ORDER BY id) AS rn '
                    'FROM ({base}) x) w WHERE rn <= {rn})'),
    'window_count': '(SELECT id, key, (count(*) OVER (PARTITION BY g))::int4 AS v, g FROM ({base}) x)',
    'group_key': '(SELECT min(id) AS id, key, sum(v)::int4 AS v, count(*)::int4 AS g FROM ({base}) x GROUP BY key)',
    'group_having': ('(SELECT min(id) AS id, key, count(*)::int4 AS v, max(g) AS g '
                     'FROM ({base}) x GROUP BY key HAVING count(*) > {c})'),
    'group_other': '(SELECT min(id) AS id, max(key) AS key, count(*)::int4 AS v, g FROM ({base}) x GROUP BY g)',
    'distinct': '(SELECT DISTINCT 0 AS id, key, 0 AS v, g FROM ({base}) x)',
    'union_all': '({base} WHERE v < 600 UNION ALL SELECT id + 100000, {key}, v, g FROM {t2})',
    'union_all_limit': ('({base} WHERE v < 600 UNION ALL '
                        'SELECT id + 100000, {key}, v, g FROM {t2} ORDER BY 1 LIMIT {n10})'),
    'union': '(SELECT 0 AS id, key, g AS v, g FROM ({base}) x UNION SELECT 1, {key}, g, g FROM {t2})',
    'except': ('(SELECT 0 AS id, key, 0 AS v, 0 AS g FROM ({base}) x '
               'EXCEPT SELECT 0, {key}, 0, 0 FROM {t2} WHERE v < 100)'),
    'limit_above_filter': '(SELECT * FROM ({base}) x WHERE key IS NOT NULL ORDER BY id LIMIT {n} OFFSET {m100})',
    'order_only': '({base} ORDER BY key, id)',
    'cte': '(WITH c AS MATERIALIZED ({base}) SELECT * FROM c WHERE c.v < {w})',
    'cte_subquery': ('(WITH c AS MATERIALIZED ({base} WHERE id % {s} = 0) '
                     'SELECT * FROM c WHERE c.v >= (SELECT avg(y.v) FROM c y WHERE y.g = c.g))'),
    # a CTE read twice, each reader with its conditions (they move into it)
    'cte_readers': ('(WITH c AS ({base}) SELECT * FROM c WHERE c.g < {g1} '
                    'UNION ALL SELECT * FROM c WHERE c.g = {g2} AND c.v < {w})'),
    'cte_readers_group': ('(WITH c AS (SELECT min(id) AS id, key, sum(v)::int4 AS v, g FROM ({base}) x '
                          'GROUP BY key, g) SELECT a.id, a.key, coalesce(b.v, -1) AS v, a.g FROM c a '
                          '{join} c b ON b.key = a.key AND b.g {op} {g2} WHERE a.g = {g1}{extra})'),
}

# The joins: p a fact (key pk), d a dimension (key dk, selection sd; sd0 in
# a subquery d0), as Generator.query fills them in.
JOINS = {
    'inner': 'SELECT p.id, {pk}, p.v, d.did, d.x FROM {src} p JOIN {d} d ON {pk} = {dk} WHERE {sd}',
    'inner_agg': ('SELECT d.x, count(*), sum(p.v), count(DISTINCT p.id) FROM {src} p JOIN {d} d '
                  'ON {pk} = {dk} WHERE {sd} GROUP BY d.x'),
    'three': ('SELECT p.id, p.v, d.did, e.did FROM {src} p JOIN {d} d ON {pk} = {dk} '
              'JOIN {d2} e ON p.v = e.k4 WHERE {sd} AND {se}'),
    'two_facts': ('SELECT count(*), sum(p.v), sum(q.v) FROM {src} p JOIN {src2} q ON {pk} = q.{key2} '
                  'JOIN {d} d ON q.{key2} = {dk} WHERE {sd}'),
    'semi_in': 'SELECT p.id, {pk}, p.v FROM {src} p WHERE {pk} IN (SELECT {dk} FROM {d} d WHERE {sd})',
    'semi_exists': 'SELECT p.id, {pk}, p.v FROM {src} p WHERE EXISTS (SELECT 1 FROM {d} d WHERE {dk} = {pk} AND {sd})',
    'anti_exists': ('SELECT p.id, {pk}, p.v FROM {src} p WHERE NOT EXISTS '
                    '(SELECT 1 FROM {d} d WHERE {dk} = {pk} AND {sd})'),
    'not_in': ('SELECT p.id, {pk}, p.v FROM {src} p WHERE {pk} NOT IN '
               '(SELECT {dk} FROM {d} d WHERE {sd} AND {dk} IS NOT NULL)'),
    'left': 'SELECT p.id, {pk}, d.did FROM {src} p LEFT JOIN {d} d ON {pk} = {dk} AND {sd}',
    'right': 'SELECT p.id, {pk}, d.did FROM {src} p RIGHT JOIN (SELECT * FROM {d} d0 WHERE {sd0}) d ON {pk} = {dk}',
    'full': 'SELECT p.id, {pk}, d.did FROM {src} p FULL JOIN (SELECT * FROM {d} d0 WHERE {sd0}) d ON {pk} = {dk}',
    'dim_left': 'SELECT d.did, p.id FROM (SELECT * FROM {d} d0 WHERE {sd0}) d LEFT JOIN {src} p ON {pk} = {dk}',
    'limit_above': ('SELECT * FROM (SELECT p.id, {pk}, d.did FROM {src} p JOIN {d} d ON {pk} = {dk} '
                    'WHERE {sd} ORDER BY p.id, d.did LIMIT {n}) q'),
    # (ordered by every column: a fact of a set operation has ids 0 and 1)
    'semi_in_sub': ('SELECT count(*), sum(v) FROM (SELECT p.* FROM {src} p WHERE {pk} IN '
                    '(SELECT {dk} FROM {d} d WHERE {sd}) ORDER BY p.id, {pk}, p.v, p.g LIMIT 200) q'),
    'join_in_sub': ('SELECT q.id, e.did FROM (SELECT p.id, p.v FROM {src} p JOIN {d} d ON {pk} = {dk} '
                    'WHERE {sd}) q JOIN dv e ON q.v = e.k4 WHERE e.s2'),
}


# Foreign facts (f) joined on text keys and on two keys (on), as
# Generator.fdw_keys_query fills them in: one remote filter per key, text
# ones only where the remote database has the local encoding and the
# collation is deterministic.
FDW_KEY_SETS = [
    [('ku', 'ku')], [('ku', 'ku')], [('kt', 'kt')], [('ku', 'ku COLLATE "C"')], [('ku', 'ku COLLATE diff_ci')],
    [('k4', 'k4'), ('ku', 'ku')], [('k4', 'k4'), ('k8', 'k8')], [('kt', 'kt'), ('kn', 'kn')],
    [('ku', 'ku'), ('k8', 'k8'), ('k4', 'k4')], [('k4', 'k4'), ('ku', 'ku COLLATE diff_ci')],
]
FDW_KEY_JOINS = {
    'inner': 'SELECT p.id, p.v, d.did FROM {f} p JOIN {d} d ON {on} WHERE {sd}',
    'inner_agg': 'SELECT d.x, count(*), sum(p.v) FROM {f} p JOIN {d} d ON {on} WHERE {sd} GROUP BY d.x',
    'semi': 'SELECT p.id, p.v FROM {f} p WHERE EXISTS (SELECT 1 FROM {d} d WHERE {on} AND {sd})',
    'anti': 'SELECT p.id FROM {f} p WHERE NOT EXISTS (SELECT 1 FROM {d} d WHERE {on} AND {sd})',
    'left': 'SELECT p.id, d.did FROM {f} p LEFT JOIN {d} d ON {on} AND {sd}',
    'where': 'SELECT p.id, d.did FROM (SELECT * FROM {f} WHERE v < 700) p JOIN {d} d ON {on} WHERE {sd}',
    'limit': 'SELECT p.id, d.did FROM (SELECT * FROM {f} ORDER BY id LIMIT 3000) p JOIN {d} d ON {on} WHERE {sd}',
}


# Predicate transfer: p and q facts, d and e dimensions; the join of p and
# q (inner, left, semi, anti) on {pq}, the dimension on {qd}, as
# TransferGenerator.query fills them in.
TRANSFER_JOINS = {
    # customer -> orders -> lineitem: d selects q, q's keys p
    'chain': ('SELECT p.id, p.v, q.id, d.did FROM {p} p {join} {q} q ON {pq} '
              'JOIN {d} d ON {qd} WHERE {sd}'),
    # a.k = b.k = c.k: the dimension's key equals p's, which equals q's
    'class': ('SELECT p.id, p.v, q.id FROM {p} p {join} {q} q ON p.{pk} = q.{qk} '
              'JOIN {d} d ON p.{pk} = d.{dk} WHERE {sd}'),
    'class_q': ('SELECT p.id, q.v FROM {p} p {join} {q} q ON p.{pk} = q.{qk} '
                'JOIN {d} d ON q.{qk} = d.{dk} WHERE {sd}'),
    # a dimension of a dimension
    'snowflake': ('SELECT p.id, d.did, e.did FROM {p} p JOIN {d} d ON p.{pk} = d.{dk} '
                  'JOIN {e} e ON d.x = e.x WHERE {se}'),
    # the chain with the semi and anti joins written as such
    'chain_exists': ('SELECT p.id, p.v FROM {p} p WHERE {neg} EXISTS (SELECT 1 FROM {q} q '
                     'JOIN {d} d ON {qd} WHERE {pq} AND {sd})'),
    'chain_in': ('SELECT p.id FROM {p} p WHERE p.{pk} IN (SELECT q.{qk} FROM {q} q '
                 'JOIN {d} d ON {qd} WHERE {sd})'),
    'class_agg': ('SELECT d.x, count(*), sum(p.v) FROM {p} p {join} {q} q ON p.{pk} = q.{qk} '
                  'JOIN {d} d ON q.{qk} = d.{dk} WHERE {sd} GROUP BY d.x'),
}


# Star joins (mode star): the dimensions with indexes on their keys, so
# that a nested loop over an index (or a merge join) joins them, and the
# filter is built first from the dimension's own conditions.
STAR_DIMS = {
    'sv': ('dv', ['CREATE UNIQUE INDEX ON sv (k4)', 'CREATE UNIQUE INDEX ON sv (k8)',
                  'CREATE UNIQUE INDEX ON sv (kt)', 'CREATE INDEX ON sv (kn)', 'CREATE INDEX ON sv (k4, x)',
                  'CREATE INDEX ON sv ((k4::int8))']),
    'sa': ('da', ['CREATE INDEX ON sa (k4)', 'CREATE INDEX ON sa (k8)', 'CREATE INDEX ON sa (kt)',
                  'CREATE INDEX ON sa (kn)', 'CREATE INDEX ON sa (k4, x, s1)', 'CREATE INDEX ON sa ((k4::int8))']),
}

# Star joins: p a fact (key pk), d and e dimensions with indexes (keys dk,
# ek; selections sd, se), as StarGenerator.query fills them in.
STAR_JOINS = {
    'star': 'SELECT p.id, {pk}, p.v, d.did, d.x FROM {src} p JOIN {d} d ON {pk} = {dk} WHERE {sd}',
    'star_agg': ('SELECT d.x, count(*), sum(p.v) FROM {src} p JOIN {d} d ON {pk} = {dk} '
                 'WHERE {sd} GROUP BY d.x'),
    'star_two': ('SELECT p.id, d.did, e.did FROM {src} p JOIN {d} d ON {pk} = {dk} '
                 'JOIN {e} e ON p.g = e.k4 WHERE {sd} AND {se}'),
    'star_semi': 'SELECT p.id, p.v FROM {src} p WHERE EXISTS (SELECT 1 FROM {d} d WHERE {dk} = {pk} AND {sd})',
    'star_in': 'SELECT p.id, p.v FROM {src} p WHERE {pk} IN (SELECT {dk} FROM {d} d WHERE {sd})',
    'star_anti': 'SELECT p.id FROM {src} p WHERE NOT EXISTS (SELECT 1 FROM {d} d WHERE {dk} = {pk} AND {sd})',
    'star_left': 'SELECT p.id, d.did FROM {src} p LEFT JOIN {d} d ON {pk} = {dk} AND {sd}',
    # a condition of the dimension with a parameter of an outer query
    'star_outer_param': ('SELECT t.x, (SELECT count(*) FROM {src} p JOIN {d} d ON {pk} = {dk} '
                         'WHERE {sd} AND d.x = t.x) FROM (VALUES (0), (1), (2), (7)) t(x)'),
    'star_lateral': ('SELECT t.x, q.c FROM (VALUES (0), (1), (3)) t(x), LATERAL (SELECT count(*) AS c, '
                     'sum(p.v) AS s FROM {src} p JOIN {d} d ON {pk} = {dk} WHERE {sd} AND d.x = t.x) q'),
    'star_in_dim_side': ('SELECT d.did, count(*) FROM {d} d JOIN {src} p ON {pk} = {dk} '
                         'WHERE {sd} GROUP BY d.did'),
}


def setup_star(cur):
    for name, (like, indexes) in STAR_DIMS.items():
        cur.execute(f'DROP TABLE IF EXISTS {name}; CREATE TABLE {name} AS SELECT * FROM {like}')
        for sql in indexes:
            cur.execute(sql)
        cur.execute(f'ANALYZE {name}')


class StarGenerator:
    """Star joins of the local facts to indexed dimensions, under settings
    that favour nested loops over the dimensions' indexes and merge joins."""

    def __init__(self, rng):
        self.rng = rng
        self.facts = Generator(rng, 'local')

    def fact(self, key):
        r = self.rng
        if r.random() < 0.2:
            # every row, by a condition the planner guesses at 0.5%: an
            # estimate below runtime_filter_min_rows, a deferred build
            t = r.choice(['fa', 'fb'])
            return f'(SELECT * FROM {t} WHERE ({t}.id * 0) = 0)', key
        if r.random() < 0.7:
            return r.choice(['fa', 'fb']), key
        return self.facts.fact(key)

    def dim(self, alias):
        r = self.rng
        d = r.choice(['sv', 'sv', 'sa'])
        sel = r.choice(['{a}.s1', '{a}.s3', '{a}.x < 2', '{a}.s1 AND {a}.x < 3', 'NOT {a}.s2',
                        '{a}.x = 1 AND {a}.s2', 'true', '{a}.x * 1000 / ({a}.did + 1) < 5000',
                        '{a}.x < 1000 + random()'])
        return d, sel.format(a=alias)

    def query(self):
        r = self.rng
        fkey, dkey = r.choice(KEYS)
        src, key = self.fact(fkey)
        d, sd = self.dim('d')
        e, se = self.dim('e')
        pk = f'p.{key}'
        dk = f'd.{dkey}' if '::' not in dkey else f'(d.{dkey})'
        self.shape = r.choice(list(STAR_JOINS) + ['star', 'star', 'star_semi'])
        self.misestimated = src.startswith('(')
        return STAR_JOINS[self.shape].format(src=src, pk=pk, dk=dk, d=d, sd=sd, e=e, se=se)

    def settings(self):
        r = self.rng
        s = {'bloomfilter.runtime_filter_min_rows': r.choice(['0', '0', '100', '10000']),
             'bloomfilter.runtime_filter_max_pass': r.choice(['1', '0.5', '0.5', '0.9']),
             'bloomfilter.runtime_filter_fpr': r.choice(['0.01', '0.01', '0.3']),
             'bloomfilter.runtime_filter_max_size': r.choice(['4096', '4096', '1']),
             'enable_hashjoin': r.choice(['off', 'off', 'off', 'on']),
             'enable_mergejoin': r.choice(['off', 'on']),
             'enable_nestloop': r.choice(['on', 'on', 'on', 'off']),
             'enable_memoize': r.choice(['on', 'off']),
             'enable_indexonlyscan': r.choice(['on', 'off']),
             'random_page_cost': r.choice(['4', '1.1']),
             'work_mem': r.choice(['4MB', '256kB']),
             'max_parallel_workers_per_gather': '0'}
        if self.misestimated and r.random() < 0.6:
            # below the facts' rows and within a tenth of the dimensions':
            # a deferred build that runs
            s['bloomfilter.runtime_filter_min_rows'] = r.choice(['1000', '5000'])
        s.update(parallel_settings(r))
        return s


# The keyset mode: facts of 5 rows a key (and a NULL key in 50), wide enough
# for lookups of up to about 45 keys (runtime_filter_keyset.c), with btree
# indexes led by their int4, int8 and int2 keys (one of them wider), some
# rows deleted and updated after the VACUUM (dead rows in the heap and the
# indexes), and a dimension whose groups of 20 keys (repeated, a NULL) make
# sets of any size.  kx_ordered has one row a key of 0 to 59999, in the
# order of k4 and k8 (not of k2): lookups of up to 3,000 keys, sets of more
# than 1,024 kept for them.
KEYSET_SETUP = [
    '''DROP TABLE IF EXISTS kx_fact; CREATE TABLE kx_fact AS
       SELECT g AS id, CASE WHEN g % 50 = 0 THEN NULL ELSE g % 12000 END AS k4,
              (g % 12000)::int8 * 3 AS k8, (g % 12000)::int2 AS k2, g % 97 AS v,
              repeat('x', 60) AS pad
       FROM generate_series(1, 60000) g''',
    'CREATE INDEX ON kx_fact (k4)', 'CREATE INDEX ON kx_fact (k8, v)', 'CREATE INDEX ON kx_fact (k2, v, id)',
    '''DROP TABLE IF EXISTS kx_dim; CREATE TABLE kx_dim AS
       SELECT g AS k4, g::int8 * 3 AS k8, g::int2 AS k2, g % 600 AS grp FROM generate_series(0, 11999) g
       UNION ALL SELECT g, g::int8 * 3, g::int2, g % 600 FROM generate_series(0, 11999, 7) g
       UNION ALL SELECT NULL, NULL, NULL, g FROM generate_series(0, 599, 13) g''',
    '''DROP TABLE IF EXISTS kx_ordered; CREATE TABLE kx_ordered AS
       SELECT g AS id, CASE WHEN g % 50 = 0 THEN NULL ELSE g END AS k4, g::int8 * 3 AS k8,
              (g % 12000)::int2 AS k2, g % 97 AS v, repeat('x', 60) AS pad
       FROM generate_series(0, 59999) g''',
    'CREATE INDEX ON kx_ordered (k4)', 'CREATE INDEX ON kx_ordered (k8, v)', 'CREATE INDEX ON kx_ordered (k2)',
    'VACUUM ANALYZE kx_fact, kx_dim, kx_ordered',
    'DELETE FROM kx_fact WHERE id % 7 = 0',
    'UPDATE kx_fact SET v = v + 1 WHERE id % 11 = 0',
    'DELETE FROM kx_ordered WHERE id % 13 = 0',
    'UPDATE kx_ordered SET v = v + 1 WHERE id % 17 = 0',
]

# Keyset joins: p the fact, its key pk, the dimension's key dk, a selection
# sd of a few groups (a small set of keys) or many (no set).
KEYSET_JOINS = {
    'inner': 'SELECT p.id, p.v, d.grp FROM {fact} p JOIN kx_dim d ON p.{pk} = d.{dk} WHERE {sd}',
    'inner_qual': 'SELECT p.id FROM {fact} p JOIN kx_dim d ON p.{pk} = d.{dk} WHERE {sd} AND p.v < {v}',
    'agg': ('SELECT d.grp, count(*), sum(p.v) FROM {fact} p JOIN kx_dim d ON p.{pk} = d.{dk} '
            'WHERE {sd} GROUP BY d.grp'),
    'semi_in': 'SELECT p.id, p.v FROM {fact} p WHERE p.{pk} IN (SELECT d.{dk} FROM kx_dim d WHERE {sd})',
    'semi_exists': 'SELECT p.id FROM {fact} p WHERE EXISTS (SELECT 1 FROM kx_dim d WHERE p.{pk} = d.{dk} AND {sd})',
    'lateral': ('SELECT t.x, q.c, q.s FROM (VALUES (0), (1), (7), (599)) t(x), LATERAL (SELECT count(*) AS c, '
                'sum(p.v) AS s FROM {fact} p JOIN kx_dim d ON p.{pk} = d.{dk} WHERE {sd} AND d.grp % 8 = t.x % 8) q'),
    'two_dims': ('SELECT p.id, d.grp, e.grp FROM {fact} p JOIN kx_dim d ON p.{pk} = d.{dk} '
                 'JOIN kx_dim e ON p.v = e.k4 WHERE {sd} AND e.grp < {v}'),
    'for_update': 'SELECT p.id FROM {fact} p JOIN kx_dim d ON p.{pk} = d.{dk} WHERE {sd} FOR UPDATE OF p',
}


# The outer mode (TPC-H's Q20 in small): suppliers of 25 nations, parts of
# 50 groups, four suppliers a part with their stock, five sales a part and
# supplier; stock and sales indexed by part and supplier.
OUTER_SETUP = [
    '''DROP TABLE IF EXISTS ox_supplier; CREATE TABLE ox_supplier AS
       SELECT g AS id, g % 25 AS nation, CASE WHEN g % 97 = 0 THEN NULL ELSE g END AS idn
       FROM generate_series(1, 5000) g''',
    '''DROP TABLE IF EXISTS ox_part; CREATE TABLE ox_part AS
       SELECT g AS k, g % 50 AS grp FROM generate_series(1, 20000) g''',
    '''DROP TABLE IF EXISTS ox_stock; CREATE TABLE ox_stock AS
       SELECT p AS part, (p * 13 + s * 1249) % 5000 + 1 AS supp, (p * (s + 1)) % 10 AS qty
       FROM generate_series(1, 20000) p, generate_series(0, 3) s''',
    'CREATE INDEX ON ox_stock (part, supp)',
    '''DROP TABLE IF EXISTS ox_sales; CREATE TABLE ox_sales AS
       SELECT p AS part, (p * 13 + (g % 4) * 1249) % 5000 + 1 AS supp, g % 3 AS qty
       FROM generate_series(1, 20000) p, generate_series(1, 5) g''',
    'CREATE INDEX ON ox_sales (part, supp)',
    'VACUUM ANALYZE ox_supplier, ox_part, ox_stock, ox_sales',
]

# Outer joins: a selection ss of suppliers (s.{sk}: id, or idn with NULLs)
# and the stock of parts of some groups {pg} whose quantity passes a
# correlated subquery over the sales {cond}.
OUTER_STOCK = ('SELECT st.supp, st.part, st.qty FROM ox_stock st JOIN ox_part p ON p.k = st.part '
               'WHERE {pg} AND {cond}')
OUTER_JOINS = {
    'semi': 'SELECT s.id FROM ox_supplier s WHERE {ss} AND s.{sk} IN (SELECT x.supp FROM (' + OUTER_STOCK + ') x)',
    'exists': ('SELECT s.id FROM ox_supplier s WHERE {ss} AND EXISTS (SELECT 1 FROM (' + OUTER_STOCK +
               ') x WHERE x.supp = s.{sk})'),
    'anti': ('SELECT s.id FROM ox_supplier s WHERE {ss} AND NOT EXISTS (SELECT 1 FROM (' + OUTER_STOCK +
             ') x WHERE x.supp = s.{sk})'),
    'inner': 'SELECT s.id, x.part FROM ox_supplier s JOIN (' + OUTER_STOCK + ') x ON x.supp = s.{sk} WHERE {ss}',
    'left': 'SELECT s.id, x.part FROM ox_supplier s LEFT JOIN (' + OUTER_STOCK + ') x ON x.supp = s.{sk} WHERE {ss}',
    'agg': ('SELECT s.nation, count(*) FROM ox_supplier s JOIN (' + OUTER_STOCK +
            ') x ON x.supp = s.{sk} WHERE {ss} GROUP BY s.nation'),
    'lateral': ('SELECT t.n, c.n FROM (VALUES (3), (15)) t(n), LATERAL (SELECT count(*) AS n FROM ox_supplier s '
                'WHERE s.nation = t.n AND s.{sk} IN (SELECT x.supp FROM (' + OUTER_STOCK + ') x)) c'),
}


class OuterGenerator:
    """Small selections of suppliers joined to stock whose rows each run a
    subquery (a probe side read first, conditions moved above a filter)."""

    def __init__(self, rng):
        self.rng = rng

    def query(self):
        r = self.rng
        ss = r.choice(['s.nation = 15', 's.nation IN (3, 15)', 's.nation < 20', 's.id % 50 = 7', 's.nation = 99'])
        pg = r.choice(['p.grp = 3', 'p.grp < 3', 'p.grp IN (3, 28)', 'p.grp < 20'])
        cond = r.choice(['st.qty > (SELECT 0.5 * sum(l.qty) FROM ox_sales l WHERE l.part = st.part AND l.supp = st.supp)',
                         'st.qty >= (SELECT count(*) FROM ox_sales l WHERE l.part = st.part AND l.supp = st.supp)',
                         'EXISTS (SELECT 1 FROM ox_sales l WHERE l.part = st.part AND l.supp = st.supp AND l.qty = 2)',
                         'st.qty > 3'])
        shape = r.choice(list(OUTER_JOINS) + ['semi', 'semi'])
        return OUTER_JOINS[shape].format(ss=ss, pg=pg, cond=cond, sk=r.choice(['id', 'id', 'idn']))

    def settings(self):
        r = self.rng
        s = {'bloomfilter.runtime_filter_min_rows': r.choice(['0', '10000']),
             'bloomfilter.runtime_filter_max_pass': r.choice(['0.5', '1']),
             'work_mem': r.choice(['64kB', '4MB']),
             'enable_mergejoin': r.choice(['on', 'off'])}
        s.update(parallel_settings(r))
        return s


class KeysetGenerator:
    """Small selections of a dimension joined to indexed facts (the exact set)."""

    def __init__(self, rng):
        self.rng = rng
        self.shape = None

    def query(self):
        r = self.rng
        pk = r.choice(['k4', 'k8', 'k2'])
        dk = r.choice(['k4', 'k8', 'k2'])
        if pk == 'k8' or dk == 'k8':
            pk = dk = 'k8'  # k8 holds the key times 3
        lo = r.choice([0, 5, 300, 590])
        sd = r.choice([f'd.grp = {lo}', f'd.grp BETWEEN {lo} AND {lo + r.choice([1, 4, 20, 60])}',
                       f'd.grp < {r.choice([2, 30, 100, 140])}', f'd.grp % 97 = {lo % 97}', 'd.k4 IS NULL'])
        self.shape = r.choice(list(KEYSET_JOINS) + ['inner', 'inner', 'semi_in'])
        return KEYSET_JOINS[self.shape].format(pk=pk, dk=dk, sd=sd, v=r.choice([3, 50, 90]),
                                               fact=r.choice(['kx_fact', 'kx_ordered']))

    def settings(self):
        r = self.rng
        s = {'bloomfilter.runtime_filter_min_rows': '0',
             'bloomfilter.runtime_filter_max_pass': r.choice(['1', '0.5']),
             'bloomfilter.runtime_filter_index_lookups': r.choice(['on', 'on', 'on', 'off']),
             'enable_nestloop': 'on' if self.shape == 'lateral' else r.choice(['off', 'off', 'on']),
             'enable_mergejoin': r.choice(['off', 'off', 'on']),
             'enable_indexscan': r.choice(['off', 'off', 'on']),
             'enable_bitmapscan': r.choice(['off', 'on']),
             'enable_indexonlyscan': 'off',
             'max_parallel_workers_per_gather': '0'}
        s.update(parallel_settings(r))
        return s


def connect(port, dbname='postgres'):
    conn = psycopg2.connect(host='127.0.0.1', port=port, user='postgres', dbname=dbname,
                            options='-c session_preload_libraries=bloomfilter -c statement_timeout=60000')
    conn.autocommit = True
    return conn


def setup():
    remote = connect(REMOTE_PORT)
    with remote.cursor() as cur:
        cur.execute('CREATE EXTENSION IF NOT EXISTS bloomfilter')
        for name, sql in FACTS.items():
            cur.execute(f'DROP TABLE IF EXISTS {name}; CREATE TABLE {name} AS {sql}; ANALYZE {name}')
        # the same facts in a database of another encoding: its text arrives converted
        cur.execute("SELECT 1 FROM pg_database WHERE datname = 'diff_latin'")
        if cur.fetchone() is None:
            cur.execute("CREATE DATABASE diff_latin ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
    remote.close()
    latin = connect(REMOTE_PORT, 'diff_latin')
    with latin.cursor() as cur:
        cur.execute('CREATE EXTENSION IF NOT EXISTS bloomfilter')
        for name, sql in FACTS.items():
            cur.execute(f'DROP TABLE IF EXISTS {name}; CREATE TABLE {name} AS {sql}; ANALYZE {name}')
    latin.close()
    local = connect(LOCAL_PORT)
    with local.cursor() as cur:
        cur.execute('CREATE EXTENSION IF NOT EXISTS bloomfilter; CREATE EXTENSION IF NOT EXISTS postgres_fdw')
        cur.execute('DROP SERVER IF EXISTS diff_remote CASCADE')
        cur.execute(f"""CREATE SERVER diff_remote FOREIGN DATA WRAPPER postgres_fdw
            OPTIONS (host '127.0.0.1', port '{REMOTE_PORT}', dbname 'postgres', extensions 'bloomfilter')""")
        cur.execute("CREATE USER MAPPING FOR CURRENT_USER SERVER diff_remote OPTIONS (user 'postgres')")
        cur.execute('DROP SERVER IF EXISTS diff_latin CASCADE')
        cur.execute(f"""CREATE SERVER diff_latin FOREIGN DATA WRAPPER postgres_fdw
            OPTIONS (host '127.0.0.1', port '{REMOTE_PORT}', dbname 'diff_latin', extensions 'bloomfilter')""")
        cur.execute("CREATE USER MAPPING FOR CURRENT_USER SERVER diff_latin OPTIONS (user 'postgres')")
        for name, sql in list(FACTS.items()) + list(DIMS.items()):
            cur.execute(f'DROP TABLE IF EXISTS {name}; CREATE TABLE {name} AS {sql}; ANALYZE {name}')
        # a case-insensitive collation where the server has ICU (else "C")
        cur.execute("""DO $$ BEGIN
            CREATE COLLATION IF NOT EXISTS diff_ci (provider = icu, locale = 'und-u-ks-level2',
                                                    deterministic = false);
            EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
                CREATE COLLATION IF NOT EXISTS diff_ci FROM "C";
            END $$""")
        for name in FACTS:
            cur.execute(f"CREATE FOREIGN TABLE r{name} {FACT_COLUMNS} SERVER diff_remote "
                        f"OPTIONS (table_name '{name}')")
            cur.execute(f"CREATE FOREIGN TABLE l{name} {FACT_COLUMNS} SERVER diff_latin "
                        f"OPTIONS (table_name '{name}')")
            # some analyzed (estimates), some not (postgres_fdw's defaults)
            if name == 'fa':
                cur.execute(f'ANALYZE r{name}; ANALYZE l{name}')
        setup_star(cur)
        if 'keyset' in MODES:
            for sql in KEYSET_SETUP:
                cur.execute(sql)
        if 'outer' in MODES:
            for sql in OUTER_SETUP:
                cur.execute(sql)
    return local


# Indexed copies of the facts (scans mode): an index on each key, and one on
# v that covers every column (index-only scans of any key); fp_i is
# partitioned by id.
SCAN_TABLES = ['fa_i', 'fb_i', 'fp_i']


def setup_scans(cur):
    for name in FACTS:
        cur.execute(f'DROP TABLE IF EXISTS {name}_i; CREATE TABLE {name}_i AS SELECT * FROM {name}')
    cur.execute(f'DROP TABLE IF EXISTS fp_i; CREATE TABLE fp_i {FACT_COLUMNS} PARTITION BY RANGE (id)')
    for i, (lo, hi) in enumerate([(0, 7000), (7000, 14000), (14000, 20001)]):
        cur.execute(f'CREATE TABLE fp_i_{i} PARTITION OF fp_i FOR VALUES FROM ({lo}) TO ({hi})')
    cur.execute('INSERT INTO fp_i SELECT * FROM fa')
    for name in SCAN_TABLES:
        for cols in ['k4', 'k8', 'kn', 'kt', 'k4, v', 'v) INCLUDE (id, k4, k8, kn, kt, g']:
            cur.execute(f'CREATE INDEX ON {name} ({cols})')
        # all-visible pages: index-only scans read no heap page
        cur.execute(f'VACUUM ANALYZE {name}')


class Generator:
    def __init__(self, rng, mode):
        self.rng, self.mode = rng, mode

    def fact_table(self):
        r = self.rng
        if self.mode == 'fdw' and r.random() < 0.85:
            return r.choice(['rfa', 'rfb'])
        return r.choice(['fa', 'fb'])

    def fact(self, key):
        """A fact source with columns (id, key, v, g): a table or a subquery."""
        r = self.rng
        t = self.fact_table()
        base = f'SELECT id, {key} AS key, v, g FROM {t}'
        n = r.choice([1, 10, 100, 1000, 5000])
        m = r.choice([0, 5, 500, 11000, 19990])
        shape = r.choice(['table', 'table', 'table', 'table', 'where', 'where', 'limit', 'limit', 'offset',
                          'limit_offset', 'nested_limit', 'limit_where', 'ties', 'distinct_on_key',
                          'distinct_on_other', 'window_rank', 'window_count', 'group_key',
                          'group_having', 'group_other', 'distinct', 'union_all', 'union',
                          'limit_above_filter', 'order_only', 'except', 'cte', 'cte_subquery',
                          'cte_readers', 'cte_readers_group'])
        if shape == 'table':
            return t, key
        fill = {'base': base, 'key': key, 'n': n, 'm': m, 'm100': m % 100}
        if shape in ('where', 'cte'):
            fill['w'] = r.choice([10, 500, 990])
        elif shape == 'cte_subquery':
            fill['s'] = r.choice([20, 40])
        elif shape in ('cte_readers', 'cte_readers_group'):
            fill.update(g1=r.choice([1, 3, 9]), g2=r.choice([2, 5, 30]), w=r.choice([10, 500, 990]))
            fill['join'] = r.choice(['JOIN', 'LEFT JOIN'])
            fill['op'] = r.choice(['=', '<', '<>'])
            # the nullable side's WHERE must not move into the CTE
            fill['extra'] = '' if fill['join'] == 'JOIN' or r.random() < 0.5 else \
                f" AND (b.v IS NULL OR b.v > {fill['w']})"
        elif shape == 'window_rank':
            fill['part'] = r.choice(['key', 'g'])
            fill['rn'] = r.choice([1, 2, 5])
        elif shape == 'group_having':
            fill['c'] = r.choice([1, 3, 40])
        elif shape in ('union_all', 'union', 'except'):
            fill['t2'] = self.fact_table()
            if shape == 'union_all' and r.random() < 0.3:
                shape, fill['n10'] = 'union_all_limit', max(n, 10)
        return FACT_SHAPES[shape].format(**fill), 'key'

    def dim(self):
        """A dimension source and a selection on it."""
        r = self.rng
        d = r.choice(['da', 'da', 'db', 'dv'])
        sel = r.choice(['{a}.s1', '{a}.s2', '{a}.s3', 'NOT {a}.s1', 'true', '{a}.x < 3'])
        return d, sel

    def query(self):
        r = self.rng
        if self.mode == 'fdw' and r.random() < 0.35:
            return self.fdw_keys_query()
        fkey, dkey = r.choice(KEYS)
        if self.mode == 'fdw' and fkey == 'kt' and r.random() < 0.7:
            fkey, dkey = 'k4', 'k4'
        src, key = self.fact(fkey)
        d, sel = self.dim()
        sd, sd0 = sel.format(a='d'), sel.format(a='d0')
        pk = f'p.{key}'
        dk = f'd.{dkey}' if '::' not in dkey else f'(d.{dkey})'
        shape = self.shape = r.choice(['inner', 'inner', 'inner', 'inner', 'inner_agg', 'three',
                                       'semi_in', 'semi_in', 'semi_exists', 'semi_exists',
                                       'anti_exists', 'not_in', 'left', 'right', 'full', 'dim_left',
                                       'limit_above', 'semi_in_sub', 'join_in_sub', 'two_facts'])
        extra = {}
        if shape == 'two_facts':
            src2, key2 = self.fact(fkey)
            extra = {'src2': src2, 'key2': key2}
        elif shape == 'three':
            d2, sel2 = self.dim()
            extra = {'d2': d2, 'se': sel2.format(a='e')}
        elif shape == 'limit_above':
            extra = {'n': r.choice([1, 50, 3000])}
        return JOINS[shape].format(src=src, pk=pk, dk=dk, d=d, sd=sd, sd0=sd0, **extra)

    def fdw_keys_query(self):
        """A join of a foreign fact on text keys (ku: with non-ASCII characters)
        or on two keys, over the remote database of the local encoding (rfa,
        rfb) or a LATIN1 one (lfa, lfb)."""
        r = self.rng
        self.shape = r.choice(list(FDW_KEY_JOINS))
        on = ' AND '.join(f'p.{a} = d.{b}' for a, b in r.choice(FDW_KEY_SETS))
        d, sel = self.dim()
        return FDW_KEY_JOINS[self.shape].format(f=r.choice(['rfa', 'rfb', 'rfa', 'rfb', 'lfa', 'lfb']), d=d,
                                                on=on, sd=sel.format(a='d'))

    def settings(self):
        r = self.rng
        s = {'bloomfilter.runtime_filter_min_rows': r.choice(['0', '0', '100', '10000']),
             'bloomfilter.runtime_filter_max_pass': r.choice(['1', '1', '0.5', '0.9']),
             'bloomfilter.runtime_filter_fpr': r.choice(['0.01', '0.01', '0.3']),
             'bloomfilter.runtime_filter_max_size': r.choice(['4096', '4096', '1']),
             'enable_nestloop': r.choice(['off', 'off', 'on']),
             'enable_mergejoin': r.choice(['off', 'off', 'on']),
             'work_mem': r.choice(['4MB', '4MB', '256kB']) if self.shape != 'not_in' else '4MB',
             'max_parallel_workers_per_gather': '0'}
        s.update(parallel_settings(r))
        return s


class ScanGenerator(Generator):
    """Facts read through their indexes: a range of v or of the key, and the
    scan kinds chosen by random enable_* settings."""

    def fact_table(self):
        return self.rng.choice(SCAN_TABLES)

    def fact(self, key):
        r = self.rng
        t = self.fact_table()
        lo = r.choice([0, 100, 500, 900])
        v_range = f'v BETWEEN {lo} AND {lo + r.choice([5, 50, 300])}'
        shape = r.choice(['v', 'v', 'key', 'or', 'table', 'group_key'])
        if shape == 'table':
            return t, key
        if shape == 'key':
            where = f'{key} IS NOT NULL AND {key} < {r.choice([50, 1000, 5000])}' if key != 'kt' else \
                f"{key} < 'k{r.choice([1, 3, 5])}'"
        elif shape == 'or':
            where = f'({v_range} OR v > {r.choice([950, 990])})'
        else:
            where = v_range
        base = f'SELECT id, {key} AS key, v, g FROM {t} WHERE {where}'
        if shape == 'group_key':
            return f'(SELECT min(id) AS id, key, sum(v)::int4 AS v, count(*)::int4 AS g FROM ({base}) x GROUP BY key)', \
                'key'
        return f'({base})', 'key'

    def settings(self):
        s = super().settings()
        r = self.rng
        for name in ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan']:
            s[name] = r.choice(['on', 'off'])
        s['enable_seqscan'] = r.choice(['off', 'off', s['enable_seqscan']])
        s['min_parallel_index_scan_size'] = '0' if s['max_parallel_workers_per_gather'] != '0' else '512kB'
        return s


class TransferGenerator(Generator):
    """Chains, snowflakes and equivalence classes of local tables."""

    # the key pairs of a join of two facts, or of a fact and a dimension:
    # the same or other types of one hash family, and text under two collations
    PAIRS = [('k4', 'k4'), ('k4', 'k8'), ('k8', 'k4'), ('k8', 'k8'), ('kn', 'kn'), ('kt', 'kt'),
             ('kt', 'kt COLLATE diff_ci'), ('kt COLLATE diff_ci', 'kt'), ('k4', 'kn'), ('kn', 'k8')]

    def query(self):
        r = self.rng
        p, q = r.choice(['fa', 'fb']), r.choice(['fa', 'fb'])
        d, sel = self.dim()
        e, sel2 = self.dim()
        pk, qk = r.choice(self.PAIRS)
        dk = r.choice(['kt', 'kt COLLATE diff_ci'] if 'kt' in pk + qk else ['k4', 'k8', 'kn'])
        qd_key = r.choice(['k4', 'k8', 'kn'])
        self.shape = shape = r.choice(list(TRANSFER_JOINS))
        fill = {
            'p': p, 'q': q, 'd': d, 'e': e, 'pk': pk, 'qk': qk, 'dk': dk,
            'join': r.choice(['JOIN', 'JOIN', 'JOIN', 'LEFT JOIN', 'RIGHT JOIN']),
            'pq': r.choice(['p.id = q.id', f'p.{pk} = q.{qk}', 'p.k4 = q.k4 AND p.g = q.g']),
            'qd': f'q.{qd_key} = d.{qd_key}' if r.random() < 0.5 else f'q.{qk} = d.{dk}',
            'sd': sel.format(a='d'), 'se': sel2.format(a='e'),
            'neg': r.choice(['', '', 'NOT']),
        }
        return TRANSFER_JOINS[shape].format(**fill)

    def settings(self):
        s = super().settings()
        s['join_collapse_limit'] = self.rng.choice(['1', '1', '8'])
        s['from_collapse_limit'] = s['join_collapse_limit']
        return s


# Partitioned and inherited copies of fa (mode prune), made anew for each
# seed with random bounds of the key: pr_range (int4, range, maybe a
# default partition and a second level), pr_list (int4, list), pr_k8 (int8,
# range), pr_day (date, range by a month or so), pr_inh (inheritance
# children with CHECK constraints, one NOT VALID with a row outside it).
PRUNE_TABLES = {'pr_range': 'k4', 'pr_list': 'k4', 'pr_k8': 'k8', 'pr_day': 'day', 'pr_inh': 'k4'}
PRUNE_COLUMNS = '(id int4, k4 int4, k8 int8, day date, g int4, v int4)'
PRUNE_ROWS = "SELECT id, k4, k8, DATE '2024-01-01' + k4 % 400, g, v FROM fa"
# Each table's bounds of its key (days after 2024-01-01 for pr_day), for
# selections of the keys at and beside them.
PRUNE_CUTS = {}


def cuts(rng, lo, hi, n):
    return sorted(set(rng.randrange(lo, hi) for _ in range(n)))


def setup_prune(cur, rng):
    for name in PRUNE_TABLES:
        cur.execute(f'DROP TABLE IF EXISTS {name} CASCADE')
    # int4 range: MINVALUE, random cuts, MAXVALUE or a default; one
    # partition partitioned again, by the key or by g
    default = rng.random() < 0.5
    if default:
        points = [str(c) for c in cuts(rng, -10, 6100, rng.randint(2, 7))]
        points = points if len(points) >= 2 else ['0', '3000']
    else:
        points = ['MINVALUE'] + [str(c) for c in cuts(rng, -10, 6100, rng.randint(1, 6))] + ['MAXVALUE']
    PRUNE_CUTS['pr_range'] = [int(p) for p in points if p not in ('MINVALUE', 'MAXVALUE')]
    cur.execute(f'CREATE TABLE pr_range {PRUNE_COLUMNS} PARTITION BY RANGE (k4)')
    two = rng.randrange(len(points) - 1)
    for i in range(len(points) - 1):
        sub = ''
        if i == two:
            sub = rng.choice([' PARTITION BY RANGE (k4)', ' PARTITION BY LIST (g)'])
        cur.execute(f'CREATE TABLE pr_range_{i} PARTITION OF pr_range '
                    f'FOR VALUES FROM ({points[i]}) TO ({points[i + 1]}){sub}')
        if 'RANGE' in sub:
            mid = rng.randrange(-10, 6100)
            PRUNE_CUTS['pr_range'].append(mid)
            cur.execute(f'CREATE TABLE pr_range_{i}_a PARTITION OF pr_range_{i} FOR VALUES FROM (MINVALUE) TO ({mid})')
            cur.execute(f'CREATE TABLE pr_range_{i}_b PARTITION OF pr_range_{i} FOR VALUES FROM ({mid}) TO (MAXVALUE)')
        elif 'LIST' in sub:
            cur.execute(f'CREATE TABLE pr_range_{i}_a PARTITION OF pr_range_{i} FOR VALUES IN (0, 1, 2, 3, 4)')
            cur.execute(f'CREATE TABLE pr_range_{i}_b PARTITION OF pr_range_{i} DEFAULT')
    if default:
        cur.execute('CREATE TABLE pr_range_default PARTITION OF pr_range DEFAULT')
    cur.execute(f'INSERT INTO pr_range {PRUNE_ROWS}' + ('' if default else ' WHERE k4 IS NOT NULL'))
    # int4 list: random groups of the keys that occur (k4 % 7 picks the
    # group), NULL in one of them, a default for the rest
    cur.execute(f'CREATE TABLE pr_list {PRUNE_COLUMNS} PARTITION BY LIST (k4)')
    values = sorted(set(rng.randrange(0, 6000) for _ in range(40)))
    groups = [values[i::3] for i in range(3)]
    PRUNE_CUTS['pr_list'] = values
    for i, group in enumerate(groups):
        items = ', '.join(str(v) for v in group) + (', NULL' if i == 0 else '')
        cur.execute(f'CREATE TABLE pr_list_{i} PARTITION OF pr_list FOR VALUES IN ({items})')
    cur.execute('CREATE TABLE pr_list_default PARTITION OF pr_list DEFAULT')
    cur.execute(f'INSERT INTO pr_list {PRUNE_ROWS}')
    # int8 range (the keys are 3 * k4)
    points = ['MINVALUE'] + [str(c) for c in cuts(rng, 0, 18000, rng.randint(1, 5))] + ['MAXVALUE']
    PRUNE_CUTS['pr_k8'] = [int(p) for p in points if p not in ('MINVALUE', 'MAXVALUE')]
    cur.execute(f'CREATE TABLE pr_k8 {PRUNE_COLUMNS} PARTITION BY RANGE (k8)')
    for i in range(len(points) - 1):
        cur.execute(f'CREATE TABLE pr_k8_{i} PARTITION OF pr_k8 FOR VALUES FROM ({points[i]}) TO ({points[i + 1]})')
    cur.execute(f'INSERT INTO pr_k8 {PRUNE_ROWS} WHERE k8 IS NOT NULL')
    # dates: a month or so each, open at both ends
    days = cuts(rng, 0, 400, rng.randint(2, 12))
    PRUNE_CUTS['pr_day'] = days
    points = ["'-infinity'"] + [f"DATE '2024-01-01' + {d}" for d in days] + ["'infinity'"]
    cur.execute(f'CREATE TABLE pr_day {PRUNE_COLUMNS} PARTITION BY RANGE (day)')
    for i in range(len(points) - 1):
        cur.execute(f'CREATE TABLE pr_day_{i} PARTITION OF pr_day FOR VALUES FROM ({points[i]}) TO ({points[i + 1]})')
    cur.execute(f'INSERT INTO pr_day {PRUNE_ROWS} WHERE k4 IS NOT NULL')
    # inheritance: children by ranges of the key with CHECKs of several
    # forms; one NOT VALID child also holds a row outside its CHECK
    cur.execute(f'CREATE TABLE pr_inh {PRUNE_COLUMNS}')
    points = [-1] + cuts(rng, 0, 6000, rng.randint(1, 4)) + [6000]
    invalid = rng.randrange(len(points) - 1)
    PRUNE_CUTS['pr_inh'] = points
    for i in range(len(points) - 1):
        lo, hi = points[i], points[i + 1]
        check = rng.choice([f'k4 >= {lo} AND k4 < {hi}', f'k4 BETWEEN {lo} AND {hi - 1}',
                            f'{lo} <= k4 AND k4 <= {hi - 1}', f'k4 > {lo - 1} AND k4 < {hi}::int8',
                            f'k4 = ANY (ARRAY[{lo}, {hi - 1}]) OR k4 BETWEEN {lo} AND {hi}'])
        cur.execute(f'CREATE TABLE pr_inh_{i} () INHERITS (pr_inh)')
        cur.execute(f'INSERT INTO pr_inh_{i} {PRUNE_ROWS} WHERE k4 >= {lo} AND k4 < {hi}')
        if i == invalid:
            cur.execute(f"INSERT INTO pr_inh_{i} VALUES (-1, {rng.randrange(0, 6000)}, NULL, NULL, 0, 0)")
            cur.execute(f'ALTER TABLE pr_inh_{i} ADD CHECK ({check}) NOT VALID')
        else:
            cur.execute(f'ALTER TABLE pr_inh_{i} ADD CHECK ({check})')
    cur.execute(f'INSERT INTO pr_inh {PRUNE_ROWS} WHERE k4 IS NULL')
    for name in PRUNE_TABLES:
        cur.execute(f'ANALYZE {name}')


class PruneGenerator(Generator):
    """Joins of the partitioned and inherited facts to dimensions selected by
    other columns than the key (a condition on the key would let the planner
    prune), rebuilt under nested loops, in parallel plans."""

    def query(self):
        r = self.rng
        t = r.choice(list(PRUNE_TABLES))
        key = PRUNE_TABLES[t]
        d = r.choice(['da', 'db', 'dv'])
        dk = {'k4': 'd.k4', 'k8': 'd.k8', 'day': "(DATE '2024-01-01' + d.k4 % 400)"}[key]
        lo = r.randrange(0, 6000)
        sd = r.choice([f'd.did BETWEEN {lo} AND {lo + r.choice([0, 3, 50, 400])}', 'd.s3', 'd.x < 2',
                       f'd.did IN ({lo}, {r.randrange(0, 6000)})', f'd.did < {r.choice([0, 5])}',
                       'd.k4 IS NULL', 'true', 'bound', 'bound', 'bound'])
        if sd == 'bound':
            # keys at a bound and beside it, by an expression (a condition
            # on the key itself would let the planner prune)
            c = r.choice(PRUNE_CUTS[t] or [0])
            a, b = r.choice([(c, c), (c - 1, c - 1), (c - 1, c), (c - 5, c - 1), (c, c + 5), (c + 1, c + 1)])
            bk = {'k4': 'd.k4', 'k8': 'd.k8', 'day': 'd.k4 % 400'}[key]
            sd = f'{bk} + 0 BETWEEN {a} AND {b}'
        pk = f'p.{key}'
        self.shape = shape = r.choice(['inner', 'inner', 'inner_agg', 'semi_in', 'semi_exists', 'lateral',
                                       'anti_exists', 'left'])
        if shape == 'lateral':
            return (f'SELECT t.lo, q.c FROM (VALUES ({lo}), ({r.randrange(0, 6000)}), (0)) t(lo), '
                    f'LATERAL (SELECT count(*) AS c, sum(p.v) AS s FROM {t} p JOIN {d} d ON {pk} = {dk} '
                    f'WHERE d.did BETWEEN t.lo AND t.lo + {r.choice([0, 10, 500])}) q')
        return JOINS[shape].format(src=t, pk=pk, dk=dk, d=d, sd=sd, sd0=sd)

    def settings(self):
        s = super().settings()
        r = self.rng
        s['enable_nestloop'] = 'on' if self.shape == 'lateral' else s['enable_nestloop']
        s['enable_partitionwise_join'] = r.choice(['on', 'off'])
        s['enable_partition_pruning'] = r.choice(['on', 'on', 'off'])
        return s


def filter_lines(text):
    return sum(1 for line in text.splitlines() if 'Runtime Filter' in line)


def parallel_settings(r):
    """Parallel plans one time in four; then half the time a hash table in
    each process, and any build side worth computing once for all
    (bloomfilter.runtime_filter_build_once) or the default's."""
    if r.random() < 0.25:
        return {'max_parallel_workers_per_gather': '2', 'parallel_setup_cost': '0',
                'parallel_tuple_cost': '0', 'min_parallel_table_scan_size': '0',
                'enable_parallel_hash': r.choice(['on', 'off']),
                'bloomfilter.runtime_filter_build_once_min_cost': r.choice(['0', '1000'])}
    return {'parallel_setup_cost': '1000', 'parallel_tuple_cost': '0.1', 'min_parallel_table_scan_size': '8MB',
            'enable_parallel_hash': 'on', 'bloomfilter.runtime_filter_build_once_min_cost': '1000'}


def run(cur, sql):
    """The rows of sql, sorted, or the error."""
    try:
        cur.execute(sql)
        return sorted(tuple('' if v is None else str(v) for v in row) for row in cur.fetchall()), None
    except psycopg2.Error as e:
        return None, (e.pgcode, str(e).strip().splitlines()[0])


def explain(cur, sql, options=''):
    """The plan of sql with the filters on, as text, or the error."""
    try:
        cur.execute(f'EXPLAIN ({options}VERBOSE, COSTS OFF) {sql}')
        return '\n'.join(row[0] for row in cur.fetchall()), None
    except psycopg2.Error as e:
        return '', (e.pgcode, str(e).strip().splitlines()[0])


def filter_over_cte(plan):
    """Whether a filter node of the plan is over a CTE's scan."""
    lines = plan.splitlines()
    for i, line in enumerate(lines):
        if 'BloomRuntimeFilter' in line:
            below = next((x for x in lines[i + 1:] if '->' in x), '')
            if 'CTE Scan' in below:
                return True
    return False


def main():
    local = setup()
    cur = local.cursor()
    if 'scans' in MODES:
        setup_scans(cur)
    total = {'queries': 0, 'local': 0, 'remote': 0, 'remote_text': 0, 'remote_keys': 0, 'transferred': 0,
             'prebuilt': 0, 'computed_once': 0, 'read_first': 0, 'differences': 0, 'errors': 0, 'timeouts': 0}
    failed = False
    for seed, mode in ((seed, mode) for seed in SEEDS for mode in MODES):
        rng = random.Random(f'{seed}-{mode}')
        cur.execute('RESET ALL')  # no mode's settings in the next
        gen = StarGenerator(rng) if mode == 'star' else KeysetGenerator(rng) if mode == 'keyset' else \
            OuterGenerator(rng) if mode == 'outer' else \
            {'scans': ScanGenerator, 'transfer': TransferGenerator,
             'prune': PruneGenerator}.get(mode, Generator)(rng, mode)
        if mode == 'prune':
            setup_prune(cur, rng)
        counts = {'queries': 0, 'local': 0, 'remote': 0, 'remote_text': 0, 'remote_keys': 0, 'transferred': 0,
                  'prebuilt': 0, 'computed_once': 0, 'read_first': 0, 'differences': 0, 'errors': 0, 'timeouts': 0}
        wrapped = 0
        exact_sets = lookups = big_lookups = 0
        skipping = 0
        deferred = deferred_built = inner_first = cte_filtered = cte_moved = 0
        for i in range(QUERIES):
            sql = gen.query()
            for name, value in gen.settings().items():
                cur.execute(f"SET {name} = '{value}'")
            cur.execute('SET bloomfilter.runtime_filter = on')
            cur.execute('SET bloomfilter.runtime_filter_transfer = on')
            options = 'ANALYZE, TIMING OFF, SUMMARY OFF, ' if mode == 'prune' else ''
            text, err = explain(cur, sql, options)
            on, on_err = run(cur, sql)
            if mode == 'transfer':
                # without transfer: the same rows too, and fewer filters or as many
                cur.execute('SET bloomfilter.runtime_filter_transfer = off')
                text_off, err_off = explain(cur, sql)
                untransferred, untransferred_err = run(cur, sql)
                cur.execute('SET bloomfilter.runtime_filter_transfer = on')
                if filter_lines(text) > filter_lines(text_off):
                    counts['transferred'] += 1
                if untransferred != on or (untransferred_err is None) != (on_err is None) or err_off:
                    counts['differences'] += 1
                    print(f'difference, transfer on and off ({mode}, seed {seed}, query {i}): {sql}')
                    print('  on:\n  ' + text.replace('\n', '\n  '))
                    print('  off:\n  ' + text_off.replace('\n', '\n  '))
            if 'WITH c AS (' in sql and mode != 'prune':
                # the readers' conditions moved into the CTE: the plan changes
                cur.execute('SET bloomfilter.runtime_filter_cte_conditions = off')
                unmoved, _ = explain(cur, sql)
                cur.execute('RESET bloomfilter.runtime_filter_cte_conditions')
                cte_moved += unmoved != text
            if 'Build After Rows' in text and not on_err:
                deferred += 1
                analyzed, _ = explain(cur, sql, 'ANALYZE, TIMING OFF, SUMMARY OFF, ')
                deferred_built += 'Built: true' in analyzed
            if mode == 'keyset' and not on_err:
                analyzed, _ = explain(cur, sql, 'ANALYZE, TIMING OFF, SUMMARY OFF, ')
                exact_sets += 'exact set of' in analyzed
                lookups += 'Index Lookups:' in analyzed
                big_lookups += any(int(n) > 1024 for n in re.findall(r'Index Lookups: (\d+) keys', analyzed))
            cur.execute('SET bloomfilter.runtime_filter = off')
            off, off_err = run(cur, sql)
            counts['queries'] += 1
            wrapped += 'BloomRuntimeFilter' in text
            skipping += any(line.strip().startswith('Scans Skipped: ') and
                            not line.strip().startswith('Scans Skipped: 0') for line in text.splitlines())
            counts['prebuilt'] += 'BloomFilterPrebuild' in text
            inner_first += 'Build: inner side first' in text
            cte_filtered += filter_over_cte(text)
            counts['computed_once'] += 'BloomComputeOnce' in text
            counts['read_first'] += 'BloomOuterFirst' in text
            remote_lines = [line for line in text.splitlines() if 'Runtime Filter' in line and '(remote)' in line]
            counts['remote_text'] += any('.kt ' in line or '.ku ' in line for line in remote_lines)
            counts['remote_keys'] += len(remote_lines) > 1
            if 'Runtime Filter' in text:
                if '(remote)' in text:
                    counts['remote'] += 1
                if any('Runtime Filter' in line and '(remote)' not in line for line in text.splitlines()):
                    counts['local'] += 1
            if on_err or off_err:
                timed_out = on_err and off_err and on_err[0] == off_err[0] == '57014'
                counts['timeouts' if timed_out else 'errors'] += 1
                print(f'{"timeout" if timed_out else "error"} ({mode}, seed {seed}, query {i}): {sql}')
                print(f'  off: {off_err}; on: {on_err}')
            if on != off or (on_err is None) != (off_err is None) or err:
                counts['differences'] += 1
                print(f'difference ({mode}, seed {seed}, query {i}): {sql}')
                print(f'  off: {len(off) if off is not None else off_err} rows; '
                      f'on: {len(on) if on is not None else on_err} rows; explain error {err}')
                if on is not None and off is not None:
                    print(f'  only off: {sorted(set(off) - set(on))[:5]}; only on: {sorted(set(on) - set(off))[:5]}')
                print('  ' + text.replace('\n', '\n  '))
        ok = counts['differences'] == 0 and counts['errors'] == 0
        failed |= not ok
        print(f"{'ok' if ok else 'FAILED'} - {mode}, seed {seed}: {counts['queries']} random joins, "
              f"{counts['local']} with a local filter, {counts['remote']} with a remote filter "
              f"({counts['remote_text']} of a text key, {counts['remote_keys']} with several), "
              f"{counts['transferred']} with filters transferred, {counts['prebuilt']} built first "
              f"({deferred} deferred, {deferred_built} of them built, {inner_first} from an inner side read first), "
              f"{cte_filtered} with a filter at a CTE's scan, {cte_moved} with conditions moved into a CTE, "
              f"{counts['computed_once']} with a build side computed once, "
              f"{counts['read_first']} with a probe side read first, "
              f"{counts['differences']} differences, {counts['errors']} errors, {counts['timeouts']} timeouts"
              + (f", {wrapped} with the filter node over an index or bitmap scan" if mode == 'scans' else '')
              + (f", {exact_sets} with an exact set, {lookups} with index lookups ({big_lookups} of more than 1,024 keys)" if mode == 'keyset' else '')
              + (f", {skipping} with a partition or child skipped" if mode == 'prune' else ''),
              flush=True)
        for k in total:
            total[k] += counts[k]
    print(f"runtime-filter-diff-counts: queries {total['queries']}, local filter {total['local']}, "
          f"remote filter {total['remote']} (text {total['remote_text']}, several {total['remote_keys']}), "
          f"transferred {total['transferred']}, "
          f"built first {total['prebuilt']}, "
          f"computed once {total['computed_once']}, read first {total['read_first']}, "
          f"differences {total['differences']}, errors {total['errors']}, "
          f"timeouts {total['timeouts']}")
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
