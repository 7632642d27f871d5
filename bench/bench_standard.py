#!/usr/bin/env python3
"""Runtime filters on the standard workloads (make bench-tpch, make bench-tpcds).

Loads the data that bench/bench_kits.sh made into the server of PG* (the
environment psql reads), then runs every query with
bloomfilter.runtime_filter on and off, interleaved (on, off, off, on, ...),
and reports per query the median times, the filters EXPLAIN ANALYZE shows
with the setting on (planned, on which scans, rows removed, switched off),
and whether the rows on and off are the same (and, for TPC-H at scale 1,
the same as the kit's reference answers).  Results are "derived from TPC-H"
(or TPC-DS): the kits' license forbids calling them TPC results.

Exits 1 when a query's rows differ on and off, or from a reference answer.
"""
import argparse
import datetime
import decimal
import json
import math
import os
import re
import statistics
import sys
import time

import psycopg
from psycopg import errors

# ---- the queries, with the edits PostgreSQL needs ----

# the most timed runs of a short query, each setting (--min-seconds)
MAX_RUNS = 15

TPCH_KEYS = """
ALTER TABLE region ADD PRIMARY KEY (r_regionkey);
ALTER TABLE nation ADD PRIMARY KEY (n_nationkey);
ALTER TABLE part ADD PRIMARY KEY (p_partkey);
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey);
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
ALTER TABLE orders ADD PRIMARY KEY (o_orderkey);
ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber);
ALTER TABLE nation ADD FOREIGN KEY (n_regionkey) REFERENCES region;
ALTER TABLE supplier ADD FOREIGN KEY (s_nationkey) REFERENCES nation;
ALTER TABLE customer ADD FOREIGN KEY (c_nationkey) REFERENCES nation;
ALTER TABLE partsupp ADD FOREIGN KEY (ps_partkey) REFERENCES part;
ALTER TABLE partsupp ADD FOREIGN KEY (ps_suppkey) REFERENCES supplier;
ALTER TABLE orders ADD FOREIGN KEY (o_custkey) REFERENCES customer;
ALTER TABLE lineitem ADD FOREIGN KEY (l_orderkey) REFERENCES orders;
ALTER TABLE lineitem ADD FOREIGN KEY (l_partkey, l_suppkey) REFERENCES partsupp;
-- an index per foreign key not led by a primary key's column, as PostgreSQL
-- setups of TPC-H have (Q17 and Q20 run a correlated subquery per row)
CREATE INDEX ON lineitem (l_partkey, l_suppkey);
CREATE INDEX ON lineitem (l_suppkey);
CREATE INDEX ON orders (o_custkey);
CREATE INDEX ON partsupp (ps_suppkey);
CREATE INDEX ON supplier (s_nationkey);
CREATE INDEX ON customer (c_nationkey);
"""


def split_statements(text):
    """The statements of a kit's query file (no ';' inside their strings)."""
    return [s.strip() for s in text.split(';') if s.strip() and not all(
        line.strip().startswith('--') or not line.strip() for line in s.strip().splitlines())]


def is_query(statement):
    """A statement that returns rows (what is EXPLAINed and compared)."""
    body = '\n'.join(line for line in statement.splitlines() if not line.strip().startswith('--'))
    return re.match(r'\s*(select|with)\b', body, re.I) is not None


def tpch_queries(qdir):
    queries = []
    for n in range(1, 23):
        with open(os.path.join(qdir, f'{n}.sql')) as f:
            text = f.read()
        # qgen puts the row limit after the query's ';' ("limit -1;": none)
        m = re.search(r'^limit (-?\d+);\s*\Z', text, re.M)
        if m is None:
            sys.exit(f'bench_standard: no row limit at the end of TPC-H query {n}')
        text = text[:m.start()]
        # PostgreSQL has no precision for a day interval
        text = re.sub(r"interval '(\d+)' day \(3\)", r"interval '\1' day", text)
        statements = split_statements(text)
        if int(m.group(1)) > 0:
            main = [i for i, s in enumerate(statements) if is_query(s)]
            statements[main[-1]] += f'\nlimit {m.group(1)}'
        queries.append((f'Q{n}', statements))
    return queries


def tpcds_queries(qdir):
    """The stream of dsqgen's netezza dialect, one query per template, by
    template number, with PostgreSQL's date arithmetic."""
    with open(os.path.join(qdir, 'query_0.sql')) as f:
        stream = f.read()
    found = re.findall(r'^-- start query \d+ in stream \d+ using template query(\d+)\.tpl\n(.*?)^-- end query',
                       stream, re.M | re.S)
    if len(found) != 99:
        sys.exit(f'bench_standard: {len(found)} TPC-DS queries in the stream, not 99')
    queries = []
    for number, text in sorted(found, key=lambda t: int(t[0])):
        # netezza's "date + 30 days"
        text = re.sub(r'([+-])\s*(\d+) days\)', r"\1 interval '\2 days')", text)
        # an output column's name is no column inside an ORDER BY expression
        # in PostgreSQL (Q36, Q70, Q86): the expression it names instead
        named = re.search(r'(grouping\(\w+\)\s*\+\s*grouping\(\w+\))\s+as\s+lochierarchy', text, re.I)
        if named:
            text = re.sub(r'when\s+lochierarchy\s*=', f'when {named.group(1)} =', text)
        queries.append((f'Q{number}', split_statements(text)))
    return queries


# ---- loading ----

def load(conn, kitdir, workload, say):
    with open(os.path.join(kitdir, 'schema.sql')) as f:
        schema = f.read()
    datadir = os.path.join(kitdir, 'data')
    tables = sorted(t[:-4] for t in os.listdir(datadir) if t.endswith('.tbl'))
    conn.execute('DROP TABLE IF EXISTS ' + ', '.join(tables) + ' CASCADE')
    conn.execute(schema)
    for table in tables:
        started = time.monotonic()
        with conn.cursor() as cur:
            with cur.copy(f"COPY {table} FROM STDIN (FORMAT csv, DELIMITER '|', QUOTE E'\\x01', NULL '')") as copy:
                with open(os.path.join(datadir, table + '.tbl'), 'rb') as f:
                    while chunk := f.read(1 << 20):
                        copy.write(chunk)
        say(f'loaded {table} in {time.monotonic() - started:.1f} s')
    if workload == 'tpch':
        started = time.monotonic()
        conn.execute(TPCH_KEYS)
        say(f'keys and indexes in {time.monotonic() - started:.1f} s')
    started = time.monotonic()
    # hint bits and the visibility map set now, not by the first timed query
    conn.execute('VACUUM (FREEZE, ANALYZE)')
    say(f'VACUUM (FREEZE, ANALYZE) in {time.monotonic() - started:.1f} s')


# ---- running ----

class Timeout(Exception):
    pass


def run(conn, statements, filter_on):
    """Every statement with the setting, the rows of those that return rows, ms."""
    conn.execute('SET bloomfilter.runtime_filter = ' + ('on' if filter_on else 'off'))
    rows = []
    started = time.perf_counter()
    try:
        for s in statements:
            with conn.cursor() as cur:
                cur.execute(s)
                if cur.description is not None:
                    rows.append(cur.fetchall())
    except errors.QueryCanceled:
        cleanup(conn, statements)
        raise Timeout()
    return rows, (time.perf_counter() - started) * 1000


def cleanup(conn, statements):
    """After a cancelled query: undo what its first statements made (Q15's view)."""
    for s in statements:
        if re.match(r'\s*drop\b', s, re.I):
            try:
                conn.execute(s)
            except psycopg.Error:
                pass


def explain(conn, statements, filter_on, analyze):
    """The JSON plans of the statements that return rows (the others run)."""
    conn.execute('SET bloomfilter.runtime_filter = ' + ('on' if filter_on else 'off'))
    plans = []
    try:
        for s in statements:
            if is_query(s):
                options = 'ANALYZE, TIMING OFF, ' if analyze else ''
                plans.append(conn.execute(f'EXPLAIN ({options}FORMAT JSON) {s}').fetchone()[0][0]['Plan'])
            else:
                conn.execute(s)
    except errors.QueryCanceled:
        cleanup(conn, statements)
        raise Timeout()
    return plans


def plan_nodes(plan):
    yield plan
    for child in plan.get('Plans', []):
        yield from plan_nodes(child)


def filters_of(plans):
    """What EXPLAIN ANALYZE shows of the runtime filters: the filters built
    (by BloomFilterBuild), the scans that probe them (marked when they read
    their rows through an index by the exact set of keys, or were skipped
    whole), the rows they removed."""
    built, probes, removed, off, none = set(), {}, 0, 0, 0
    for p, plan in enumerate(plans):
        for node in plan_nodes(plan):
            provider = node.get('Custom Plan Provider')
            labels = {k: v for k, v in node.items() if re.fullmatch(r'Runtime Filter \d+', k)}
            if provider == 'BloomFilterBuild':
                built.update((p, k) for k in labels)
            elif provider in ('BloomBatchedProbe', 'BloomRuntimeFilter') and labels:
                # the filter node's scan is its child: "lineitem (Index Scan)"
                scan = node.get('Plans', [{}])[0] if provider == 'BloomRuntimeFilter' else node
                # a CTE's or a function's scan: its CTE's or its function's name
                name = scan.get('Relation Name') or scan.get('CTE Name') or scan.get('Function Name', '?')
                relation = name + (f" ({scan.get('Node Type')})" if scan is not node else '')
                # read through an index by the exact set of keys; skipped whole
                if 'Index Lookups' in node:
                    relation += ' (index lookups)'
                if not str(node.get('Scans Skipped', '0')).startswith('0'):
                    relation += ' (skipped)'
                probes[relation] = probes.get(relation, 0) + len(labels)
                removed += round(node.get('Rows Removed by Bloom Filter', 0) * node.get('Actual Loops', 1))
                off += sum('switched off' in v for v in labels.values())
                none += sum('(no filter)' in v for v in labels.values())
    where = ', '.join(r + (f' ({n})' if n > 1 else '') for r, n in sorted(probes.items()))
    return {'planned': len(built), 'where': where, 'removed': removed, 'switched_off': off, 'not_built': none}


def normalized(results):
    """Rows comparable across plans: every value as text, floats to 12
    significant digits, numerics without trailing zeros, rows sorted."""
    def value(v):
        if v is None:
            return '\\N'
        if isinstance(v, float):
            return f'{v:.12g}'
        if isinstance(v, decimal.Decimal):
            return f'{v.normalize():f}' if v.is_finite() else str(v)
        if isinstance(v, str):
            return v.rstrip()
        return str(v)
    return [sorted(tuple(value(v) for v in row) for row in rows) for rows in results]


def reference_differences(rows, path):
    """Rows against a TPC-H reference answer: the same count, text and
    integers (keys, counts) equal, other numbers within 0.01 (the answers are
    rounded to hundredths) or one part in a million (the specification allows
    $100 for a sum, 1% for an average or a ratio: Q17's sum / 7.0 is
    348406.05 in PostgreSQL's exact numeric, 348406.02 in the answer)."""
    with open(path) as f:
        lines = [line.rstrip('\n') for line in f if line.strip()]
    expected = [[v.strip() for v in line.split('|')] for line in lines[1:]]
    if len(expected) != len(rows):
        return f'{len(rows)} rows, the answer has {len(expected)}'

    def same(ours, theirs):
        if isinstance(ours, (decimal.Decimal, float, int)) and not isinstance(ours, bool):
            try:
                expected = decimal.Decimal(theirs)
            except decimal.InvalidOperation:
                return False
            off = abs(decimal.Decimal(str(ours)) - expected)
            if isinstance(ours, int):
                return off == 0
            return off <= decimal.Decimal('0.01') or off <= abs(expected) / 1000000
        # the answer files pad their columns: what a value starts or ends with is lost
        return str(ours).strip() == theirs

    for i, (row, answer) in enumerate(zip(rows, expected)):
        if len(row) != len(answer) or not all(same(a, b) for a, b in zip(row, answer)):
            return f'row {i + 1}: {tuple(row)} against {answer}'
    return None


def selftest():
    """The comparisons must see a difference: a value, a row, a reference."""
    import tempfile
    D = decimal.Decimal
    rows = [[('a  ', D('1.50'), 2.0, None), ('b', D('3'), 0.1 + 0.2, datetime.date(1995, 1, 1))]]
    checks = [
        ('rows in another order, padding, trailing zeros: the same',
         normalized(rows) == normalized([[('b', D('3.000'), 0.3, datetime.date(1995, 1, 1)), ('a', D('1.5'), 2.0, None)]])),
        ('a value off by 0.01: different', normalized(rows) != normalized([[rows[0][0], ('b', D('3.01'), 0.3, datetime.date(1995, 1, 1))]])),
        ('a NULL for a value: different', normalized(rows) != normalized([[('a', D('1.5'), None, None), rows[0][1]]])),
        ('a row missing: different', normalized(rows) != normalized([rows[0][:1]])),
        ('a row twice: different', normalized(rows) != normalized([rows[0] + rows[0][:1]])),
    ]
    with tempfile.NamedTemporaryFile('w', suffix='.out', delete=False) as f:
        f.write('name|total   \nA        |37734107.00\nN|991417.00\nR|25.52\n')
    checks += [
        ('the reference answer: the same', reference_differences([('A', D('37734107')), ('N', D('991417.004')), ('R', D('25.524'))], f.name) is None),
        ('the reference answer, a value that starts with a space: the same',
         reference_differences([(' A', D('37734107')), ('N', D('991417')), ('R', D('25.52'))], f.name) is None),
        ('the reference answer, an average off by 0.02: different',
         reference_differences([('A', D('37734107')), ('N', D('991417')), ('R', D('25.54'))], f.name) is not None),
        ('the reference answer, another name: different',
         reference_differences([('A', D('37734107')), ('X', D('991417')), ('R', D('25.52'))], f.name) is not None),
        ('the reference answer, an equal count: the same',
         reference_differences([('A', 37734107), ('N', D('991417')), ('R', D('25.52'))], f.name) is None),
        ('the reference answer, a row missing: different', reference_differences([('A', D('37734107'))], f.name) is not None),
        ('the reference answer, a sum off by a part in 10^7: the same',
         reference_differences([('A', D('37734110.7')), ('N', D('991417')), ('R', D('25.52'))], f.name) is None),
        ('the reference answer, a sum off by a part in 10^5: different',
         reference_differences([('A', D('37734480')), ('N', D('991417')), ('R', D('25.52'))], f.name) is not None),
        ('the reference answer, a count off by one: different',
         reference_differences([('A', 37734108), ('N', D('991417')), ('R', D('25.52'))], f.name) is not None),
    ]
    os.unlink(f.name)
    for name, ok in checks:
        print(('ok - ' if ok else 'FAILED - ') + 'bench_standard.py: ' + name)
    sys.exit(0 if all(ok for _, ok in checks) else 1)


def merge(argv):
    """One table of the runs of some queries each (their .json files)."""
    ap = argparse.ArgumentParser(prog='bench_standard.py --merge')
    ap.add_argument('--out', required=True)
    ap.add_argument('--runs', type=int, required=True)
    ap.add_argument('--timeout', type=int, required=True)
    ap.add_argument('runs_json', nargs='+')
    args = ap.parse_args(argv)
    parts = []
    for path in args.runs_json:
        with open(path) as f:
            parts.append(json.load(f))
    first = parts[0]
    if any((p['workload'], p['sf'], p['server'], p['settings']) !=
           (first['workload'], first['sf'], first['server'], first['settings']) for p in parts):
        sys.exit('bench_standard: the runs differ in workload, scale, server or settings')
    # a query in two runs: the one that finished (a later run of an edited query)
    results = {}
    for r in (r for p in parts for r in p['results']):
        before = results.get(r['query'])
        if before is not None and not before['error'] and not r['error']:
            sys.exit(f"bench_standard: {r['query']} finished in two runs")
        if before is None or before['error']:
            results[r['query']] = r
    results = sorted(results.values(), key=lambda r: int(r['query'][1:]))
    args.workload, args.sf = first['workload'], first['sf']
    report(args, results, first['server'], first['settings'],
           any('reference' in r for r in results), len(results))


def main():
    if sys.argv[1:] == ['--selftest']:
        selftest()
    if sys.argv[1:2] == ['--merge']:
        merge(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('workload', choices=['tpch', 'tpcds'])
    ap.add_argument('kitdir', help='what bench/bench_kits.sh printed')
    ap.add_argument('--sf', required=True)
    ap.add_argument('--runs', type=int, default=3, help='timed runs each, on and off')
    ap.add_argument('--timeout', type=int, default=300, help='seconds a statement may run')
    ap.add_argument('--min-seconds', type=float, default=6,
                    help=f'a query runs on (at most {MAX_RUNS} times each) until on and off took this long together')
    ap.add_argument('--confirm-runs', type=int, default=4,
                    help='more runs each of a query with a filter whose on/off ratio is past 1.05 either way')
    ap.add_argument('--confirm-seconds', type=float, default=120,
                    help='the most time those extra runs of one query may take')
    ap.add_argument('--queries', default='', help='only these, e.g. Q3,Q5 (default: all)')
    ap.add_argument('--out', required=True, help='the table, as Markdown; beside it the raw figures (.json)')
    ap.add_argument('--no-load', action='store_true', help='the tables are loaded already')
    args = ap.parse_args()

    began = time.monotonic()

    def say(msg):
        print(f'bench-{args.workload} [{time.monotonic() - began:.0f} s]: {msg}', flush=True)

    conn = psycopg.connect(autocommit=True, prepare_threshold=None,
                           options='-c session_preload_libraries=bloomfilter')
    server = conn.execute('SHOW server_version').fetchone()[0]
    settings = {name: conn.execute(f'SHOW {name}').fetchone()[0] for name in (
        'shared_buffers', 'work_mem', 'effective_cache_size', 'max_parallel_workers_per_gather', 'jit')}
    # the library is loaded: its setting exists
    conn.execute('SHOW bloomfilter.runtime_filter')
    if not args.no_load:
        started = time.monotonic()
        load(conn, args.kitdir, args.workload, say)
        say(f'loaded in {time.monotonic() - started:.0f} s')
    queries = (tpch_queries if args.workload == 'tpch' else tpcds_queries)(os.path.join(args.kitdir, 'queries'))
    if args.queries:
        wanted = [q.strip().upper() for q in args.queries.split(',') if q.strip()]
        unknown = set(wanted) - {name for name, _ in queries}
        if unknown:
            sys.exit(f'bench_standard: no such queries: {", ".join(sorted(unknown))}')
        queries = [q for q in queries if q[0] in wanted]
    conn.execute(f"SET statement_timeout = '{args.timeout}s'")
    answers = os.path.join(args.kitdir, 'answers')
    check_answers = args.workload == 'tpch' and float(args.sf) == 1
    missing = [n for n, _ in queries if check_answers and not os.path.exists(os.path.join(answers, 'q' + n[1:] + '.out'))]
    if missing:
        sys.exit(f'bench_standard: no reference answers in {answers} for {", ".join(missing)}')

    results = []
    for name, statements in queries:
        r = {'query': name, 'on': [], 'off': [], 'error': None}
        results.append(r)
        try:
            # planning alone: the setting off must plan no filter, and on
            # without a filter the plan must be PostgreSQL's own
            plan_off = explain(conn, statements, False, False)
            if filters_of(plan_off)['planned']:
                r['error'] = 'a runtime filter with the setting off'
                say(f'{name}: {r["error"]}')
                continue
            r['same_plan'] = json.dumps(plan_off) == json.dumps(explain(conn, statements, True, False))
            rows, timed_out = {}, []
            # at least RUNS each; a short query runs on until both settings
            # have had MIN_SECONDS together (at most MAX_RUNS each): a
            # single run of 100 ms is noisy by more than 5%
            i = 0
            while i < args.runs or (i < MAX_RUNS and not timed_out and
                                    sum(r['on']) + sum(r['off']) < args.min_seconds * 1000):
                i += 1
                for filter_on in ((True, False) if i % 2 == 1 else (False, True)):
                    try:
                        got, ms = run(conn, statements, filter_on)
                    except Timeout:
                        timed_out.append(filter_on)
                        continue
                    r['on' if filter_on else 'off'].append(ms)
                    rows.setdefault(filter_on, got)
                if timed_out:
                    # the other setting's time, if it finished, says which was faster
                    other = [f"{'on' if f else 'off'} {r['on' if f else 'off'][0]:,.0f} ms"
                             for f in (True, False) if f not in timed_out]
                    raise Timeout(' and '.join('on' if f else 'off' for f in timed_out) + ' over '
                                  + f'{args.timeout} s' + ''.join(', ' + o for o in other))
            # a query with a filter whose ratio is past 1.05 either way runs
            # more pairs (at most CONFIRM_RUNS, while they take under
            # CONFIRM_SECONDS): one disturbed run of a few seconds moves a
            # median of 3 by more than 5%, and the verdict "slower" or
            # "faster" should rest on more than that
            extra, began_extra = 0, time.monotonic()
            while (not r['same_plan'] and extra < args.confirm_runs and i < MAX_RUNS
                   and time.monotonic() - began_extra < args.confirm_seconds
                   and not 1 / 1.05 <= statistics.median(r['on']) / statistics.median(r['off']) <= 1.05):
                extra += 1
                i += 1
                pair = {}
                try:
                    for filter_on in ((True, False) if i % 2 == 1 else (False, True)):
                        pair[filter_on] = run(conn, statements, filter_on)
                except Timeout:
                    break
                for filter_on, (got, ms) in pair.items():
                    r['on' if filter_on else 'off'].append(ms)
            r['confirm_runs'] = extra
            r['same'] = normalized(rows[True]) == normalized(rows[False])
            if check_answers:
                ref = reference_differences(rows[False][-1], os.path.join(answers, 'q' + name[1:] + '.out'))
                ref_on = reference_differences(rows[True][-1], os.path.join(answers, 'q' + name[1:] + '.out'))
                r['reference'] = ref or ref_on
            r['filters'] = filters_of(explain(conn, statements, True, True))
        except Timeout as e:
            r['error'] = str(e) or f'over {args.timeout} s'
        except psycopg.Error as e:
            r['error'] = f'{type(e).__name__}: {str(e).splitlines()[0]}'
        if r['error']:
            say(f'{name}: {r["error"]}')
        else:
            r['off_ms'], r['on_ms'] = statistics.median(r['off']), statistics.median(r['on'])
            say(f"{name}: off {r['off_ms']:.0f} ms, on {r['on_ms']:.0f} ms, "
                f"{r['on_ms'] / r['off_ms']:.2f}x, filters {r['filters']['planned']}, "
                f"{'same rows' if r['same'] else 'DIFFERENT ROWS'}"
                + (f", reference: {r['reference'] or 'same'}" if check_answers else ''))

        # written after every query: a run stopped early still leaves its table
        report(args, results, server, settings, check_answers, len(queries), quiet=True)
    report(args, results, server, settings, check_answers, len(queries))
    bad = [r for r in results if not r['error'] and (not r['same'] or r.get('reference'))]
    sys.exit(1 if bad else 0)


def report(args, results, server, settings, check_answers, planned, quiet=False):
    done = [r for r in results if not r['error']]
    failed = [r for r in results if r['error']]
    title = 'derived from TPC-H' if args.workload == 'tpch' else 'derived from TPC-DS'
    lines = [f'Queries {title}, scale factor {args.sf}, PostgreSQL {server}, '
             f'{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; '
             + ', '.join(f'{k} {v}' for k, v in settings.items())
             + f'; medians of {args.runs} runs each'
             + (f' (more, up to {MAX_RUNS}, while on and off together took under {args.min_seconds:g} s)'
                if getattr(args, 'min_seconds', None) else '')
             + (f'; a query with a filter whose ratio was past 1.05 either way ran up to {args.confirm_runs}'
                f' more each, within {args.confirm_seconds:g} s'
                if getattr(args, 'confirm_runs', None) else '')
             + f', on and off interleaved; timeout {args.timeout} s.', '']
    head = '| query | off ms | on ms | on / off | filters | probed on | rows removed | switched off | rows on = off |'
    if check_answers:
        head += ' reference answer |'
    lines += [head, '|' + '---|' * (head.count('|') - 1)]
    for r in results:
        if r['error']:
            lines.append(f"| {r['query']} | {r['error']} |")
            continue
        f = r['filters']
        off = str(f["switched_off"]) + (f' ({f["not_built"]} not built)' if f['not_built'] else '')
        line = (f"| {r['query']} | {r['off_ms']:,.0f} | {r['on_ms']:,.0f} | {r['on_ms'] / r['off_ms']:.2f}x "
                f"| {f['planned']} | {f['where'] or '-'} | {f['removed']:,} | {off} "
                f"| {'yes' if r['same'] else '**no**'} |")
        if check_answers:
            line += f" {'yes' if not r['reference'] else '**no**: ' + r['reference']} |"
        lines.append(line)
    ratios = [r['on_ms'] / r['off_ms'] for r in done]
    filtered = [r['on_ms'] / r['off_ms'] for r in done if r['filters']['planned']]
    slower = [r['query'] for r in done if r['on_ms'] / r['off_ms'] > 1.05]
    slower_filtered = [r['query'] for r in done if r['on_ms'] / r['off_ms'] > 1.05 and r['filters']['planned']]
    different = [r['query'] for r in done if not r['same']]

    def geomean(xs):
        return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')

    total_off, total_on = sum(r['off_ms'] for r in done), sum(r['on_ms'] for r in done)
    lines += ['',
              f'- {len(done)} of {len(results)} queries finished on and off'
              + (f' ({planned - len(results)} not run: the run was stopped)' if planned > len(results) else '')
              + (': not ' + ', '.join(f"{r['query']} ({r['error']})" for r in failed) if failed else ''),
              f'- runtime filters planned in {len(filtered)} of {len(done)}',
              f'- geometric mean of on / off: {geomean(ratios):.3f}'
              + (f' (the {len(filtered)} with filters: {geomean(filtered):.3f})' if filtered else ''),
              f'- total time: off {total_off / 1000:,.1f} s, on {total_on / 1000:,.1f} s, on / off '
              + (f'{total_on / total_off:.3f}' if total_off else '-'),
              f'- slower than 1.05x with filters on: {len(slower)}' + (f" ({', '.join(slower)})" if slower else '')
              + f'; of those with a filter planned: {len(slower_filtered)}'
              + (f" ({', '.join(slower_filtered)})" if slower_filtered else '')
              + ', the others ran the same plan on and off: '
              + ('yes' if all(r['same_plan'] for r in done if not r['filters']['planned']) else
                 '**no** (' + ', '.join(r['query'] for r in done if not r['filters']['planned'] and not r['same_plan']) + ')'),
              f'- different rows on and off: {len(different)}' + (f" ({', '.join(different)})" if different else '')]
    if check_answers:
        wrong = [r['query'] for r in done if r.get('reference')]
        lines.append(f'- the kit\'s reference answers: {len(done) - len(wrong)} of {len(done)} the same'
                     + (f" (not {', '.join(wrong)})" if wrong else ''))
    text = '\n'.join(lines) + '\n'
    if not quiet:
        print('\n' + text)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, 'w') as f:
        f.write(text)
    with open(os.path.splitext(args.out)[0] + '.json', 'w') as f:
        json.dump({'workload': args.workload, 'sf': args.sf, 'server': server, 'settings': settings,
                   'results': results}, f, indent=1, default=str)


if __name__ == '__main__':
    main()
