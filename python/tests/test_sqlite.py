"""The client filter against SQLite: same hashes, same bytes, load(conn)."""
import decimal
import math
import random
import sqlite3
import unittest

import bloomfilter
from bloomfilter import BloomError, BloomFilter, hash_value


def connect():
    db = sqlite3.connect(':memory:')
    bloomfilter.load(db)
    return db


class LoadTest(unittest.TestCase):
    def test_load_finds_a_library(self):
        db = sqlite3.connect(':memory:')
        path = bloomfilter.load(db)
        self.assertTrue(path.endswith('.so'), path)
        self.assertEqual(db.execute('SELECT bloom_version()').fetchone()[0], bloomfilter.__version__)

    def test_extension_loading_is_switched_off_again(self):
        db = sqlite3.connect(':memory:')
        bloomfilter.load(db)
        with self.assertRaises(sqlite3.OperationalError):
            db.execute("SELECT load_extension(?, 'sqlite3_bloomfilter_init')", (bloomfilter.library_path(),))

    def test_python_without_extension_loading(self):
        class NoLoading(sqlite3.Connection):
            @property
            def enable_load_extension(self):
                raise AttributeError('enable_load_extension')

        db = sqlite3.connect(':memory:', factory=NoLoading)
        with self.assertRaisesRegex(RuntimeError, 'cannot load SQLite extensions'):
            bloomfilter.load(db)

    def test_not_a_connection(self):
        with self.assertRaisesRegex(TypeError, 'sqlite3.Connection'):
            bloomfilter.load('db.sqlite')

    def test_missing_library(self):
        db = sqlite3.connect(':memory:')
        with self.assertRaises(sqlite3.OperationalError):
            bloomfilter.load(db, path='/nonexistent/bloomfilter.so')


class SameAsSQLiteTest(unittest.TestCase):
    def setUp(self):
        self.db = connect()

    def one(self, sql, *args):
        return self.db.execute(sql, args).fetchone()[0]

    def test_hashes(self):
        # (SQLite has no NaN and no integer beyond int64: PostgreSQL's test has those)
        for value in (0, -1, 5, 5.0, 2.5, -0.0, math.inf, -math.inf, 2 ** 63 - 1, -2 ** 63,
                      'abc', '', 'é✓', b'\x00\xff', b'', True, 1e300):
            for seed in (0, 12345, -1):
                self.assertEqual(hash_value(value, seed), self.one('SELECT bloom_hash(?, ?)', value, seed),
                                 (value, seed))

    def test_canonical_members(self):
        f = BloomFilter(1000).update([5, 'a', b'b', 0.5])
        self.assertIn(5.0, f)
        self.assertIn(decimal.Decimal('5.00'), f)
        self.assertIn(True, BloomFilter(10).add(1))
        self.assertIn(b'a', f)  # text and bytes share a hash (docs/HASHING.md)
        self.assertEqual(f.contains(None), None)

    def test_same_bytes_as_bloom_empty_and_add(self):
        for capacity, fpr, seed, layout in ((1000, 0.01, 0, 'classic'), (500, 0.001, 7, 'blocked'),
                                            (10, 0.2, -1, 'classic')):
            f = BloomFilter(capacity, fpr, seed, layout)
            sql = self.one('SELECT bloom_empty(?, ?, ?, ?)', capacity, fpr, seed, layout)
            self.assertEqual(bytes(f), sql)
            for v in (1, 'x', 2.5, b'\x01'):
                f.add(v)
                sql = self.one('SELECT bloom_add(?, ?)', sql, v)
            self.assertEqual(bytes(f), sql)
            self.assertEqual(f, BloomFilter.from_bytes(sql))

    def test_with_params_is_bloom_empty_mk(self):
        self.assertEqual(bytes(BloomFilter.with_params(1024, 3, 9)), self.one('SELECT bloom_empty_mk(1024, 3, 9)'))
        self.assertEqual(bytes(BloomFilter.with_params(512, 8, 0, 'blocked')),
                         self.one("SELECT bloom_empty_mk(512, 8, 0, 'blocked')"))

    def test_from_values_is_bloom_agg(self):
        self.db.execute('CREATE TABLE t(x)')
        values = [i * 3 for i in range(5000)] + ['k%d' % i for i in range(300)] + [None, 1.5]
        self.db.executemany('INSERT INTO t VALUES (?)', [(v,) for v in values])
        self.assertEqual(bytes(BloomFilter.from_values(values)), self.one('SELECT bloom_agg(x) FROM t'))
        with self.assertRaisesRegex(BloomError, 'at least one value'):
            BloomFilter.from_values([None])

    def test_array_functions_agree(self):
        f = BloomFilter(100).update([1, 2, 3])
        self.assertEqual(bytes(f), self.one("SELECT bloom_add_all(bloom_empty(100), '[1, 2, 3]')"))
        for values, json in (([1, 3], '[1, 3]'), ([1, 100], '[1, 100]'), ([], '[]'),
                             ([1, None], '[1, null]'), ([100, None], '[100, null]')):
            allv = self.one('SELECT bloom_contains_all(?, ?)', bytes(f), json)
            self.assertEqual(f.contains_all(values), None if allv is None else bool(allv), values)
            anyv = self.one('SELECT bloom_contains_any(?, ?)', bytes(f), json)
            self.assertEqual(f.contains_any(values), None if anyv is None else bool(anyv), values)

    def test_combine_and_fold_agree(self):
        a = BloomFilter.with_params(4096, 5).update(range(100))
        b = BloomFilter.with_params(1024, 5).update(range(50, 150))
        self.assertEqual(bytes(a | b), self.one('SELECT bloom_union(?, ?)', bytes(a), bytes(b)))
        self.assertEqual(bytes(a & b), self.one('SELECT bloom_intersect(?, ?)', bytes(a), bytes(b)))
        self.assertEqual(bytes(a.fold(2048)), self.one('SELECT bloom_fold(?, 2048)', bytes(a)))
        self.assertAlmostEqual(a.cardinality(), self.one('SELECT bloom_cardinality(?)', bytes(a)))
        self.assertAlmostEqual(a.fpr(), self.one('SELECT bloom_fpr(?)', bytes(a)))
        with self.assertRaisesRegex(BloomError, 'seed 3'):
            a | BloomFilter.with_params(4096, 5, 3)

    def test_no_false_negatives_and_rate(self):
        f = BloomFilter(10000, 0.01)
        f.update(range(0, 20000, 2))
        self.assertIs(f.contains_all(range(0, 20000, 2)), True)
        rate = sum(v in f for v in range(1, 200001, 2)) / 100000
        self.assertLess(rate, 0.0115)

    def test_bad_bytes_refused_as_by_sqlite(self):
        good = bytes(BloomFilter(100).add(1))
        for bad in (b'', good[:31], good[:-1], b'\x00' * len(good), good + b'\x00' * 8):
            with self.assertRaises(BloomError) as e:
                BloomFilter.from_bytes(bad)
            with self.assertRaises(sqlite3.OperationalError) as s:
                self.db.execute('SELECT bloom_contains(?, 1)', (bad,)).fetchone()
            self.assertIn(str(e.exception).split(' (')[0], str(s.exception))

    def test_argument_errors(self):
        with self.assertRaisesRegex(BloomError, 'capacity'):
            BloomFilter(0)
        with self.assertRaisesRegex(BloomError, 'layout'):
            BloomFilter(10, layout='cuckoo')
        with self.assertRaises(BloomError):
            BloomFilter(10, fpr=1.5)
        with self.assertRaisesRegex(TypeError, 'cannot hash a list'):
            BloomFilter(10).add([1])
        with self.assertRaisesRegex(BloomError, 'divisor|divide'):
            BloomFilter.with_params(4096, 5).fold(1000)


class TextProbesAsSQLiteTest(unittest.TestCase):
    """Kinds and text probes: the client's bytes and answers are SQLite's."""

    def setUp(self):
        self.db = connect()

    def one(self, sql, *args):
        return self.db.execute(sql, args).fetchone()[0]

    def test_same_bytes_with_kinds(self):
        for values in ([42, 10.1], ['a', 'b'], [42, 'a'], [b'x'], [1, 'a', b'x', 2.5], [True]):
            self.db.execute('DROP TABLE IF EXISTS t')
            self.db.execute('CREATE TABLE t(x)')
            self.db.executemany('INSERT INTO t VALUES (?)', [(v,) for v in values])
            self.assertEqual(bytes(BloomFilter.from_values(values)), self.one('SELECT bloom_agg(x) FROM t'),
                             values)
            f = BloomFilter(100)
            sql = self.one('SELECT bloom_empty(100)')
            for v in values:
                f.add(v)
                sql = self.one('SELECT bloom_add(?, ?)', sql, v)
            self.assertEqual(bytes(f), sql, values)

    def test_text_probes_agree(self):
        """Python's reading of a str as a number is SQLite's: every probe,
        written and generated, gets the same answer from both."""
        f = BloomFilter(10000).update([42, 10.1, 1000, -7, 0.5, 0, 5, 50, 500, 2 ** 63 - 1, 2.0 ** 63,
                                       1e300, 123456789012, 0.25, 1.5, -0.5])
        probes = ['42', ' 42', '42 ', '\t42\n\r\f\v', '+42', '0042', '42.0', '4.2e1', '4.2E+1', '420e-1',
                  '1e3', '1000.0', '10.1', '-7', '.5', '5.', '-.5', '0', '-0', '+0.0', '0e0', '1e300',
                  '1e400', '-1e400', '9223372036854775807', '9223372036854775808', '-9223372036854775809',
                  '123456789012', '123456789012.0', '1.23456789012e11', '42abc', '0x2A', 'inf', 'nan',
                  'Infinity', '', ' ', '.', 'e', '1e', '1e+', '.e1', '42\x00', '42\xa0', '\u0664\u0662',
                  '4_2', '--42', '+-42', '5..', '0.0.0', '1,5', '42' + ' ' * 100]
        rng = random.Random(36)
        for _ in range(3000):
            probes.append(''.join(rng.choice(' \t+-.eE0123456789') for _ in range(rng.randint(1, 7))))
        data = bytes(f)
        for text in probes:
            self.assertEqual(text in f, bool(self.one('SELECT bloom_contains(?, ?)', data, text)), repr(text))

    def test_bound_text_parameters(self):
        self.db.execute('CREATE TABLE t(x INTEGER)')
        self.db.executemany('INSERT INTO t VALUES (?)', [(i,) for i in range(100)])
        data = self.one('SELECT bloom_agg(x) FROM t')
        self.assertEqual(self.one('SELECT bloom_contains(?, ?)', data, '42'), 1)
        self.assertEqual(self.one('SELECT bloom_contains_all(?, ?)', data, '["42", " 7"]'), 1)

    def test_typed_filters_refused_alike(self):
        data = bytearray(bytes(BloomFilter(100).add(b'\x00\x00\x26\x42')))
        data[10], data[12:16] = 8, (1082).to_bytes(4, 'little')
        with self.assertRaisesRegex(sqlite3.OperationalError, 'cannot read a text probe'):
            self.one('SELECT bloom_contains(?, ?)', bytes(data), '2026-10-25')
        with self.assertRaisesRegex(BloomError, 'cannot read a text probe'):
            BloomFilter.from_bytes(bytes(data)).contains('2026-10-25')


if __name__ == '__main__':
    unittest.main()


class VariantsAsSQLiteTest(unittest.TestCase):
    """Counting and scalable filters, and unions of size classes: the
    client makes the bytes SQLite makes, and reads SQLite's."""

    def setUp(self):
        self.db = connect()

    def one(self, sql, *args):
        return self.db.execute(sql, args).fetchone()[0]

    def test_counting_add_and_remove(self):
        f = BloomFilter(2000, 0.01, 3, 'counting').update(range(2000))
        for v in range(1000):
            f.remove(v)
        sql = self.one("""WITH RECURSIVE r(i, f) AS (
                            SELECT 0, bloom_add_all(bloom_empty(2000, 0.01, 3, 'counting'),
                                                    (SELECT json_group_array(value) FROM json_each(?)))
                            UNION ALL SELECT i + 1, bloom_remove(f, i) FROM r WHERE i < 1000)
                          SELECT f FROM r WHERE i = 1000""", str(list(range(2000))))
        self.assertEqual(bytes(f), sql)
        self.assertTrue(all(v in f for v in range(1000, 2000)))
        self.assertEqual(f.layout, 'counting')
        self.assertEqual(bytes(f.to_classic()), self.one('SELECT bloom_to_classic(?)', sql))
        with self.assertRaisesRegex(BloomError, 'not in the filter'):
            f.remove('never added')
        with self.assertRaisesRegex(BloomError, 'has no counters'):
            BloomFilter(10).remove(1)

    def test_scalable_growth(self):
        f = BloomFilter(100, 0.01, 0, 'scalable')
        f.update(range(2500))
        f.add('x')
        sql = self.one("SELECT bloom_add(bloom_add_all(bloom_empty(100, 0.01, 0, 'scalable'), ?), 'x')",
                       str(list(range(2500))))
        self.assertEqual(bytes(f), sql)
        self.assertEqual(f.layout, 'scalable')
        self.assertTrue(all(v in f for v in range(2500)))
        self.assertLessEqual(f.fpr(), 0.01)
        self.assertEqual(BloomFilter.from_bytes(sql), f)
        with self.assertRaisesRegex(BloomError, 'capacity and a rate'):
            BloomFilter.with_params(1024, 7, 0, 'scalable')

    def test_union_of_size_classes(self):
        small = BloomFilter.from_values([1, 2])
        large = BloomFilter.from_values(range(10, 10010))
        u = small | large
        self.assertEqual(u.layout, 'scalable')
        self.assertEqual(bytes(u), self.one('SELECT bloom_union(?, ?)', bytes(small), bytes(large)))
        self.assertEqual(bytes(small & large), self.one('SELECT bloom_intersect(?, ?)', bytes(small), bytes(large)))
        self.assertTrue(all(v in u for v in [1, 2, 10, 5000, 10009]))
        self.assertLess(u.fpr(), 0.02)
        # one class, too full: refused, as in SQL
        groups = [BloomFilter.from_values(range(g * 100, g * 100 + 100)) for g in range(50)]
        with self.assertRaises(BloomError) as cm:
            acc = groups[0]
            for g in groups[1:]:
                acc = acc | g
        self.assertEqual(cm.exception.status, 'saturated result')
        self.assertIn('bloom_agg(x, capacity, fpr)', cm.exception.hint)
