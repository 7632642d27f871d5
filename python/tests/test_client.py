"""The client filter on its own (no database): the refusals that must come
before any work that grows with the input, copies that own their bytes, and
the package's own error for bad text.  The package's metadata too."""
import copy
import decimal
import importlib.metadata
import time
import unittest
import uuid

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


def kinds(f):
    """Header bytes 10..15 of a filter: the kinds byte and the type OID."""
    data = bytes(f)
    return data[10], int.from_bytes(data[12:16], 'little')


def with_kinds(f, mask, oid=0):
    """f's bytes with other kinds written in, as another engine (or an older
    version, mask 0) would have stored them."""
    data = bytearray(bytes(f))
    data[10], data[11] = mask, 0
    data[12:16] = oid.to_bytes(4, 'little')
    return BloomFilter.from_bytes(bytes(data))


class KindsTest(unittest.TestCase):
    """A filter records the kinds of values added (header byte 10: 1 number,
    2 text beside another kind, 4 bytes, 8 a PostgreSQL type's send form)."""

    def test_add_records_the_kind(self):
        self.assertEqual(kinds(BloomFilter(100)), (0, 0))
        for value, mask in ((42, 1), (2.5, 1), (True, 1), (D('10.1'), 1), (2 ** 70, 1),
                            ('a', 0), (b'a', 4), (bytearray(b'a'), 4)):
            self.assertEqual(kinds(BloomFilter(100).add(value)), (mask, 0), value)
        self.assertEqual(kinds(BloomFilter(100).add(None)), (0, 0))
        self.assertEqual(kinds(BloomFilter(100).update([1, 'a'])), (3, 0))
        self.assertEqual(kinds(BloomFilter(100).add('a').add(1)), (3, 0))
        self.assertEqual(kinds(BloomFilter(100).update([1, 'a', b'b'])), (7, 0))
        # a UUID is PostgreSQL's uuid (OID 2950), hashed as its 16 bytes
        self.assertEqual(kinds(BloomFilter(100).add(uuid.UUID(int=1))), (8, 2950))
        self.assertEqual(kinds(BloomFilter.from_values([1, 2, 3])), (1, 0))
        self.assertEqual(kinds(BloomFilter.from_values(['a', 'b'])), (0, 0))
        self.assertEqual(kinds(BloomFilter.from_values(['a', 2.5], layout='blocked')), (3, 0))

    def test_every_layout_and_operation_keeps_kinds(self):
        for layout in ('classic', 'blocked', 'counting', 'scalable'):
            f = BloomFilter(10, layout=layout).update(range(100 if layout == 'scalable' else 5))
            self.assertEqual(kinds(f), (1, 0), layout)
        c = BloomFilter(100, layout='counting').update([1, 'a'])
        self.assertEqual(kinds(c.remove(1)), (3, 0))
        self.assertEqual(kinds(c.to_classic()), (3, 0))
        self.assertEqual(kinds(BloomFilter.with_params(1024, 3).add(1).fold(512)), (1, 0))
        self.assertEqual(kinds(BloomFilter(100).add(1).copy()), (1, 0))
        numbers, text, blobs = BloomFilter(100).add(1), BloomFilter(100).add('a'), BloomFilter(100).add(b'a')
        self.assertEqual(kinds(numbers | text), (3, 0))
        self.assertEqual(kinds(numbers & blobs), (5, 0))
        self.assertEqual(kinds(numbers | BloomFilter(100)), (1, 0))
        # a filter from before 1.2 with bits set counts as text in a union
        self.assertEqual(kinds(numbers | with_kinds(BloomFilter(100).add(7), 0)), (3, 0))
        self.assertEqual(kinds(with_kinds(BloomFilter(100).add(7), 0).add(1)), (3, 0))

    def test_kinds_bytes_are_validated(self):
        f = BloomFilter(100).add(1)
        for mask, oid in ((0x10, 0), (0x02, 0), (0x01, 1082)):
            with self.assertRaises(BloomError):
                with_kinds(f, mask, oid)
        data = bytearray(bytes(f))
        data[11] = 1
        with self.assertRaises(BloomError):
            BloomFilter.from_bytes(bytes(data))


class TextProbeTest(unittest.TestCase):
    """A str probe of a filter that holds numbers is also read as the number
    it spells, by SQLite's rule (what an INTEGER or REAL column's comparison
    with text accepts)."""

    def test_numbers_found_by_their_text(self):
        f = BloomFilter(1000).update([42, 10.1, 1000, -7, 0.5, 2 ** 63 - 1, 2.0 ** 63])
        for text in ('42', ' 42', '42 ', '\t42\n', '+42', '0042', '42.0', '4.2e1', '1e3', '1000.0', '10.1',
                     '10.10', '1.01e1', '-7', '-7.0', '.5', '0.50', '9223372036854775807',
                     '9223372036854775808', '9.223372036854775808e18'):
            self.assertIn(text, f)
            self.assertIs(f.contains(text), True, text)
        for text in ('42abc', '0x2A', '4 2', '', ' ', '42\x00', '42\xa0', 'inf', 'nan', '43', '10.2', '1e',
                     'e3', '- 42', '42_0', '\u0664\u0662'):
            self.assertNotIn(text, f)
        self.assertIs(f.contains_all(['42', ' 1e3', 10.1]), True)
        self.assertIs(f.contains_all(['42', '43']), False)
        self.assertIs(f.contains_any(['43', '10.10']), True)
        self.assertIs(f.contains_any(['43', None]), None)

    def test_text_read_as_text_too(self):
        f = BloomFilter(100).update([42, 'abc', ' 7'])
        self.assertIn('42', f)
        self.assertIn('abc', f)
        self.assertIn(' 7', f)
        self.assertNotIn('7', f)
        text_only = BloomFilter(100).add('42')
        self.assertIn('42', text_only)
        self.assertNotIn(' 42', text_only)
        self.assertNotIn(42, text_only)  # a number probe is hashed as before

    def test_bytes_are_not_text(self):
        f = BloomFilter(100).add(b'42')
        self.assertNotIn('42', f)
        self.assertIn(b'42', f)

    def test_before_1_2_text_is_text(self):
        old = with_kinds(BloomFilter(100).add(42), 0)
        self.assertIn(42, old)
        self.assertNotIn('42', old)

    def test_postgresql_typed_values_refuse_a_str(self):
        date = BloomFilter(100).add(b'\x00\x00\x26\x42')
        typed = with_kinds(date, 8, 1082)
        self.assertIn(b'\x00\x00\x26\x42', typed)
        with self.assertRaisesRegex(BloomError, 'cannot read a text probe as the values of this filter'):
            '2026-10-25' in typed
        with self.assertRaisesRegex(BloomError, 'cannot read a text probe'):
            typed.contains_any(['2026-10-25'])
        mixed = with_kinds(date.copy().add(42), 9, 1082)
        self.assertIn('42', mixed)  # found as a number: no error
        with self.assertRaisesRegex(BloomError, 'cannot read a text probe'):
            '43' in mixed


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
