"""Damaged shadow tables of a bloom_bitslice index: an error naming the
index, or every row the table's filters hold; never fewer rows silently.

An index over rows that all hold the member 'm' (rows sliced in full and
partial blocks with dead slots, pending rows, rows kept aside, folded rows,
groups of several geometries), then each edit of a list, one at a time, on
a fresh copy: every column of every shadow table (integers halved, zeroed,
increased, decreased, negated; blobs truncated, extended, zeroed, a bit
cleared, a bit set, bytes swapped), rows deleted, duplicated, moved; a
whole table emptied or dropped; the triggers dropped or altered.  The list
is read from the shadow tables themselves, so a column added later is
damaged too.  After each edit:

  - SELECT rowid FROM ix WHERE value = 'm', bloom_search('t', 'f', 'm') and
    SELECT rowid FROM ix (every indexed row) must each return every row of
    t whose filter is not NULL (more is allowed: the table's filter decides
    a candidate), or fail with a message naming the index;
  - then rows are written through the triggers (each statement may fail:
    SQLite undoes it), and the queries must hold again for the rows then in
    the table: a write must not turn damage into a silent wrong answer.

Edits that only add candidates, or that the index repairs, answer fully;
the rest must be errors.  Exits 1 when some edit gives fewer rows without
an error, and prints each such edit.

    /usr/bin/python3 sqlite/tests/test_bitslice_damage.py [path/to/bloomfilter] [-v]
"""
import re
import sqlite3
import sys

args = [a for a in sys.argv[1:] if not a.startswith("-")]
EXTENSION = args[0] if args else "build/bloomfilter"
VERBOSE = "-v" in sys.argv[1:]
INDEX = "t_ix"
NAMED = re.compile(r"\bindex %s\b" % INDEX)


def connect():
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(EXTENSION)
    db.enable_load_extension(False)
    return db


def series(sql):
    """generate_series(a, b) written out: the library lacks it (the shell has it)."""
    return re.sub(r"generate_series\((\d+), (\d+)\)",
                  r"(WITH RECURSIVE s(value) AS (SELECT \1 UNION ALL SELECT value + 1 FROM s "
                  r"WHERE value < \2) SELECT value FROM s)", sql)


def template():
    db = connect()
    db.executescript(series("""
        CREATE TABLE t (id INTEGER PRIMARY KEY, f BLOB);
        -- one geometry, 1,100 rows: a full block and a partial one
        INSERT INTO t SELECT value, bloom_add_all(bloom_empty_mk(1024, 7), json_array('m', value))
        FROM generate_series(1, 1100);
        -- blocked, seeded: a block of its own
        INSERT INTO t SELECT value, bloom_add_all(bloom_empty_mk(1024, 8, 5, 'blocked'), json_array('m', value))
        FROM generate_series(2001, 2100);
        -- a third geometry, too few rows for a block: pending
        INSERT INTO t SELECT value, bloom_add_all(bloom_empty_mk(512, 3, -1), json_array('m', value))
        FROM generate_series(3001, 3030);
        -- counting and scalable: kept aside
        INSERT INTO t SELECT value, bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 'm')
        FROM generate_series(4001, 4003);
        INSERT INTO t SELECT value, bloom_add(bloom_empty(10, 0.01, 0, 'scalable'), 'm')
        FROM generate_series(4004, 4005);
        -- larger than max_nbits: folded
        INSERT INTO t SELECT value, bloom_add_all(bloom_empty_mk(131072, 4), json_array('m', value))
        FROM generate_series(5001, 5010);
        INSERT INTO t SELECT value, NULL FROM generate_series(5011, 5015);
        CREATE VIRTUAL TABLE t_ix USING bloom_bitslice(t, f);
        -- through the triggers: pending rows sliced into the last block,
        -- dead slots, rows moved
        INSERT INTO t SELECT value, bloom_add_all(bloom_empty_mk(1024, 7), json_array('m', value))
        FROM generate_series(6001, 6100);
        DELETE FROM t WHERE id % 10 = 3;
        UPDATE t SET f = bloom_add(f, 'z') WHERE id % 10 = 4;
    """))
    return db


def copy(src):
    db = connect()
    src.backup(db)
    return db


def members(db):
    return {r[0] for r in db.execute("SELECT id FROM t WHERE f IS NOT NULL")}


QUERIES = {
    "value": "SELECT rowid FROM t_ix WHERE value = 'm'",
    "bloom_search": "SELECT id FROM bloom_search('t', 'f', 'm')",
    "scan": "SELECT rowid FROM t_ix",
}


def check(db):
    """'ok', 'error' (naming the index) or what went wrong."""
    want = members(db)
    outcome = "ok"
    for name, sql in QUERIES.items():
        try:
            got = {r[0] for r in db.execute(sql)}
        except sqlite3.Error as e:
            if not NAMED.search(str(e)):
                return "%s: an error not naming the index: %s" % (name, e)
            outcome = "error"
            continue
        if not want <= got:
            return "%s: %d of %d rows, no error" % (name, len(want & got), len(want))
    return outcome


WRITES = [
    "INSERT INTO t SELECT value, bloom_add_all(bloom_empty_mk(1024, 7), json_array('m', value)) "
    "FROM generate_series(7001, 7070)",
    "INSERT INTO t SELECT value, bloom_add_all(bloom_empty_mk(512, 3, -1), json_array('m', value)) "
    "FROM generate_series(7101, 7140)",
    "DELETE FROM t WHERE id % 7 = 0",
    "UPDATE t SET f = bloom_add(f, 'y') WHERE id % 5 = 1",
    "DELETE FROM t WHERE id BETWEEN 1 AND 900 AND id % 10 <> 1",
    "INSERT INTO t SELECT value, bloom_add(bloom_empty(100, 0.01, 0, 'counting'), 'm') "
    "FROM generate_series(7201, 7202)",
]


def written(db):
    for sql in WRITES:
        try:
            db.execute(series(sql))
        except sqlite3.Error:
            pass  # the statement is undone; the next one may still write
    return check(db)


# ---- the edits -------------------------------------------------------------

def shadow_tables(db):
    return [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't\\_ix\\_%' ESCAPE '\\' "
        "ORDER BY name")]


def columns(db, table):
    """(name, is_key) of a shadow table's columns."""
    return [(r[1], r[5] > 0) for r in db.execute("PRAGMA table_info(%s)" % table)]


def key_of(db, table):
    keys = [c for c, k in columns(db, table) if k]
    return keys[0] if keys else "rowid"


def blob_edits():
    def truncate(b):
        return b[:-1]

    def extend(b):
        return b + b"\0"

    def zero(b):
        return bytes(len(b))

    def clear_bit(b):  # the first set bit of the blob's second half
        b = bytearray(b)
        for i in range(len(b) // 2, len(b)):
            if b[i]:
                b[i] &= b[i] - 1
                return bytes(b)
        return bytes(b)

    def set_bit(b):
        b = bytearray(b)
        for i in range(len(b)):
            if b[i] != 0xFF:
                b[i] |= b[i] + 1
                return bytes(b)
        return bytes(b)

    def swap_halves(b):
        h = len(b) // 2
        return b[h:2 * h] + b[:h] + b[2 * h:]

    return [("truncated", truncate), ("extended", extend), ("zeroed", zero),
            ("a bit cleared", clear_bit), ("a bit set", set_bit), ("halves swapped", swap_halves)]


INT_EDITS = [("halved", "%s / 2"), ("zeroed", "0"), ("plus 1", "%s + 1"), ("minus 1", "%s - 1"),
             ("doubled", "%s * 2"), ("negated", "-%s"), ("plus 1024", "%s + 1024")]


def edits(db):
    """(description, function(db)) for every edit."""
    out = []
    for table in shadow_tables(db):
        key = key_of(db, table)
        rows = [r[0] for r in db.execute("SELECT %s FROM %s ORDER BY 1" % (key, table))]
        if not rows:
            continue
        pick = {"first row": rows[:1], "last row": rows[-1:], "every row": rows}
        if table == INDEX + "_config":
            pick = {"row %s" % r: [r] for r in rows}
        for col, is_key in columns(db, table):
            kinds = {r[0] for r in db.execute("SELECT DISTINCT typeof(%s) FROM %s" % (col, table))}
            for where, keys in pick.items():
                if kinds <= {"integer"}:
                    for what, expr in INT_EDITS:
                        e = expr % col if "%s" in expr else expr
                        out.append(("%s.%s %s, %s" % (table, col, what, where),
                                    lambda d, t=table, c=col, e=e, k=key, ks=keys:
                                    [d.execute("UPDATE OR IGNORE %s SET %s = %s WHERE %s = ?" % (t, c, e, k), (x,))
                                     for x in ks]))
                if kinds <= {"blob"}:
                    for what, fn in blob_edits():
                        out.append(("%s.%s %s, %s" % (table, col, what, where),
                                    lambda d, t=table, c=col, fn=fn, k=key, ks=keys:
                                    [d.execute("UPDATE %s SET %s = ? WHERE %s = ?" % (t, c, k),
                                               (fn(d.execute("SELECT %s FROM %s WHERE %s = ?" % (c, t, k),
                                                             (x,)).fetchone()[0]), x))
                                     for x in ks]))
                if kinds <= {"text"}:
                    out.append(("%s.%s renamed, %s" % (table, col, where),
                                lambda d, t=table, c=col, k=key, ks=keys:
                                [d.execute("UPDATE %s SET %s = %s || 'x' WHERE %s = ?" % (t, c, c, k), (x,))
                                 for x in ks]))
        # rows
        for where, keys in pick.items():
            out.append(("%s: %s deleted" % (table, where),
                        lambda d, t=table, k=key, ks=keys:
                        [d.execute("DELETE FROM %s WHERE %s = ?" % (t, k), (x,)) for x in ks]))
        if key != "rowid" and table != INDEX + "_config":
            cols = [c for c, _ in columns(db, table) if c != key]
            out.append(("%s: the last row duplicated under a new key" % table,
                        lambda d, t=table, k=key, cs=cols:
                        d.execute("INSERT INTO %s(%s, %s) SELECT (SELECT max(%s) FROM %s) + 1, %s FROM %s "
                                  "ORDER BY %s DESC LIMIT 1"
                                  % (t, k, ",".join(cs), k, t, ",".join(cs), t, k))))
            out.append(("%s: the first row moved to a new key" % table,
                        lambda d, t=table, k=key:
                        d.execute("UPDATE %s SET %s = (SELECT max(%s) FROM %s) + 1 WHERE %s = "
                                  "(SELECT min(%s) FROM %s)" % (t, k, k, t, k, k, t))))
        out.append(("%s: emptied" % table, lambda d, t=table: d.execute("DELETE FROM %s" % t)))
        out.append(("%s: dropped" % table, lambda d, t=table: d.execute("DROP TABLE %s" % t)))
    # the triggers
    for r in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").fetchall():
        name, sql = r
        out.append(("trigger %s dropped" % name,
                    lambda d, n=name: d.execute('DROP TRIGGER "%s"' % n)))
        altered = re.sub(r"\bBEGIN\b", "WHEN 0 BEGIN", sql, count=1) if " WHEN " not in sql \
            else sql.replace(" WHEN ", " WHEN 0 AND (", 1).replace(" BEGIN", ") BEGIN", 1)
        out.append(("trigger %s altered (WHEN 0)" % name,
                    lambda d, n=name, s=altered: d.executescript('DROP TRIGGER "%s"; %s;' % (n, s))))
        out.append(("trigger %s altered (a no-op body)" % name,
                    lambda d, n=name, s=sql: d.executescript(
                        'DROP TRIGGER "%s"; %s;' % (n, s[:s.index("BEGIN")] + "BEGIN SELECT 1; END"))))
    return out


def fingerprint(db):
    """The shadow tables' rows and the schema, to tell an edit that changed
    nothing (UPDATE OR IGNORE met a key already there, 0 halved)."""
    rows = [list(db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name"))]
    for table in shadow_tables(db):
        rows.append(list(db.execute("SELECT * FROM %s ORDER BY 1" % table)))
    return hash(repr(rows))


def main():
    base = template()
    unchanged = fingerprint(base)
    assert check(base) == "ok", check(base)
    assert written(copy(base)) == "ok"
    silent, counts = [], {"ok": 0, "error": 0, "unchanged": 0}
    all_edits = edits(base)
    for what, edit in all_edits:
        db = copy(base)
        try:
            edit(db)
        except sqlite3.Error as e:
            print("edit refused: %s: %s" % (what, e))
            counts["unchanged"] += 1
            continue
        if fingerprint(db) == unchanged:
            counts["unchanged"] += 1
            if VERBOSE:
                print("same  %s" % what)
            continue
        first = check(db)
        after = written(db) if first in ("ok", "error") else None
        outcome = "error" if "error" in (first, after) else "ok"
        if first not in ("ok", "error") or after not in ("ok", "error"):
            silent.append(what)
            print("FAIL %s: %s" % (what, first if after is None else "after writes, " + after))
        else:
            counts[outcome] += 1
            if VERBOSE:
                print("%-5s %s" % (outcome, what))
        db.close()
    # a damaged index still connects, so that DROP TABLE can drop it
    for damage in ("UPDATE t_ix_config SET v = 1 WHERE k = 'version'", "DROP TABLE t_ix_config",
                   "DELETE FROM t_ix_groups"):
        db = copy(base)
        db.execute(damage)
        db = copy(db)  # a new connection: the index connects again
        try:
            db.execute(QUERIES["value"]).fetchall()
            silent.append(damage + ", on connecting")
            print("FAIL %s, on connecting: no error" % damage)
        except sqlite3.Error as e:
            if not NAMED.search(str(e)):
                silent.append(damage + ", on connecting")
                print("FAIL %s, on connecting: %s" % (damage, e))
        try:
            db.execute("DROP TABLE t_ix")
            left = db.execute("SELECT group_concat(name) FROM sqlite_master "
                              "WHERE name LIKE 't\\_ix%' ESCAPE '\\'").fetchone()[0]
            if left is not None:
                raise sqlite3.Error("left behind: " + left)
        except sqlite3.Error as e:
            silent.append(damage + ", dropped")
            print("FAIL %s, then DROP TABLE t_ix: %s" % (damage, e))
    print("%d edits, %d of them changed nothing: %d answered every row, %d an error naming the "
          "index, %d silently fewer rows" % (len(all_edits), counts["unchanged"], counts["ok"],
                                            counts["error"], len(silent)))
    return 1 if silent else 0


if __name__ == "__main__":
    sys.exit(main())
