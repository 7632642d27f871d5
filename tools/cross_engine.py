#!/usr/bin/python3
"""Cross-engine checks: the same values give the same filter bytes in
PostgreSQL and SQLite, and a filter built by one engine answers the same as
the other for every value, both ways.

Run with a throwaway server's PG* variables (tools/suites/40-cross.sh does it):
    /usr/bin/python3 tools/cross_engine.py build/bloomfilter
Prints one line per check and "cross: N passed, M failed".
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Checks, pg, sqlite_with_extension  # noqa: E402

EXT = sys.argv[1] if len(sys.argv) > 1 else 'build/bloomfilter'
check = Checks('cross')
db = sqlite_with_extension(EXT)
pg('DROP EXTENSION IF EXISTS bloomfilter CASCADE; CREATE EXTENSION bloomfilter;')

# The data: integers with a stride, text with non-ASCII characters, doubles
# both integral and not; the same rows in both engines.
N = 20000
pg(f'''
DROP TABLE IF EXISTS cross_data;
CREATE TABLE cross_data AS
  SELECT i::int8 AS k, ('key-' || i || '-é✓') AS t, (i / 4.0)::float8 AS r, i::int4 AS k4
  FROM generate_series(1, {N}, 3) AS i;
''')
db.executescript(f'''
CREATE TABLE cross_data(k INTEGER, t TEXT, r REAL, k4 INTEGER);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 3 FROM s WHERE i + 3 <= {N})
INSERT INTO cross_data SELECT i, 'key-' || i || '-é✓', i / 4.0, i FROM s;
''')
check('same rows in both engines',
      pg('SELECT count(*) FROM cross_data') == str(db.execute('SELECT count(*) FROM cross_data').fetchone()[0]))

# 1. Same values, same bytes.
builds = [
    ('bloom_agg over int8', 'bloom_agg(k)', 'bloom_agg(k)'),
    ('bloom_agg over text', 'bloom_agg(t)', 'bloom_agg(t)'),
    ('bloom_agg over doubles, integral and not', 'bloom_agg(r)', 'bloom_agg(r)'),
    ('int4 column in PostgreSQL, INTEGER in SQLite', 'bloom_agg(k4)', 'bloom_agg(k4)'),
    ('fixed-size bloom_agg(x, capacity, fpr)', 'bloom_agg(k, 50000, 0.001)', 'bloom_agg(k, 50000, 0.001)'),
    ('bloom_union_agg of per-row filters',
     "bloom_union_agg(bloom_add(bloom_empty(100000, 0.01, 42), t))",
     "bloom_union_agg(bloom_add(bloom_empty(100000, 0.01, 42), t))"),
    ('blocked layout, seed 7',
     "bloom_union_agg(bloom_add(bloom_empty(10000, 0.02, 7, 'blocked'), k))",
     "bloom_union_agg(bloom_add(bloom_empty(10000, 0.02, 7, 'blocked'), k))"),
    # 1.2: counting filters (every row counted, then one value removed) and a
    # scalable filter grown past its capacity, the values in the same order
    ('counting layout, seed 3',
     "bloom_union_agg(bloom_add(bloom_empty(10000, 0.01, 3, 'counting'), k))",
     "bloom_union_agg(bloom_add(bloom_empty(10000, 0.01, 3, 'counting'), k))"),
    ('counting, a value removed, classic form',
     "bloom_to_classic(bloom_remove(bloom_union_agg(bloom_add(bloom_empty(10000, 0.01, 3, 'counting'), k)), 4))",
     "bloom_to_classic(bloom_remove(bloom_union_agg(bloom_add(bloom_empty(10000, 0.01, 3, 'counting'), k)), 4))"),
    ('scalable layout grown to 50 times its capacity',
     "bloom_add_all(bloom_empty(130, 0.01, 5, 'scalable'), array_agg(k ORDER BY k))",
     "bloom_add_all(bloom_empty(130, 0.01, 5, 'scalable'), json_group_array(k))"),
]
filters = {}
for name, pg_expr, lite_expr in builds:
    pg_hex = pg(f"SELECT encode(({pg_expr})::bytea, 'hex') FROM cross_data")
    lite_hex = db.execute(f'SELECT lower(hex({lite_expr})) FROM cross_data').fetchone()[0]
    filters[name] = (pg_hex, lite_hex)
    check(f'same bytes: {name}', pg_hex == lite_hex and len(pg_hex) > 64,
          f'PostgreSQL {len(pg_hex) // 2} bytes {pg_hex[:80]}..., SQLite {len(lite_hex or "") // 2} bytes {(lite_hex or "")[:80]}...')

# 1b. Self-sized filters of groups of different sizes combine (the larger
# folded to the smaller, docs/FORMAT.md "Folding"): the same bytes and the
# same estimates in both engines.
GROUPS = ('(SELECT bloom_agg(k) AS f, CASE WHEN k < 1000 THEN 0 WHEN k < 5000 THEN 1 ELSE 2 END AS g '
          'FROM cross_data GROUP BY 2)')
PAIR = ('(SELECT (SELECT f FROM {G} x WHERE g = 0) AS small, (SELECT f FROM {G} x WHERE g = 2) AS large)'
        .format(G=GROUPS))
# cross_hex: a filter's bytes as lowercase hex, in both engines.
pg("DROP FUNCTION IF EXISTS cross_hex(bloom); "
   "CREATE FUNCTION cross_hex(bloom) RETURNS text LANGUAGE sql AS $$ SELECT encode($1::bytea, 'hex') $$")
db.create_function('cross_hex', 1, lambda b: None if b is None else bytes(b).hex(), deterministic=True)
# The rollup: self-sized groups of 1, 1, ~3,300 and ~3,300 values.
ROLLUP = ('(SELECT bloom_agg(k) AS f, CASE WHEN k < 4 THEN 0 WHEN k < 7 THEN 1 WHEN k < 10000 THEN 2 ELSE 3 END '
          'AS g FROM cross_data GROUP BY 2)')
combined = [
    ('bloom_union_agg of groups of very different sizes (size classes kept)',
     f'SELECT {{h}}(bloom_union_agg(f)) FROM {ROLLUP} gs'),
    ('bloom_intersect_agg of groups of very different sizes',
     f'SELECT {{h}}(bloom_intersect_agg(f)) FROM {ROLLUP} gs'),
    ('bloom_union_agg of self-sized groups', f'SELECT {{h}}(bloom_union_agg(f)) FROM {GROUPS} gs'),
    ('bloom_intersect_agg of self-sized groups', f'SELECT {{h}}(bloom_intersect_agg(f)) FROM {GROUPS} gs'),
    ('bloom_union of two sizes', f'SELECT {{h}}(bloom_union(large, small)) FROM {PAIR} p'),
    ('bloom_fold of bloom_agg', 'SELECT {h}(bloom_fold(bloom_agg(k), 4096)) FROM cross_data'),
]
for name, sql in combined:
    pg_hex = pg(sql.format(h='cross_hex'))
    lite_hex = db.execute(sql.format(h='cross_hex')).fetchone()[0]
    check(f'same bytes: {name}', pg_hex == lite_hex and len(pg_hex) > 64,
          f'PostgreSQL {len(pg_hex) // 2} bytes, SQLite {len(lite_hex or "") // 2} bytes')
for name, expr in (('bloom_intersect_cardinality', 'bloom_intersect_cardinality(large, small)'),
                   ('bloom_jaccard', 'bloom_jaccard(large, small)')):
    a = pg(f'SELECT {expr} FROM {PAIR} p')
    b = db.execute(f'SELECT {expr} FROM {PAIR} p').fetchone()[0]
    check(f'{name} of two sizes equal', float(a) == float(b), f'{a} vs {b}')

for name, expr in (('bloom_fpr of the rollup', f'SELECT bloom_fpr(bloom_union_agg(f)) FROM {ROLLUP} gs'),
                   ('bloom_cardinality of the rollup', f'SELECT bloom_cardinality(bloom_union_agg(f)) FROM {ROLLUP} gs')):
    a = pg(expr)
    b = db.execute(expr).fetchone()[0]
    check(f'{name} equal', float(a) == float(b), f'{a} vs {b}')

# 2. A filter from one engine answers in the other as in its own, for members
# and non-members alike (every value of a probe range, positives compared).
def pg_answers(hex_filter, values_sql):
    return pg(f"""SELECT string_agg(v::text, ',' ORDER BY v) FROM ({values_sql}) AS p(v)
                  WHERE bloom_contains(decode('{hex_filter}', 'hex')::bloom, v)""")


def lite_answers(hex_filter, values_sql):
    rows = db.execute(f"""SELECT v FROM ({values_sql}) WHERE bloom_contains(X'{hex_filter}', v) ORDER BY v""")
    return ','.join(str(r[0]) for r in rows)


PG_PROBES = f'SELECT i::int8 FROM generate_series(-1000, {N + 30000}) AS i'
LITE_PROBES = (f'WITH RECURSIVE s(v) AS (SELECT -1000 UNION ALL SELECT v + 1 FROM s WHERE v < {N + 30000}) '
               'SELECT v FROM s')
pg_hex, lite_hex = filters['bloom_agg over int8']
in_pg = pg_answers(pg_hex, PG_PROBES)
in_lite_of_pg = lite_answers(pg_hex, LITE_PROBES)
check('PostgreSQL filter probed in SQLite answers as in PostgreSQL', in_pg == in_lite_of_pg,
      f'{len(in_pg.split(","))} vs {len(in_lite_of_pg.split(","))} positives')
members = set(range(1, N + 1, 3))
positives = set(int(v) for v in in_pg.split(','))
check('every member is found (no false negative)', members <= positives,
      f'{len(members - positives)} missing')
false_pos = len(positives - members) / (N + 31001 - len(members))
check(f'false-positive rate near target ({false_pos:.4f} for 0.01)', false_pos < 0.0115)
in_lite = lite_answers(lite_hex, LITE_PROBES)
in_pg_of_lite = pg_answers(lite_hex, PG_PROBES)
check('SQLite filter probed in PostgreSQL answers as in SQLite', in_lite == in_pg_of_lite)

# Text filter: probe with the member texts and with absent ones.
pg_hex, _ = filters['bloom_agg over text']
text_probe_pg = f"SELECT 'key-' || i || '-é✓' FROM generate_series(1, {N}) AS i"
text_probe_lite = (f"WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < {N}) "
                   "SELECT 'key-' || i || '-é✓' AS v FROM s")
a = pg_answers(pg_hex, text_probe_pg).split(',')
b = lite_answers(pg_hex, text_probe_lite).split(',')
check('text filter answers the same in both engines', sorted(a) == sorted(b), f'{len(a)} vs {len(b)}')

# Mixed types: a filter of doubles probed with integers and with REAL 5.0.
pg_hex, _ = filters['bloom_agg over doubles, integral and not']
row = db.execute(f"SELECT bloom_contains(X'{pg_hex}', 1), bloom_contains(X'{pg_hex}', 1.0), "
                 f"bloom_contains(X'{pg_hex}', 0.25), bloom_contains(X'{pg_hex}', 1.75)").fetchone()
check('PostgreSQL float8 filter: SQLite 1 and 1.0 both members, 0.25 and 1.75 too', row == (1, 1, 1, 1), row)
check('PostgreSQL answers the same for int4, int8, numeric, float8 probes',
      pg(f"SELECT bloom_contains(decode('{pg_hex}', 'hex')::bloom, 1::int4)::text || bloom_contains(decode('{pg_hex}', 'hex')::bloom, 1::numeric)::text || bloom_contains(decode('{pg_hex}', 'hex')::bloom, 0.25::numeric)::text") == 'truetruetrue')

# 3. Canonical hashes agree value by value.
samples = [("0", "0"), ("-1", "-1"), ("9223372036854775807", "9223372036854775807"),
           ("5.0::float8", "5.0"), ("0.5::float8", "0.5"), ("'abc'::text", "'abc'"),
           ("''::text", "''"), ("'\\x00ff'::bytea", "X'00ff'"), ("true", "1"),
           ("1e300::float8", "1e300"), ("'é'::text", "'é'")]
for pg_v, lite_v in samples:
    a = pg(f'SELECT bloom_hash({pg_v}, 0)')
    b = str(db.execute(f'SELECT bloom_hash({lite_v}, 0)').fetchone()[0])
    check(f'bloom_hash({pg_v}) equal', a == b, f'{a} vs {b}')
a = pg("SELECT bloom_hash('abc'::text, 12345)")
b = str(db.execute("SELECT bloom_hash('abc', 12345)").fetchone()[0])
check('bloom_hash with a seed equal', a == b, f'{a} vs {b}')

# 4. bloom_info agrees.
pg_hex, _ = filters['blocked layout, seed 7']
info_pg = pg(f"SELECT layout || ' ' || nbits || ' ' || nhashes || ' ' || seed || ' ' || nbytes || ' ' || bits_set "
             f"FROM bloom_info(decode('{pg_hex}', 'hex')::bloom)")
info_lite = db.execute(f"SELECT json_extract(i, '$.layout') || ' ' || json_extract(i, '$.nbits') || ' ' || "
                       f"json_extract(i, '$.nhashes') || ' ' || json_extract(i, '$.seed') || ' ' || "
                       f"json_extract(i, '$.nbytes') || ' ' || json_extract(i, '$.bits_set') "
                       f"FROM (SELECT bloom_info(X'{pg_hex}') AS i)").fetchone()[0]
check('bloom_info agrees', info_pg == info_lite, f'{info_pg!r} vs {info_lite!r}')

# 5. The array functions: a PostgreSQL array and the same values as a JSON
# array in SQLite add the same members, element by element as bloom_add.
arrays = [
    ("ARRAY[1, 5, -7]::int8[]", "'[1, 5, -7]'"),
    ("ARRAY[5.0, 0.5]::float8[]", "'[5.0, 0.5]'"),
    ("ARRAY['a', 'é✓', NULL]", "'[\"a\", \"é✓\", null]'"),
    ("ARRAY[[1, 2], [3, 4]]", "'[1, 2, 3, 4]'"),
]
for pg_arr, lite_arr in arrays:
    a = pg(f"SELECT encode(bloom_add_all(bloom_empty(1000, 0.01, 3), {pg_arr})::bytea, 'hex')")
    b = db.execute(f"SELECT lower(hex(bloom_add_all(bloom_empty(1000, 0.01, 3), {lite_arr})))").fetchone()[0]
    check(f'same bytes: bloom_add_all {pg_arr}', a == b and len(a) > 64, f'{a[:80]} vs {(b or "")[:80]}')
a = pg("SELECT bloom_contains_all(bloom_add_all(bloom_empty(1000), ARRAY[1, 2]), ARRAY[2.0::float8, 1::float8])::text"
       " || bloom_contains_any(bloom_add_all(bloom_empty(1000), ARRAY[1, 2]), ARRAY[3, 4])::text")
b = db.execute("SELECT bloom_contains_all(bloom_add_all(bloom_empty(1000), '[1, 2]'), '[2.0, 1]')"
               " || bloom_contains_any(bloom_add_all(bloom_empty(1000), '[1, 2]'), '[3, 4]')").fetchone()[0]
check('bloom_contains_all/any answer alike', a == 'truefalse' and b == '10', f'{a} vs {b}')

# 6. Text probes (docs/HASHING.md "What a text probe checks"): a filter of
# numbers from either engine finds a member written as text in both, in the
# forms both engines read as that number; a filter of PostgreSQL dates finds
# a date's text in PostgreSQL, and SQLite refuses it rather than answer 0.
TEXT_FORMS = ("{}", " {} ", "{}.0", "{}e0", "+{}", "00{}")
text_members = {form.format(v) for v in (1, 4, 9997, 19999) for form in TEXT_FORMS}
texts = sorted(text_members) + ['abc', '4abc', '2', '']
TEXT_VALUES = ', '.join("('{}')".format(t) for t in texts)
for origin in ('PostgreSQL', 'SQLite'):
    hex_filter = filters['bloom_agg over int8'][0 if origin == 'PostgreSQL' else 1]
    # bracketed: the helper strips the output's outer spaces
    found_pg = pg(f"SELECT string_agg('[' || v || ']', '') FROM (VALUES {TEXT_VALUES}) AS p(v) "
                  f"WHERE bloom_contains(decode('{hex_filter}', 'hex')::bloom, v)")
    found_pg = set(re.findall(r'\[([^]]*)\]', found_pg))
    found_lite = {r[0] for r in db.execute(f"SELECT column1 FROM (VALUES {TEXT_VALUES}) "
                                           f"WHERE bloom_contains(X'{hex_filter}', column1)")}
    check(f'{origin} filter of numbers: text probes find the members, the same in both engines',
          found_pg == found_lite and text_members <= found_lite,
          f'PostgreSQL {sorted(found_pg)}, SQLite {sorted(found_lite)}')
date_hex = pg("SELECT encode(bloom_agg(d)::bytea, 'hex') FROM "
              "(SELECT date '2026-10-25' + i AS d FROM generate_series(0, 99) AS i) AS days")
check('PostgreSQL filter of dates finds a date written as text',
      pg(f"SELECT bloom_contains(decode('{date_hex}', 'hex')::bloom, '2026-10-25')::text") == 'true')
check('SQLite finds the date by its canonical bytes',
      db.execute(f"SELECT bloom_contains(X'{date_hex}', X'00002642')").fetchone()[0] == 1)
try:
    refused = db.execute(f"SELECT bloom_contains(X'{date_hex}', '2026-10-25')").fetchone()
except Exception as e:  # sqlite3.OperationalError
    refused = str(e)
check('SQLite refuses a text probe of PostgreSQL dates', 'cannot read a text probe' in str(refused),
      repr(refused))

pg('DROP TABLE cross_data; DROP FUNCTION cross_hex(bloom)')
sys.exit(check.finish())
