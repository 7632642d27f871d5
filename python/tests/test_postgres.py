"""The adapters (psycopg2, psycopg 3) and the client filter against
PostgreSQL.  Connects by libpq's environment (PGHOST, PGDATABASE, ...);
tools/suites/65-python-pg.sh runs it with a throwaway server's PG* variables."""
import decimal
import math
import sqlite3
import unittest
import uuid

import psycopg
import psycopg2

import bloomfilter
import bloomfilter.psycopg
import bloomfilter.psycopg2
from bloomfilter import BloomFilter, hash_value


def setUpModule():
    with psycopg.connect('', autocommit=True) as conn:
        conn.execute('DROP EXTENSION IF EXISTS bloomfilter CASCADE')
        conn.execute('CREATE EXTENSION bloomfilter')
        conn.execute('DROP DATABASE IF EXISTS bloom_py_noext')
        conn.execute('CREATE DATABASE bloom_py_noext')


class Psycopg2Test(unittest.TestCase):
    def setUp(self):
        self.conn = psycopg2.connect('')
        self.addCleanup(self.conn.close)
        bloomfilter.psycopg2.register_bloom(self.conn)
        self.cur = self.conn.cursor()

    def one(self, sql, args=()):
        self.cur.execute(sql, args)
        return self.cur.fetchone()[0]

    def test_bloom_column_is_a_filter(self):
        f = self.one('SELECT bloom_add(bloom_empty(100), 5)')
        self.assertIsInstance(f, BloomFilter)
        self.assertEqual(f, BloomFilter(100).add(5))
        self.assertIn(5.0, f)
        self.assertIsNone(self.one('SELECT NULL::bloom'))
        arr = self.one('SELECT ARRAY[bloom_empty(10), NULL, bloom_add(bloom_empty(10), 1)]')
        self.assertEqual(arr, [BloomFilter(10), None, BloomFilter(10).add(1)])

    def test_filter_and_bytes_bind_without_cast(self):
        f = BloomFilter(100).update([1, 'a'])
        self.assertIs(self.one('SELECT bloom_contains(%s, 1)', (f,)), True)
        self.assertIs(self.one('SELECT bloom_contains(%s, 2)', (f,)), False)
        self.assertIs(self.one("SELECT bloom_contains(%s, 'a'::text)", (bytes(f),)), True)
        self.assertIs(self.one('SELECT %s @> 1', (f,)), True)
        self.cur.execute('CREATE TEMP TABLE t (id int, f bloom)')
        self.cur.execute('INSERT INTO t VALUES (1, %s), (2, %s)', (f, bytes(f)))
        self.assertEqual(self.one('SELECT count(*) FROM t WHERE f = %s AND bloom_contains(f, 1)', (f,)), 2)

    def test_bad_bytes_refused_by_the_server(self):
        with self.assertRaisesRegex(psycopg2.DataError, 'magic'):
            self.one('SELECT bloom_contains(%s, 1)', (b'\x00' * 40,))


class PsycopgTest(unittest.TestCase):
    def setUp(self):
        self.conn = psycopg.connect('')
        self.addCleanup(self.conn.close)
        bloomfilter.psycopg.register_bloom(self.conn)

    def one(self, sql, args=(), binary=False):
        return self.conn.cursor(binary=binary).execute(sql, args).fetchone()[0]

    def test_bloom_column_is_a_filter_text_and_binary(self):
        for binary in (False, True):
            f = self.one('SELECT bloom_add(bloom_empty(100), 5)', binary=binary)
            self.assertEqual(f, BloomFilter(100).add(5), binary)
            self.assertIsNone(self.one('SELECT NULL::bloom', binary=binary))
            arr = self.one('SELECT ARRAY[bloom_empty(10), NULL]', binary=binary)
            self.assertEqual(arr, [BloomFilter(10), None], binary)

    def test_filter_and_bytes_bind_without_cast(self):
        f = BloomFilter(100, 0.01, 7, 'blocked').update([1, 'a'])
        self.assertIs(self.one('SELECT bloom_contains(%s, 1)', (f,)), True)
        self.assertIs(self.one('SELECT bloom_contains(%s, 2)', (f,)), False)
        self.assertIs(self.one('SELECT bloom_contains(%s, 1)', (bytes(f),)), True)
        self.assertIs(self.one('SELECT bloom_contains(%t, 1)', (f,)), True)
        self.conn.execute('CREATE TEMP TABLE t (id int, f bloom)')
        self.conn.execute('INSERT INTO t VALUES (1, %s), (2, %s)', (f, bytes(f)))
        self.assertEqual(self.one('SELECT count(*) FROM t WHERE f = %s AND bloom_contains(f, 1)', (f,)), 2)

    def test_no_extension(self):
        with psycopg.connect(dbname='bloom_py_noext') as other:
            with self.assertRaisesRegex(psycopg.ProgrammingError, 'CREATE EXTENSION bloomfilter'):
                bloomfilter.psycopg.register_bloom(other)
        with psycopg2.connect(dbname='bloom_py_noext') as other:
            with self.assertRaisesRegex(psycopg2.ProgrammingError, 'CREATE EXTENSION bloomfilter'):
                bloomfilter.psycopg2.register_bloom(other)


class SameAsPostgresTest(unittest.TestCase):
    """Same hashes and bytes as PostgreSQL (and SQLite, where it has the value)."""

    def setUp(self):
        self.conn = psycopg.connect('')
        self.addCleanup(self.conn.close)
        bloomfilter.psycopg.register_bloom(self.conn)
        self.lite = sqlite3.connect(':memory:')
        bloomfilter.load(self.lite)

    def one(self, sql, args=()):
        return self.conn.execute(sql, args).fetchone()[0]

    def test_hashes_of_values_sqlite_lacks(self):
        cases = [(math.nan, "'NaN'::float8"), (-0.0, "'-0'::float8"), (2 ** 63, '9223372036854775808::numeric'),
                 (-2 ** 70, "-(2::numeric ^ 70)"), (10 ** 400, "('1' || repeat('0', 400))::numeric"),
                 (decimal.Decimal('0.1'), '0.1::numeric'), (decimal.Decimal('5.000'), '5.000::numeric'),
                 (decimal.Decimal('-1e400'), "('-1' || repeat('0', 400))::numeric"),
                 (decimal.Decimal('NaN'), "'NaN'::numeric"), (decimal.Decimal('-Infinity'), "'-Infinity'::numeric"),
                 (uuid.UUID('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid"),
                 (True, 'true'), ('é✓', "'é✓'::text"), (b'\x00\xff', "'\\x00ff'::bytea")]
        for value, sql in cases:
            for seed in (0, -1):
                self.assertEqual(hash_value(value, seed), self.one(f'SELECT bloom_hash({sql}, {seed})'), value)

    def test_same_bytes_in_three_places(self):
        ints, texts = list(range(1, 20000, 3)), ['key-%d-é✓' % i for i in range(0, 3000, 7)]
        reals = [i / 4 for i in range(0, 2000)]
        for values, pg_type in ((ints, 'int8'), (texts, 'text'), (reals, 'float8')):
            client = BloomFilter.from_values(values)
            pg = self.one(f'SELECT bloom_agg(x) FROM unnest(%s::{pg_type}[]) x', (values,))
            lite = self.lite.execute('SELECT bloom_agg(value) FROM json_each(?)',
                                     (__import__('json').dumps(values),)).fetchone()[0]
            self.assertEqual(bytes(client), bytes(pg), pg_type)
            self.assertEqual(bytes(client), lite, pg_type)
        f = BloomFilter(1000, 0.01, 42, 'blocked').update(ints[:500])
        self.assertEqual(f, self.one("SELECT bloom_add_all(bloom_empty(1000, 0.01, 42, 'blocked'), %s::int4[])",
                                     (ints[:500],)))

    def test_a_filter_from_postgres_is_probed_and_combined_here(self):
        pg = self.one('SELECT bloom_agg(g, 10000, 0.01) FROM generate_series(1, 5000) g')
        self.assertIs(pg.contains_all(range(1, 5001)), True)
        mine = BloomFilter(10000, 0.01).update(range(4000, 9000))
        both = pg | mine
        self.assertEqual(both, self.one('SELECT bloom_union(%s, %s)', (pg, mine)))
        self.assertEqual(pg & mine, self.one('SELECT %s & %s', (pg, mine)))
        self.assertAlmostEqual(both.cardinality(), self.one('SELECT bloom_cardinality(%s)', (both,)))


if __name__ == '__main__':
    unittest.main()
