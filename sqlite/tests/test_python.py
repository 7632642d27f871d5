"""The extension from Python's sqlite3 module (Debian's /usr/bin/python3,
which allows load_extension), checked against an independent pure-Python
model of the format: XXH64, the canonical bytes of values, the classic
layout's probe sequence and the header.  A filter the extension builds must
be byte for byte the filter the model builds.

    /usr/bin/python3 sqlite/tests/test_python.py [path/to/bloomfilter]
"""
import math
import re
import os
import sqlite3
import sys
import unittest

EXTENSION = sys.argv[1] if len(sys.argv) > 1 else "build/bloomfilter"
M64 = (1 << 64) - 1


# ---- the model: tools/reference.py, the project's independent reading of
# docs/FORMAT.md and docs/HASHING.md (its own XXH64, no C shared) ----------

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from reference import build, canonical, xxh64  # noqa: E402


def model_hash(value, seed=0):
    return xxh64(canonical(value), seed & M64)


def model_filter(values, capacity, fpr, seed=0):
    """bloom_empty(capacity, fpr, seed) with values added, as bytes: k from
    the rate alone, the least m for that k, then its size class (a power of
    two), docs/FORMAT.md "Size classes"."""
    nhashes = min(32, max(1, math.floor(-math.log2(fpr) + 0.5)))
    least = math.ceil(-nhashes * capacity / math.log1p(-fpr ** (1.0 / nhashes)))
    nbits = 1
    while nbits < least:
        nbits *= 2
    return build(0, nbits, nhashes, seed & M64, values)


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
        control = os.path.join(os.path.dirname(__file__), "..", "..", "bloomfilter.control")
        with open(control) as f:
            version = re.search(r"default_version = '([^']+)'", f.read()).group(1)
        self.assertEqual(self.one("SELECT bloom_version()"), version)

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
        # text '1' reads as the number 1 in a filter of numbers (text_probes.sql) ...
        self.assertEqual(self.one("SELECT bloom_contains(?, '1')", f), 1)
        # ... but the number 1 is not the text '1'
        t = self.one("SELECT bloom_add(bloom_empty(100), '1')")
        self.assertEqual(self.one("SELECT bloom_contains(?, 1)", t), 0)

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
            ("SELECT bloom_empty(?)", (0,), "capacity must be at least 1"),
            ("SELECT bloom_union(?, bloom_empty(11, 0.01, 1))", (f,), "bloom_union: incompatible bloom filters"),
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
