"""The client filter on its own (no database): the refusals that must come
before any work that grows with the input, copies that own their bytes, and
the package's own error for bad text.  The package's metadata too."""
import copy
import decimal
import importlib.metadata
import time
import unittest

from bloomfilter import BloomError, BloomFilter, hash_value

D = decimal.Decimal


class NumericRangeTest(unittest.TestCase):
    """A Decimal (or an int beyond int64) hashes as PostgreSQL's numeric, so
    what numeric cannot hold is refused at once, as PostgreSQL refuses it:
    at most 131072 digits before the decimal point, 16383 after."""

    def refused(self, value, digits):
        start = time.process_time()
        with self.assertRaisesRegex(BloomError, f'value overflows numeric format: .*{digits}'):
            BloomFilter(100).add(value)
        self.assertLess(time.process_time() - start, 1.0, digits)

    def test_far_beyond_refused_at_once(self):
        # int(Decimal('1e9999999')) alone ran for minutes
        self.refused(D('1e9999999'), '10000000 digits before')
        self.refused(D('-1e9999999'), '10000000 digits before')
        self.refused(10 ** 1000000, 'bits')  # an int: refused before Decimal(value)

    def test_edges_are_postgresql_s(self):
        f = BloomFilter(100)
        # the largest of each kind PostgreSQL takes ('1e131071'::numeric, '1e-16383'::numeric)
        for ok in (D('1e131071'), D('9' * 131072), D('1e-16383'), D('0e999999'),
                   10 ** 131071, -(10 ** 131072 - 1)):
            f.add(ok)
            self.assertIn(ok, f)
        # and what it refuses: "value overflows numeric format"
        self.refused(D('1e131072'), '131073 digits before')
        self.refused(D('1e-16384'), '16384 digits after')
        self.refused(D('1.5e-16383'), '16384 digits after')
        self.refused(D('0.0e-20000'), '20001 digits after')  # zero too, by its scale
        self.refused(10 ** 131072, '131073 digits before')  # an int of the boundary's length

    def test_every_entry_point_refuses(self):
        f = BloomFilter(100)
        for call in (lambda: f.contains(D('1e200000')), lambda: f.update([1, D('1e200000')]),
                     lambda: hash_value(D('1e200000')),
                     lambda: BloomFilter.from_values([D('1e200000')])):
            with self.assertRaisesRegex(BloomError, 'overflows numeric'):
                call()
        self.assertEqual(bytes(f), bytes(BloomFilter(100)))  # update added nothing

    def test_values_in_range_hash_as_before(self):
        self.assertEqual(hash_value(D('5.00')), hash_value(5))
        self.assertEqual(hash_value(D('0e999999')), hash_value(0))
        self.assertEqual(hash_value(D('2.5')), hash_value(2.5))
        self.assertEqual(hash_value(2 ** 64), hash_value(D(2 ** 64)))


class CopyTest(unittest.TestCase):
    def test_copies_own_their_bytes(self):
        for make in (copy.copy, copy.deepcopy, BloomFilter.copy):
            f = BloomFilter(1000).add('a')
            before = bytes(f)
            c = make(f)
            c.add('b')
            self.assertEqual(bytes(f), before, make.__name__)  # the original is unchanged
            self.assertIn('b', c)
            self.assertNotEqual(bytes(c), before)
            self.assertEqual((c.layout, c.nbits, c.nhashes, c.seed),
                             (f.layout, f.nbits, f.nhashes, f.seed))

    def test_deepcopy_of_a_container(self):
        f = BloomFilter(1000)
        box = copy.deepcopy({'f': f, 'again': f})
        self.assertIs(box['f'], box['again'])  # one copy, as deepcopy promises
        box['f'].add(1)
        self.assertNotIn(1, f)


class FoldTest(unittest.TestCase):
    def test_validated_before_allocating(self):
        # was MemoryError: 8 GiB allocated before the check that 2^36 divides
        f = BloomFilter(100)
        with self.assertRaisesRegex(BloomError, f'cannot fold a filter of {f.nbits} bits to 68719476736'):
            f.fold(2 ** 36)
        with self.assertRaisesRegex(BloomError, 'cannot fold a filter of .* to 0'):
            f.fold(0)
        with self.assertRaisesRegex(BloomError, 'does not divide'):
            BloomFilter.with_params(96, 3).fold(64)
        with self.assertRaisesRegex(BloomError, 'whole number of 256-bit blocks'):
            BloomFilter(1000, layout='blocked').fold(128)
        with self.assertRaisesRegex(BloomError, 'cannot fold a filter of .* to -64:'):
            f.fold(-64)  # as SQL says it, not as 0
        for bad in (2 ** 64, 1.5, '64'):
            with self.assertRaisesRegex(BloomError, '64-bit integer'):
                f.fold(bad)

    def test_fold_still_folds(self):
        f = BloomFilter(1000).update(range(100))
        half = f.fold(f.nbits // 2)
        self.assertEqual(half.nbits, f.nbits // 2)
        self.assertTrue(all(v in half for v in range(100)))


class CapacityTest(unittest.TestCase):
    def test_integral_float_as_sql_takes_it(self):
        self.assertEqual(bytes(BloomFilter(1e6)), bytes(BloomFilter(1000000)))
        self.assertEqual(bytes(BloomFilter(1e3, 0.001)), bytes(BloomFilter(1000, 0.001)))
        for bad in (1.5, float('inf'), float('nan'), 0.0, -1e6):
            with self.assertRaisesRegex(BloomError, 'capacity must be a positive integer'):
                BloomFilter(bad)

    def test_refused_where_no_engine_stores_it(self):
        # 1 GiB would be built and then stored nowhere; the message is SQL's
        # bloom_empty(500000000) in SQLite, with the largest that fits
        with self.assertRaisesRegex(BloomError, 'capacity 500000000 at false-positive rate 0.01 '
                                    'needs 1073741856 bytes; a value holds at most 999998976 bytes, '
                                    'which fits a capacity of at most 447721001 at this rate'):
            BloomFilter(500000000)
        with self.assertRaisesRegex(BloomError, 'a value holds at most 999998976 bytes'):
            BloomFilter.with_params(2 ** 33, 7)


class TextFormTest(unittest.TestCase):
    def test_not_hex_is_a_bloom_error(self):
        good = bytes(BloomFilter(10)).hex()
        cases = {
            '\\x' + good[:-2] + 'zz': f'character {len(good) + 1} .* not a hexadecimal digit',
            '\\x' + good[:10] + ' ' + good[11:]: 'character 13 .* not a hexadecimal digit',
            '\\x' + good + '0': 'odd number',
            good: 'starts with',
            '': 'starts with',
        }
        for text, message in cases.items():
            with self.assertRaisesRegex(BloomError, message):
                BloomFilter.from_bytes(text)
        self.assertTrue(issubclass(BloomError, ValueError))  # callers catching ValueError still do

    def test_text_form_as_postgresql_writes_and_reads_it(self):
        f = BloomFilter(10).add(1)
        self.assertEqual(BloomFilter.from_bytes('\\x' + bytes(f).hex()), f)
        self.assertEqual(BloomFilter.from_bytes('\\X' + bytes(f).hex().upper()), f)


class MetadataTest(unittest.TestCase):
    def test_license(self):
        meta = importlib.metadata.metadata('bloomfilter')
        self.assertEqual(meta['License'], 'PostgreSQL')
        self.assertIn('License :: OSI Approved :: PostgreSQL License', meta.get_all('Classifier'))
        files = [f for f in importlib.metadata.files('bloomfilter') if f.name == 'LICENSE']
        self.assertEqual(len(files), 1, files)
        self.assertIn('PostgreSQL License', files[0].read_text())


if __name__ == '__main__':
    unittest.main()
