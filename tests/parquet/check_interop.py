#!/usr/bin/python3
"""Checks the blocked layout against a real Parquet writer (DuckDB):
our blocked filter over the same values is the file's bitset byte for byte,
and the imported bitset answers exactly as DuckDB's own probe, in SQLite and
in PostgreSQL.  Input: the JSON printed by write_parquet.mjs.

    /usr/bin/python3 tests/parquet/check_interop.py OUT.json build/bloomfilter   (with a server's PG* variables)
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
from testlib import Checks, pg, sqlite_with_extension  # noqa: E402

data = json.load(open(sys.argv[1]))
EXT = sys.argv[2]
check = Checks('parquet')

# The values DuckDB wrote (write_parquet.mjs): 700 integers, 400 texts.
INTS = sorted({(i % 700) * 37 - 5000 for i in range(700)})
TEXTS = sorted({f'key-{i % 400}-é' for i in range(400)})


def sql_literal(v):
    return str(v) if isinstance(v, int) else "'" + v.replace("'", "''") + "'"


db = sqlite_with_extension(EXT)
pg('DROP EXTENSION IF EXISTS bloomfilter CASCADE; CREATE EXTENSION bloomfilter;')

for column, values, pg_type in (('k', INTS, 'int8'), ('t', TEXTS, 'text')):
    bitset = data['columns'][column]['bitset']
    probes = data['columns'][column]['probes']
    nbits = len(bitset) * 4
    db.execute('DROP TABLE IF EXISTS vals')
    db.execute('CREATE TABLE vals(v)')
    db.executemany('INSERT INTO vals VALUES (?)', [(v,) for v in values])
    values_pg = ', '.join(f'({sql_literal(v)}::{pg_type})' for v in values)

    # 1. Same values, same bits: our filter is the Parquet bitset.
    ours = db.execute(f"""SELECT lower(hex(bloom_to_parquet(bloom_union_agg(
                              bloom_add(bloom_empty_mk({nbits}, 8, 0, 'blocked'), v)))))
                          FROM vals""").fetchone()[0]
    check(f'{column}: SQLite blocked filter equals DuckDB bitset ({nbits // 8} bytes)', ours == bitset,
          f'{ours[:64]}... vs {bitset[:64]}...')
    ours_pg = pg(f"""SELECT encode(bloom_to_parquet(bloom_union_agg(
                         bloom_add(bloom_empty_mk({nbits}, 8, 0, 'blocked'), v))), 'hex')
                     FROM (VALUES {values_pg}) AS d(v)""")
    check(f'{column}: PostgreSQL blocked filter equals DuckDB bitset', ours_pg == bitset)

    # 2. The imported bitset answers as DuckDB does, member or not.
    info = json.loads(db.execute(f"SELECT bloom_info(bloom_from_parquet(X'{bitset}'))").fetchone()[0])
    check(f'{column}: imported as blocked, seed 0, {nbits} bits',
          info['layout'] == 'blocked' and info['seed'] == 0 and info['nbits'] == nbits, info)
    disagree = [v for v, duck in probes
                if bool(db.execute(f"SELECT bloom_contains(bloom_from_parquet(X'{bitset}'), ?)", (v,)).fetchone()[0]) != duck]
    positives = sum(1 for _, duck in probes if duck)
    check(f'{column}: SQLite answers as DuckDB for {len(probes)} probes ({positives} maybe)', not disagree,
          disagree[:10])
    probe_list = ', '.join(f'({sql_literal(v)}::{pg_type}, {str(d).lower()})' for v, d in probes)
    mismatches = pg(f"""SELECT count(*) FROM (VALUES {probe_list}) AS p(v, duck)
                        WHERE bloom_contains(bloom_from_parquet(decode('{bitset}', 'hex')), v) IS DISTINCT FROM duck""")
    check(f'{column}: PostgreSQL answers as DuckDB', mismatches == '0', f'{mismatches} disagree')
    members = set(values)
    check(f'{column}: DuckDB and we find every member',
          all(d for v, d in probes if v in members) and any(v in members for v, _ in probes))
    # round trip: export what was imported
    back = db.execute(f"SELECT lower(hex(bloom_to_parquet(bloom_from_parquet(X'{bitset}'))))").fetchone()[0]
    check(f'{column}: bloom_to_parquet(bloom_from_parquet(b)) = b', back == bitset)

sys.exit(check.finish())
