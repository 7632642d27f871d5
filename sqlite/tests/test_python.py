"""The extension from Python's sqlite3 module (Debian's /usr/bin/python3,
which allows load_extension), checked against an independent pure-Python
model of the format: XXH64, the canonical bytes of values, the classic
layout's probe sequence and the header.  A filter the extension builds must
be byte for byte the filter the model builds.

    /usr/bin/python3 sqlite/tests/test_python.py [path/to/bloomfilter]
"""
import math
import sqlite3
import struct
import sys
import unittest

EXTENSION = sys.argv[1] if len(sys.argv) > 1 else "build/bloomfilter"
M64 = (1 << 64) - 1


# ---- the model --------------------------------------------------------------

P1, P2, P3 = 11400714785074694791, 14029467366897019727, 1609587929392839161
P4, P5 = 9650029242287828579, 2870177450012600261


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def xxh64(data, seed=0):
    def rnd(acc, lane):
        return rotl((acc + lane * P2) & M64, 31) * P1 & M64

    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M64, (seed + P2) & M64, seed, (seed - P1) & M64]
        while i + 32 <= n:
            for j in range(4):
                v[j] = rnd(v[j], struct.unpack_from("<Q", data, i + 8 * j)[0])
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M64
        for lane in v:
            h = ((h ^ rnd(0, lane)) * P1 + P4) & M64
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h ^= rnd(0, struct.unpack_from("<Q", data, i)[0])
        h = (rotl(h, 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h ^= struct.unpack_from("<I", data, i)[0] * P1 & M64
        h = (rotl(h, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h ^= data[i] * P5 & M64
        h = rotl(h, 11) * P1 & M64
        i += 1
    h ^= h >> 33
    h = h * P2 & M64
    h ^= h >> 29
    h = h * P3 & M64
    return h ^ (h >> 32)


def canonical(value):
    """docs/HASHING.md as the SQLite wrapper applies it."""
    if isinstance(value, int):
        return struct.pack("<q", value)
    if isinstance(value, float):
        if math.isnan(value):
            return struct.pack("<Q", 0x7FF8000000000000)
        if math.isfinite(value) and value == math.trunc(value) and -(2.0 ** 63) <= value < 2.0 ** 63:
            return struct.pack("<q", int(value))
        return struct.pack("<d", value)
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def model_hash(value, seed=0):
    return xxh64(canonical(value), seed & M64)


def fmix64(h):
    h ^= h >> 33
    h = h * 0xFF51AFD7ED558CCD & M64
    h ^= h >> 33
    h = h * 0xC4CEB9FE1A85EC53 & M64
    return h ^ (h >> 33)


def classic_bits(hash_, nbits, nhashes):
    x, y = hash_, fmix64(hash_)
    for i in range(nhashes):
        yield (x * nbits) >> 64
        x = (x + y) & M64
        y = (y + i + 1) & M64


def model_filter(values, capacity, fpr, seed=0):
    """bloom_empty(capacity, fpr, seed) with values added, as bytes."""
    nbits = math.ceil(-capacity * math.log(fpr) / math.log(2) ** 2)
    nhashes = min(32, max(1, round(nbits / capacity * math.log(2))))
    bits = bytearray((nbits + 63) // 64 * 8)
    for v in values:
        for b in classic_bits(model_hash(v, seed), nbits, nhashes):
            bits[b >> 3] |= 1 << (b & 7)
    header = b"BLOM" + bytes([1, 0, 1, nhashes]) + bytes(8)
    return header + struct.pack("<QQ", seed & M64, nbits) + bytes(bits)


def signed(u):
    return u - (1 << 64) if u >= 1 << 63 else u


# ---- the tests --------------------------------------------------------------

class Extension(unittest.TestCase):
    def setUp(self):
        self.db = sqlite3.connect(":memory:")
        self.db.enable_load_extension(True)
        self.db.load_extension(EXTENSION)
        self.db.enable_load_extension(False)

    def tearDown(self):
        self.db.close()

    def one(self, sql, *args):
        return self.db.execute(sql, args).fetchone()[0]

    def test_version(self):
        self.assertEqual(self.one("SELECT bloom_version()"), "1.0")

    def test_hash_matches_model(self):
        values = [0, 5, -1, 2 ** 63 - 1, -(2 ** 63), 0.5, -0.0, 1e300, 2.0 ** 63, -(2.0 ** 63),
                  float("inf"), 5.0, "", "a", "é€😀", "a\x00b", b"", b"\x00\xff", b"x" * 100]
        for seed in (0, 1, -1, 2 ** 62):
            for v in values:
                with self.subTest(value=v, seed=seed):
                    self.assertEqual(self.one("SELECT bloom_hash(?, ?)", v, seed),
                                     signed(model_hash(v, seed)))

    def test_one_and_one_point_zero(self):
        f = self.one("SELECT bloom_add(bloom_empty(100), ?)", 1)
        self.assertEqual(self.one("SELECT bloom_contains(?, ?)", f, 1.0), 1)
        self.assertEqual(self.one("SELECT bloom_add(?, 1.0) = ?", f, f), 1)
        self.assertEqual(self.one("SELECT bloom_contains(?, '1')", f), 0)

    def test_bytes_match_model(self):
        rows = [(i,) for i in range(500)] + [("s%d" % i,) for i in range(300)] + [(0.25 * i,) for i in range(200)]
        self.db.execute("CREATE TABLE t (x)")
        self.db.executemany("INSERT INTO t VALUES (?)", rows)
        got = self.one("SELECT bloom_agg(x, 1000, 0.02) FROM t")
        self.assertEqual(bytes(got), model_filter([r[0] for r in rows], 1000, 0.02))
        # bloom_empty with a seed, then bloom_add, through parameters.
        f = self.one("SELECT bloom_empty(50, 0.05, -3)")
        for v in ("x", 7, b"\x01"):
            f = self.one("SELECT bloom_add(?, ?)", f, v)
        self.assertEqual(bytes(f), model_filter(["x", 7, b"\x01"], 50, 0.05, -3))

    def test_self_sizing_matches_model(self):
        # 300000 distinct values: past the builder's in-cache set, and above
        # 65536, where the size is the formula's for n (docs/FORMAT.md).
        n = 300000
        self.db.execute("CREATE TABLE big AS WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL "
                        "SELECT v + 1 FROM s WHERE v < %d) SELECT (v * 7919) %% %d AS x FROM s"
                        % (2 * n, n))
        got = bytes(self.one("SELECT bloom_agg(x) FROM big"))
        self.assertEqual(got, model_filter(range(n), n, 0.01))

    def test_bound_filter_counts(self):
        self.db.execute("CREATE TABLE t AS WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL "
                        "SELECT v + 1 FROM s WHERE v < 20000) SELECT v AS x FROM s")
        f = self.one("SELECT bloom_agg(x) FROM t WHERE x % 7 = 0")
        bound = self.one("SELECT count(*) FROM t WHERE bloom_contains(?1, x)", f)
        self.db.execute("CREATE TABLE filters (b)")
        self.db.execute("INSERT INTO filters VALUES (?)", (f,))
        joined = self.one("SELECT count(*) FROM t, filters WHERE bloom_contains(filters.b, t.x)")
        self.assertEqual(bound, joined)
        members = 20000 // 7
        self.assertGreaterEqual(bound, members)
        self.assertLess(bound - members, 0.02 * (20000 - members))

    def test_rebound_filters(self):
        # One prepared statement (Python caches it), filters of different
        # sizes and seeds bound in turn: the header cached for one binding
        # (auxdata) must never describe the next one.
        self.db.execute("CREATE TABLE t AS WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL "
                        "SELECT v + 1 FROM s WHERE v < 3000) SELECT v AS x FROM s")
        filters = [self.one("SELECT bloom_agg(x, %d, 0.01) FROM t WHERE x %% %d = 0" % (cap, m))
                   for cap, m in ((10, 300), (3000, 1), (100, 30))]
        filters.append(self.one("SELECT bloom_add(bloom_empty(10, 0.01, 99), 7)"))
        sql = "SELECT count(*) FROM t WHERE bloom_contains(?1, x)"
        expected = [self.one("SELECT count(*) FROM t, (SELECT ? AS f) WHERE bloom_contains(f, x)", f)
                    for f in filters]
        for _ in range(3):
            for f, want in zip(filters, expected):
                self.assertEqual(self.one(sql, f), want)
        self.assertEqual(expected[1], 3000)

    def test_nulls(self):
        f = self.one("SELECT bloom_empty(10)")
        self.assertIsNone(self.one("SELECT bloom_contains(?, ?)", f, None))
        self.assertEqual(self.one("SELECT bloom_add(?, ?)", f, None), f)
        self.assertIsNone(self.one("SELECT bloom_contains(?, 1)", None))
        self.db.execute("CREATE TABLE n (x)")
        self.db.executemany("INSERT INTO n VALUES (?)", [(None,), (None,)])
        self.assertIsNone(self.one("SELECT bloom_agg(x) FROM n"))

    def test_errors(self):
        f = self.one("SELECT bloom_empty(10)")
        cases = [
            ("SELECT bloom_contains(?, 1)", (b"BLOM" + bytes(28),), "bloom_contains: malformed bloom filter"),
            ("SELECT bloom_contains(?, 1)", ("a filter?",), "a bloom filter is a blob, got text"),
            ("SELECT bloom_empty(10, ?)", (1.0,), "outside the open interval (0, 1)"),
            ("SELECT bloom_empty(?)", (0,), "capacity must be positive"),
            ("SELECT bloom_union(?, bloom_empty(11))", (f,), "bloom_union: incompatible bloom filters"),
            ("SELECT bloom_contains(?, 1)", (bytes(f[:-1]),), "truncated"),
        ]
        for sql, args, message in cases:
            with self.subTest(sql=sql, message=message):
                with self.assertRaises(sqlite3.OperationalError) as caught:
                    self.db.execute(sql, args).fetchone()
                self.assertIn(message, str(caught.exception))

    def test_parquet_bytes(self):
        bitset = bytes(range(64))
        f = self.one("SELECT bloom_from_parquet(?)", bitset)
        self.assertEqual(bytes(f[32:]), bitset)
        self.assertEqual(bytes(self.one("SELECT bloom_to_parquet(?)", f)), bitset)


if __name__ == "__main__":
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    total = result.testsRun
    bad = len(result.failures) + len(result.errors)
    print("%d python tests, %d failed" % (total, bad))
    sys.exit(1 if bad else 0)
