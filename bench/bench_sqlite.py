"""bench-sqlite: the extension against plain SQLite baselines, measured in
the same run on the same in-memory table (10M rows by default).

    /usr/bin/python3 bench/bench_sqlite.py [--rows N] [--repeat R] [--extension PATH]

Every time is the process CPU time of the whole statement, the best of R
rounds; a round runs each statement of a section once, in turn, so a burst
of load from elsewhere on a shared machine lands on one round of a
statement and its baseline alike, not on every run of one of them.  A ratio
is a statement's time over its baseline's, checked against the
statement's goal where it has one (bloom_agg(value) at 100k and all
distinct values, the probe section, ...).  The probe section also
measures, for each filter size, the floor under any probe SQLite calls row at a time: a function
that hashes the row's value and reads one line of a buffer that size
(bench/bench_sqlite_floor.c, which make bench-sqlite builds).
"""
import argparse
import sqlite3
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--rows", type=int, default=10_000_000)
parser.add_argument("--repeat", type=int, default=3)
parser.add_argument("--extension", default="build/bloomfilter")
parser.add_argument("--floor", default="build/bench/bench_sqlite_floor",
                    help="the floor extension (bench/bench_sqlite_floor.c); '' for none")
parser.add_argument("--only", choices=["agg", "probe", "join", "combine", "sliced", "bitslice"],
                    help="run one section")
parser.add_argument("--bitslice-rows", type=int, default=100_000,
                    help="stored filters of the bitslice section")
args = parser.parse_args()
N = args.rows

db = sqlite3.connect(":memory:")
db.enable_load_extension(True)
db.load_extension(args.extension)
if args.floor:
    try:
        db.load_extension(args.floor)
    except sqlite3.OperationalError as e:
        print("floor: skipped, %s (make build/bench/bench_sqlite_floor.so builds it)" % e)
        args.floor = ""
db.enable_load_extension(False)


def one(sql, *params):
    return db.execute(sql, params).fetchone()[0]


def timed(sql, *params, repeat=None):
    """Best CPU time of `repeat` runs, back to back (for the per-row slices)."""
    best, result = float("inf"), None
    for _ in range(repeat or args.repeat):
        start = time.process_time()
        result = one(sql, *params)
        best = min(best, time.process_time() - start)
    return best, result


def setup(what, sql):
    start = time.perf_counter()
    db.execute(sql)
    print("  %-58s %6.1f s" % (what, time.perf_counter() - start), flush=True)


print("bench-sqlite: SQLite %s, %d rows, CPU time, best of %d interleaved rounds"
      % (sqlite3.sqlite_version, N, args.repeat))
probe = {}
probe_blocked = {}
if args.only not in ("sliced", "bitslice"):
    print("setup:")
    # x: N distinct values; y: 100k distinct (a filter of 128 KiB); z: 1000.
    setup("t(x, y, z): %d rows" % N,
          "CREATE TABLE t AS WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r "
          "WHERE v < %d) SELECT v AS x, v %% 100000 AS y, v %% 1000 AS z FROM r" % N)
    # The dimension side of the join: 100k keys spread over x's range.
    step = max(1, N // 100_000)
    setup("small(k): 100k keys, every %d-th x" % step,
          "CREATE TABLE small AS SELECT x AS k FROM t WHERE x %% %d = 0 LIMIT 100000" % step)
    setup("filters: bloom_agg of small.k, stored",
          "CREATE TABLE filters AS SELECT 'small' AS name, bloom_agg(k) AS b FROM small")
    for n in (100_000, 1_000_000, 10_000_000):
        if n > N:
            continue
        start = time.perf_counter()
        # Members spread over x's range, so a probe hits them at the rate n / N.
        probe[n] = one("SELECT bloom_agg(x) FROM t WHERE x %% %d = 0" % max(1, N // n))
        print("  %-58s %6.1f s" % ("filter of %d values (%d KiB), for binding" % (n, len(probe[n]) // 1024),
                                   time.perf_counter() - start), flush=True)
    # The same values in the blocked layout (one cache line a probe), for the
    # filters beyond the L2 cache.
    for n in (1_000_000, 10_000_000):
        if n > N or args.only not in (None, "probe"):
            continue
        start = time.perf_counter()
        probe_blocked[n] = one("SELECT bloom_add_all(bloom_empty(?1, 0.01, 0, 'blocked'), "
                               "(SELECT json_group_array(x) FROM t WHERE x %% %d = 0))" % max(1, N // n), n)
        print("  %-58s %6.1f s" % ("blocked filter of %d values (%d KiB), for binding"
                                   % (n, len(probe_blocked[n]) // 1024), time.perf_counter() - start),
              flush=True)


rows = []


def measure_section(specs):
    """specs: (label, sql, params, baseline label, goal).  Runs args.repeat
    rounds over all of them, then prints each best time and its ratio."""
    best = [float("inf")] * len(specs)
    results = [None] * len(specs)
    for _ in range(args.repeat):
        for i, (_, sql, params, _, _) in enumerate(specs):
            start = time.process_time()
            results[i] = one(sql, *params)
            best[i] = min(best[i], time.process_time() - start)
    for i, (label, _, _, baseline, goal) in enumerate(specs):
        rows.append((label, best[i], baseline, goal))
        base = next((r for r in rows if r[0] == baseline), None) if baseline else None
        ratio = best[i] / base[1] if base else None
        verdict = ""
        if goal is not None and ratio is not None:
            verdict = "ok" if ratio <= goal else "MISSED"
        print("%-44s %9.1f ms %8s %7s %s" % (
            label, best[i] * 1000, "%.2fx" % ratio if ratio else "", "<=%.1fx" % goal if goal else "",
            verdict), flush=True)
    return results


print()
print("%-44s %12s %8s %7s" % ("statement", "time", "ratio", "goal"))
def section(name):
    return args.only in (None, name)


if section("agg"):
    print("-- aggregation (ratio to sum() of the same column)")
    measure_section([
        ("sum(z)          [baseline, 1k distinct]", "SELECT sum(z) FROM t", (), None, None),
        ("bloom_agg(z)    1k distinct, 2 KiB", "SELECT length(bloom_agg(z)) FROM t", (),
         "sum(z)          [baseline, 1k distinct]", 1.3),
        ("sum(y)          [baseline, 100k distinct]", "SELECT sum(y) FROM t", (), None, None),
        ("bloom_agg(y)    100k distinct, 128 KiB", "SELECT length(bloom_agg(y)) FROM t", (),
         "sum(y)          [baseline, 100k distinct]", 1.2),
        ("sum(x)          [baseline, all distinct]", "SELECT sum(x) FROM t", (), None, None),
        ("bloom_agg(x)    all distinct", "SELECT length(bloom_agg(x)) FROM t", (),
         "sum(x)          [baseline, all distinct]", 1.6),
        ("bloom_agg(x, %d, 0.01) fixed size" % N, "SELECT length(bloom_agg(x, %d, 0.01)) FROM t" % N, (),
         "sum(x)          [baseline, all distinct]", None),
    ])

if section("probe"):
    # Goal: within 1.2x of abs() at every size.  Row at a time,
    # a filter beyond the caches costs a memory access a row (classic: k).
    print("-- probing every row (ratio to the abs() scan)")
    base_probe = "count(*) WHERE abs(x) >= 0   [baseline]"
    probes = [("bloom_contains(?1, x), %s values bound" % format(n, ","), f) for n, f in probe.items()] + \
        [("the same, %s values, blocked" % format(n, ","), f) for n, f in probe_blocked.items()]
    # The floor of each filter size: a function that only hashes the row's
    # value and reads one line of a buffer that size (bench_sqlite_floor.c).
    floor_sizes = sorted({len(f) for _, f in probes}) if args.floor else []
    floor_label = {size: "one access a row, %s [floor]" % (
        "%d MiB" % (size >> 20) if size >= 1 << 20 else "%d KiB" % (size >> 10)) for size in floor_sizes}
    measure_section([(base_probe, "SELECT count(*) FROM t WHERE abs(x) >= 0", (), None, None)] + [
        (label, "SELECT count(*) FROM t WHERE bloom_contains(?1, x)", (f,), base_probe, 1.2)
        for label, f in probes] + [
        (floor_label[size], "SELECT count(*) FROM t WHERE bench_one_access(%d, x)" % size, (),
         base_probe, None) for size in floor_sizes])
    if floor_sizes:
        print("-- each probe against the floor of its filter's size (the access a row cannot hide)")
        for label, f in probes:
            time_of = {r[0]: r[1] for r in rows}
            print("%-44s %9s %8.2fx" % (label, "", time_of[label] / time_of[floor_label[len(f)]]))

if section("join"):
    print("-- the Bloom join: fact t against the 100k keys of small")
    base_join = "x IN (SELECT k FROM small)      [baseline]"
    recipe = ("SELECT count(*) FROM t WHERE bloom_contains((SELECT bloom_ref(b) FROM filters "
              "WHERE name = 'small'), x) AND x IN (SELECT k FROM small)")
    exact, got, _, _ = measure_section([
        (base_join, "SELECT count(*) FROM t WHERE x IN (SELECT k FROM small)", (), None, None),
        ("recipe: bloom_ref prefilter + IN, exact", recipe, (), base_join, None),
        ("bloom_ref prefilter only (approximate)",
         "SELECT count(*) FROM t WHERE bloom_contains((SELECT bloom_ref(b) FROM filters "
         "WHERE name = 'small'), x)", (), base_join, None),
        ("filter bound as ?1 (two statements)",
         "SELECT count(*) FROM t WHERE bloom_contains(?1, x) AND x IN (SELECT k FROM small)",
         (one("SELECT b FROM filters WHERE name = 'small'"),), base_join, None),
    ])
    assert got == exact, (got, exact)

    # The forms that copy the blob on every row are too slow for the whole
    # table: measured on a slice, per row, against bloom_ref on the same slice.
    slice_rows = min(N, 100_000)
    print("-- forms that copy the stored filter per row (first %d rows, per-row cost)" % slice_rows)
    forms = [
        ("bloom_ref(b) in a scalar subquery [recipe]",
         "bloom_contains((SELECT bloom_ref(b) FROM filters WHERE name = 'small'), x)", ""),
        ("b in a scalar subquery",
         "bloom_contains((SELECT b FROM filters WHERE name = 'small'), x)", ""),
        ("join against the one-row filters table", "bloom_contains(f.b, x)", ", filters f"),
        ("MATERIALIZED CTE, joined", "bloom_contains(c.b, x)", ", c"),
    ]
    for label, predicate, extra in forms:
        with_cte = "WITH c AS MATERIALIZED (SELECT b FROM filters WHERE name = 'small') " if ", c" in extra else ""
        sql = "%sSELECT count(*) FROM t%s WHERE t.rowid <= %d AND %s" % (with_cte, extra, slice_rows, predicate)
        seconds, _ = timed(sql, repeat=1)
        print("%-44s %9.3f us/row" % (label, seconds / slice_rows * 1e6), flush=True)

if section("combine"):
    # A column of filters of one size combined: 20 filters of 16 MiB (one
    # size class, as a day's filters sized alike are), against reading each
    # once and counting its bits.
    print("-- combining 20 filters of 16 MiB (ratio to reading them: sum of bloom_cardinality)")
    db.execute("DROP TABLE IF EXISTS days")
    db.execute("CREATE TABLE days (day INTEGER PRIMARY KEY, f BLOB)")
    empty = one("SELECT bloom_empty(10000000, 0.01)")
    db.executemany("INSERT INTO days VALUES (?1, bloom_add(?2, ?1))", [(d, empty) for d in range(20)])
    base_read = "sum(bloom_cardinality(f))       [baseline]"
    measure_section([
        (base_read, "SELECT sum(bloom_cardinality(f)) FROM days", (), None, None),
        ("bloom_union_agg(f)", "SELECT length(bloom_union_agg(f)) FROM days", (), base_read, None),
        ("bloom_intersect_agg(f)", "SELECT length(bloom_intersect_agg(f)) FROM days", (), base_read, None),
    ])
    db.execute("DROP TABLE days")

if section("sliced"):
    # A table of distinct stored filters probed per row: bloom_search reads
    # each row's header and the bytes its probe needs (incremental BLOB I/O);
    # a function argument, substr()'s too, is the whole BLOB.  Copies of one
    # filter, each with its own seed (bytes 16-23), so every row costs alike.
    print("-- a table of stored filters probed per row (per-row CPU time; ratio to one 32-byte substr() a row)")
    print("%-44s %12s %8s %14s" % ("statement", "per row", "ratio", "/ length(f)"), flush=True)
    # SQLite finds byte N of a value by walking its chain of overflow pages
    # from the start: the page size sets the cost of a far read.
    db.execute("ATTACH ':memory:' AS big_pages")
    db.execute("PRAGMA big_pages.page_size = 65536")
    series = "WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < %d) "
    for n, count in ((1_000_000, 200), (10_000_000, 20)):
        for layout in ("classic", "blocked"):
            table = "daily_%s_%d" % (layout, n)
            base = bytearray(one(series % n + "SELECT bloom_add_all(bloom_empty(?1, 0.01, 0, ?2), "
                                 "json_group_array(v)) FROM r", n, layout))
            for schema in ("main", "big_pages"):
                db.execute("CREATE TABLE %s.%s (day INTEGER PRIMARY KEY, f BLOB)" % (schema, table))
                for d in range(1, count + 1):
                    base[16:24] = d.to_bytes(8, "little")
                    db.execute("INSERT INTO %s.%s VALUES (?, ?)" % (schema, table), (d, bytes(base)))
            label = "%d x 10^%d, %s" % (count, len(str(n)) - 1, layout)
            specs = [
                ("length(f) [no read, the scan]", "SELECT count(*) FROM %s WHERE length(f) > 0" % table),
                ("one 32-byte substr() [baseline]",
                 "SELECT count(*) FROM %s WHERE substr(f, 33 + (day * 40961) %% %d, 32) <> x''"
                 % (table, n)),
                ("bloom_search(table, 'f', v)",
                 "SELECT count(*) FROM bloom_search('%s', 'f', 7919)" % table),
                ("bloom_search(table, 'f', v), 64 KiB pages",
                 "SELECT count(*) FROM bloom_search('%s', 'f', 7919, 'big_pages')" % table),
                ("WHERE bloom_contains(f, v), whole value",
                 "SELECT count(*) FROM %s WHERE bloom_contains(f, 7919)" % table),
            ]
            best = [float("inf")] * len(specs)
            for _ in range(max(args.repeat, 5)):
                for i, (_, sql) in enumerate(specs):
                    start = time.process_time()
                    one(sql)
                    best[i] = min(best[i], time.process_time() - start)
            print("%s (%d KiB each)" % (label, len(base) // 1024))
            for i, (what, _) in enumerate(specs):
                per_row = best[i] / count * 1e6
                print("  %-42s %9.1f us %7.1fx %13.1fx" % (what, per_row, best[i] / best[1],
                                                           best[i] / best[0]), flush=True)
            db.execute("DROP TABLE main.%s" % table)
            db.execute("DROP TABLE big_pages.%s" % table)

if section("bitslice"):
    # An index over a column of filters (the module bloom_bitslice): 20
    # values probed through it and by bloom_search's scan of every filter
    # (the same rowids, asserted); its build against a bloom_union_agg over
    # the column (both read every filter once); its size against the
    # filters'.  Filters of 10 to 1,000 values, as make bench-pg-bitslice's.
    n = args.bitslice_rows
    print("-- an index over a column of %d filters (10 to 1,000 values each)" % n)
    start = time.perf_counter()
    db.execute("CREATE TABLE stored (id INTEGER PRIMARY KEY, f BLOB)")
    db.execute("WITH RECURSIVE r(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM r WHERE v < %d) "
               "INSERT INTO stored SELECT v, (WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL "
               "SELECT x + 1 FROM s WHERE x < 10 + ((r.v * 2654435761) %% 1024) %% 991) "
               "SELECT bloom_agg((r.v + x * 7) %% 1000000) FROM s) FROM r" % n)
    filter_bytes = one("SELECT sum(length(f)) FROM stored")
    print("  %-58s %6.1f s" % ("setup: %d filters, %.1f MiB" % (n, filter_bytes / 2**20),
                               time.perf_counter() - start), flush=True)
    values = [(g * 48271) % 1000000 for g in range(1, 21)]

    def probes(sql):
        out = []
        for v in values:
            out.append(tuple(r[0] for r in db.execute(sql, (v,))))
        return out

    def best_of(fn):
        best, result = float("inf"), None
        for _ in range(args.repeat):
            start = time.process_time()
            result = fn()
            best = min(best, time.process_time() - start)
        return best, result

    scan_t, scanned = best_of(lambda: probes("SELECT id FROM bloom_search('stored', 'f', ?)"))
    union_t, _ = best_of(lambda: one("SELECT length(bloom_union_agg(f)) FROM stored"))
    size_before = one("PRAGMA page_count") * one("PRAGMA page_size")

    def build():
        db.execute("DROP TABLE IF EXISTS stored_f")
        db.execute("CREATE VIRTUAL TABLE stored_f USING bloom_bitslice(stored, f)")
    build_t, _ = best_of(build)
    index_bytes = one("PRAGMA page_count") * one("PRAGMA page_size") - size_before
    search_t, searched = best_of(lambda: probes("SELECT id FROM bloom_search('stored', 'f', ?)"))
    vtab_t, direct = best_of(lambda: probes("SELECT rowid FROM stored_f WHERE value = ?"))
    if scanned != searched or scanned != direct:
        print("DIFFERENT ANSWERS through the index")
        sys.exit(1)
    print("  same answers: 20 probes, %d rows" % sum(len(r) for r in scanned))
    print("  %-44s %9.2f ms" % ("probe, bloom_search scanning every filter", scan_t * 1000 / 20))
    print("  %-44s %9.2f ms %7.1fx faster" % ("probe, bloom_search through the index",
                                               search_t * 1000 / 20, scan_t / search_t))
    print("  %-44s %9.2f ms %7.1fx faster" % ("probe, SELECT rowid ... WHERE value = v",
                                               vtab_t * 1000 / 20, scan_t / vtab_t))
    print("  %-44s %9.1f ms" % ("bloom_union_agg(f)", union_t * 1000))
    print("  %-44s %9.1f ms %7.2fx bloom_union_agg" % ("CREATE VIRTUAL TABLE ... bloom_bitslice",
                                                        build_t * 1000, build_t / union_t))
    print("  %-44s %9.1f MiB %6.2fx the filters (%.1f MiB)" % (
        "index (shadow tables)", index_bytes / 2**20, index_bytes / filter_bytes,
        filter_bytes / 2**20), flush=True)

missed = [r for r in rows if r[3] is not None and r[2] is not None and
          r[1] / next(b for b in rows if b[0] == r[2])[1] > r[3]]
print()
print("goals: %d of %d met" % (sum(1 for r in rows if r[3] is not None) - len(missed),
                               sum(1 for r in rows if r[3] is not None)))
