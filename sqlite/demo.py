"""make demo: a Bloom join in SQLite, no server.

A 10,000-row dimension (customers) and a 1,000,000-row fact table (orders),
generated in memory.  The question: the orders of NZ enterprise customers.
The filter of those customers' ids is built once with bloom_agg and stored;
the join then checks each order against the filter before looking the
customer up, so 99% of the orders never reach the lookup.
"""
import json
import sqlite3
import sys
import time

EXTENSION = sys.argv[1] if len(sys.argv) > 1 else "build/bloomfilter"

SETUP = """
CREATE TABLE customers (id INTEGER PRIMARY KEY, country TEXT, segment TEXT);
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 10000)
INSERT INTO customers
SELECT i, CASE i % 25 WHEN 0 THEN 'NZ' WHEN 1 THEN 'FR' ELSE 'US' END,
       CASE (i / 25) % 4 WHEN 0 THEN 'enterprise' ELSE 'retail' END
FROM r;
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount REAL);
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 1000000)
INSERT INTO orders SELECT i, (i * 7919) % 10000 + 1, (i % 997) / 10.0 FROM r;
CREATE TABLE filters (name TEXT PRIMARY KEY, b BLOB NOT NULL);
"""

PREDICATE = "c.country = 'NZ' AND c.segment = 'enterprise'"

BUILD = """INSERT INTO filters
SELECT 'nz_enterprise', bloom_agg(c.id) FROM customers c
WHERE %s""" % PREDICATE

PLAIN = """SELECT count(*), sum(o.amount)
FROM orders o JOIN customers c ON c.id = o.customer_id
WHERE %s""" % PREDICATE

FILTER = "(SELECT bloom_ref(b) FROM filters WHERE name = 'nz_enterprise')"

BLOOM = """SELECT count(*), sum(o.amount)
FROM orders o JOIN customers c ON c.id = o.customer_id
WHERE bloom_contains(%s,
                     o.customer_id)
  AND %s""" % (FILTER, PREDICATE)


def indent(sql, pad="      "):
    return "\n".join(pad + line for line in sql.strip().splitlines())


def best_of(db, sql, runs=3):
    best, row = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        row = db.execute(sql).fetchone()
        best = min(best, time.perf_counter() - start)
    return best, row


def main():
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(EXTENSION)
    db.enable_load_extension(False)
    version = db.execute("SELECT bloom_version()").fetchone()[0]
    print("bloomfilter %s demo: a Bloom join in SQLite %s, in memory, no server"
          % (version, sqlite3.sqlite_version))
    print()

    start = time.perf_counter()
    db.executescript(SETUP)
    n_customers, = db.execute("SELECT count(*) FROM customers").fetchone()
    n_orders, = db.execute("SELECT count(*) FROM orders").fetchone()
    n_selected, = db.execute("SELECT count(*) FROM customers c WHERE %s" % PREDICATE).fetchone()
    print("1. Data, generated in %.1f s" % (time.perf_counter() - start))
    print("   customers %9s rows (dimension), %s of them NZ enterprise"
          % (format(n_customers, ","), n_selected))
    print("   orders    %9s rows (fact)" % format(n_orders, ","))
    print()

    start = time.perf_counter()
    db.execute(BUILD)
    built = time.perf_counter() - start
    size, = db.execute("SELECT length(b) FROM filters").fetchone()
    print("2. Build the filter once and store it (%.1f ms, %s bytes):" % (built * 1000, format(size, ",")))
    print(indent(BUILD))
    print()

    info = json.loads(db.execute("SELECT bloom_info(b) FROM filters").fetchone()[0])
    print("3. SELECT bloom_info(b) FROM filters:")
    for key, value in info.items():
        print("      %-16s %s" % (key, "%.6g" % value if isinstance(value, float) else value))
    print()

    # Every customer id against the filter: members must all be found; the
    # others that are found are the false positives.
    members, false_pos, others = db.execute("""
        SELECT sum(bloom_contains(%s, id) AND sel), sum(bloom_contains(%s, id) AND NOT sel),
               sum(NOT sel)
        FROM (SELECT c.id AS id, (%s) AS sel FROM customers c)""" % (FILTER, FILTER, PREDICATE)
                                            ).fetchone()
    rate = false_pos / others
    print("4. Accuracy, every customer id probed:")
    print("      members found     %d of %d (a Bloom filter never misses one)" % (members, n_selected))
    print("      false positives   %d of %s others = %.2f%% (target 1%%, estimated %.2f%%)"
          % (false_pos, format(others, ","), rate * 100, info["est_fpr"] * 100))
    print()

    plain_t, plain_row = best_of(db, PLAIN)
    bloom_t, bloom_row = best_of(db, BLOOM)
    passed, = db.execute("SELECT count(*) FROM orders o WHERE bloom_contains(%s, o.customer_id)"
                         % FILTER).fetchone()
    print("5. The join, best of 3 runs:")
    print("   plain join:")
    print(indent(PLAIN))
    print("   Bloom join (the recipe of docs/SQLITE.md):")
    print(indent(BLOOM))
    print()
    print("      plain join   %8.1f ms   %s orders, amount %.2f"
          % (plain_t * 1000, format(plain_row[0], ","), plain_row[1]))
    print("      Bloom join   %8.1f ms   %s orders, amount %.2f%s"
          % (bloom_t * 1000, format(bloom_row[0], ","), bloom_row[1],
             "   (same answer)" if bloom_row == plain_row else "   DIFFERENT ANSWER"))
    print()
    print("   Time saved: %.1f ms per query (%.1fx faster). The filter let %s of %s orders"
          % ((plain_t - bloom_t) * 1000, plain_t / bloom_t, format(passed, ","), format(n_orders, ",")))
    print("   through to the customers lookup; the build cost (%.1f ms) is paid once." % (built * 1000))
    if bloom_row != plain_row:
        sys.exit(1)


if __name__ == "__main__":
    main()
