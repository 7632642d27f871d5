#!/usr/bin/python3
"""Runs every fenced example of README.md and docs/*.md, so the docs cannot
drift from the code (`tools/suites/66-docs.sh`, part of `make test`).

    tools/doctest.py [--engines sqlite,pg] [--engine-blocks-only] [--verbose] [--selftest PAGE] [FILE.md ...]

Every fenced block is one test.  What a block is comes from its language and
from an optional annotation, an HTML comment on the line right above the fence
(invisible on GitHub):

    <!-- doctest: pg -->                      ```sql, PostgreSQL only
    <!-- doctest: sqlite pg -->               ```sql, both engines

  sql     Run statement by statement in each engine it targets: by default the
          engine of the page (docs/SQLITE.md: sqlite, docs/POSTGRESQL.md: pg,
          any other page: both).  In SQLite each block starts from a fresh
          database holding the fixture (tools/doctest/fixture-sqlite.sql:
          tables customers, orders, visits, small, big, sales) and the loaded
          extension (unless the block loads it itself: `.load build/bloomfilter`).
          In PostgreSQL every block of every page runs in one database, in
          order, as a reader runs them in `make psql`'s: the database
          tools/doctest/fixture-pg.sql makes (the extension and the same
          tables), which tools/psql.sh makes for `make psql`; each block in a
          psql session of its own, which must leave no setting changed (SET
          without RESET: `make psql` is one session).  Every statement must succeed, except
          one followed by a comment `-- error: TEXT` (on its line or the next),
          which must fail with a message containing TEXT.  SQLite runs through
          Debian's /usr/bin/python3 sqlite3 module (`.load PATH` is the only
          dot-command); PostgreSQL through psql in the cluster of PGHOST/PGPORT
          (tools/suites/67-docs-pg.sh runs this with a throwaway server's).
  sh      Run by bash -e in the page's scratch directory: a copy of the tree
  python  (tracked and untracked files), with build/bloomfilter.so and
          build/app.db (an SQLite database of the fixture), where a reader
          runs them: the root of a clone.  A block must leave nothing there
          that git does not ignore (examples write into build/ or a scratch
          directory of their own).  PGDATABASE is the PostgreSQL database of
          the sql blocks.  Python is /usr/bin/python3.
          An sh block's `npm install [--prefix DIR] NAME@X.Y.Z` (pinned
          exactly) runs for real, after node_modules is copied in from
          build/doctest-npm, where it is installed once (npm_from_cache).
  c, any  Need an annotation:
          file="NAME"     write the block to NAME in the scratch directory
                          before the page's blocks run (a later sh block
                          compiles it; the test fails unless a block that
                          names NAME passes);
          output="CMD"    the block is (part of) what CMD prints in the scratch
                          directory, whitespace aside;
          skip="REASON"   not run; the reason is printed.  Keep these few.

Further annotation words:
          omit-line="TEXT" reason="R"  an sh block runs without the lines that
                          start with TEXT (e.g. `make test`, which would recurse)
          replace="OLD=>NEW"  (repeatable) substitute before running; NEW may
                          name environment variables ($PGHOST): for placeholders
                          such as a remote server's host name
          own-tables      (sqlite) the block makes its own tables: its
                          database starts without the fixture
          sqlite, pg      (sh, python) the block needs this engine: not run
                          when it is not selected (default: the page's)
          database="NAME" (pg) create database NAME (the fixture and the
                          extension) first, e.g. the remote side of postgres_fdw
          exact="QUERY"   the block is a recipe whose answer must be the exact
                          one.  sql: after the block, QUERY runs in the same
                          database, and its rows must be those of the block's
                          last statement.  sh, python: QUERY runs in SQLite on
                          the scratch directory's build/app.db, and its rows, one a
                          line with | between values, must be the last lines
                          the block prints.  Rows compare as a multiset,
                          numbers to 1e-9 relative (sums added in another
                          order).  A Bloom filter is a pre-filter: a recipe
                          that forgets the exact join or recheck counts its
                          false positives.
          no-exact="REASON"  (sql) a block that probes a table with a filter
                          on purpose without the exact recheck (the reason is
                          printed).  Every other SQL block with a Bloom join (a
                          statement with a FROM clause that probes with
                          bloom_contains, @> or <@ a filter given as a subquery
                          or a parameter) must have exact=.

An annotation may span lines (`<!-- doctest:` on its first, `-->` on its last).

Links: every relative link of a page's prose (`[text](path)`, `[text](path#anchor)`,
`[text](#anchor)`) must name a file of the tree, and, where it names an anchor of
a .md page, one of that page's headings as GitHub spells its anchor.  A broken
link is a failed test; a page whose links all resolve, one passed test.  Checked
in the run without --engine-blocks-only (66-docs).

A fenced block of any other kind, or one without a classification, fails.
Ends with "docs: N passed, M failed" and exits 1 on any failure.
"""
import argparse
import contextlib
import fcntl
import glob
import io
import json
import math
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, 'tools', 'doctest')
SQLITE_LIB = os.path.join(ROOT, 'build', 'bloomfilter')
PAGE_ENGINE = {'docs/SQLITE.md': ['sqlite'], 'docs/POSTGRESQL.md': ['pg']}
SQL_LANGS = {'sql'}
SH_LANGS = {'sh', 'bash', 'shell'}
PY_LANGS = {'python', 'python3', 'py'}
TIMEOUT = 300


class Block:
    def __init__(self, page, line, lang, text, notes):
        self.page, self.line, self.lang, self.text, self.notes = page, line, lang, text, notes

    @property
    def name(self):
        return f'{self.page}:{self.line} {self.lang or "(no language)"}'


class DocError(Exception):
    pass


# ---- markdown -------------------------------------------------------------

FENCE = re.compile(r'^( *)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$')
NOTE = re.compile(r'^\s*<!--\s*doctest:(.*?)-->\s*$', re.S)


def parse_note(text):
    """'pg database="dw" replace="a=>b"' -> {'engines': [...], key: value/list}."""
    notes = {'engines': [], 'replace': []}
    for word in shlex.split(text):
        if '=' in word:
            key, value = word.split('=', 1)
            if key == 'replace':
                notes['replace'].append(value)
            elif key in ('file', 'output', 'skip', 'omit-line', 'reason', 'database', 'exact',
                         'no-exact'):
                notes[key] = value
            else:
                raise DocError(f'unknown doctest annotation {key!r}')
        elif word in ('sqlite', 'pg'):
            notes['engines'].append(word)
        elif word == 'own-tables':
            notes['own-tables'] = True
        else:
            raise DocError(f'unknown doctest annotation {word!r}')
    return notes


def blocks_of(page):
    path = os.path.join(ROOT, page)
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m.group(1)), m.group(2), m.group(3).lower()
        start = i
        body = []
        i += 1
        while i < len(lines) and not re.match(r'^ *' + re.escape(fence[0]) + '{%d,}\\s*$' % len(fence), lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == '' else lines[i])
            i += 1
        i += 1
        note_text = annotation_above(lines, start)
        try:
            notes = parse_note(note_text)
        except DocError as e:
            notes = {'engines': [], 'replace': [], 'invalid': str(e)}
        blocks.append(Block(page, start + 1, lang, '\n'.join(body) + '\n', notes))
    return blocks


def annotation_above(lines, fence):
    """The text of the doctest annotation ending on the nearest non-blank line
    above the fence ('' if none); it may start some lines higher."""
    j = fence - 1
    while j >= 0 and lines[j].strip() == '':
        j -= 1
    if j < 0 or not lines[j].rstrip().endswith('-->'):
        return ''
    first = j
    while first > 0 and '<!--' not in lines[first]:
        first -= 1
    n = NOTE.match('\n'.join(lines[first:j + 1]))
    return ' '.join(n.group(1).split()) if n else ''


# ---- links ----------------------------------------------------------------

LINK = re.compile(r'\[(?:[^\]`]|`[^`]*`)*\]\(([^)\s]+)\)')
HEADING = re.compile(r'^#{1,6}\s+(.*?)\s*#*\s*$')


def prose_lines(page):
    """(line number, text) of the lines outside fenced blocks, inline code removed."""
    with open(os.path.join(ROOT, page), encoding='utf-8') as f:
        lines = f.read().split('\n')
    fence = None
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(2)
        elif fence is not None and re.match(r'^ *' + re.escape(fence[0]) + '{%d,}\\s*$' % len(fence), line):
            fence = None
        elif fence is None:
            yield number, line


def anchors_of(page):
    """The anchors GitHub gives the headings of PAGE: the heading's text in
    lower case, without punctuation but - and _, spaces as hyphens, a repeated
    one suffixed -1, -2, ..."""
    seen, anchors = {}, set()
    for _, line in prose_lines(page):
        m = HEADING.match(line)
        if not m:
            continue
        text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', m.group(1)).replace('`', '')
        slug = re.sub(r'[^\w\- ]', '', text.lower()).replace(' ', '-')
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f'{slug}-{n}')
    return anchors


def links_of(page):
    """(line number, target) of every relative link of PAGE's prose."""
    for number, line in prose_lines(page):
        for target in LINK.findall(re.sub(r'`[^`]*`', '``', line)):
            if not re.match(r'^[a-z][a-z0-9+.-]*:', target):
                yield number, target


def broken_link(page, target):
    """Why TARGET, a link of PAGE, leads nowhere ('' when it resolves)."""
    path, _, anchor = target.partition('#')
    name = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    if not os.path.exists(os.path.join(ROOT, name)):
        return f'no file {name}'
    if anchor and name.endswith('.md') and anchor not in anchors_of(name):
        return f'no heading of {name} has the anchor #{anchor}'
    return ''


# ---- SQL statements -------------------------------------------------------

def split_sql(text):
    """Statements of a script, each (sql, expected_error or None).  Knows
    quotes, comments, dollar quotes, sqlite dot-commands and psql
    backslash commands (each a line of its own)."""
    stmts = []
    cur = []
    i, n = 0, len(text)
    at_start = True

    def flush():
        sql = ''.join(cur).strip()
        cur.clear()
        if strip_comments(sql).strip():
            stmts.append([sql, None])

    while i < n:
        c = text[i]
        if at_start and c in ' \t\n':
            cur.append(c)
            i += 1
            continue
        if at_start and c in '.\\' and (i == 0 or text[i - 1] == '\n' or ''.join(cur).strip() == ''):
            end = text.find('\n', i)
            end = n if end < 0 else end
            cur.append(text[i:end])
            flush()
            i = end
            continue
        if c == '-' and text.startswith('--', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            comment = text[i + 2:end].strip()
            if comment.startswith('error:') and stmts and at_start:
                stmts[-1][1] = comment[len('error:'):].strip()
            elif not at_start:
                cur.append(text[i:end])
            i = end
            continue
        at_start = False
        if c == '/' and text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            cur.append(text[i:end])
            i = end
        elif c in '\'"':
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            cur.append(text[i:j + 1])
            i = j + 1
        elif c == '$':
            m = re.match(r'\$([A-Za-z_][A-Za-z_0-9]*)?\$', text[i:])
            if m:
                tag = m.group(0)
                end = text.find(tag, i + len(tag))
                end = n if end < 0 else end + len(tag)
                cur.append(text[i:end])
                i = end
            else:
                cur.append(c)
                i += 1
        elif c == ';':
            cur.append(c)
            flush()
            at_start = True
            i += 1
        else:
            cur.append(c)
            i += 1
    if not at_start:
        raise DocError(f'statement without a final semicolon: {"".join(cur).strip()[:80]!r}')
    return [tuple(s) for s in stmts]


def strip_comments(sql):
    return re.sub(r'--[^\n]*', '', sql)


def top_level(sql):
    """sql without its parenthesized parts and string literals."""
    out, depth, quote = [], 0, None
    for c in sql:
        if quote:
            quote = None if c == quote else quote
        elif c in '\'"':
            quote = c
        elif c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        elif depth == 0:
            out.append(c)
    return ''.join(out)


BLOOM_PROBE = re.compile(r'bloom_contains\s*\(|@>|<@', re.I)
FILTER_FROM_ELSEWHERE = re.compile(r'\(\s*select\b|\?\d*|\$\d', re.I)


def is_bloom_join(sql):
    """A statement that reads a table (a FROM clause outside parentheses) and
    probes with a filter that is a subquery's result or a parameter: its rows
    are candidates, exact only with the exact join or recheck kept."""
    sql = strip_comments(sql)
    return (re.search(r'\bfrom\b', top_level(sql), re.I) is not None
            and BLOOM_PROBE.search(sql) is not None
            and FILTER_FROM_ELSEWHERE.search(sql) is not None)


def check_exact_declared(stmts, notes):
    """A Bloom join needs exact= (or no-exact=REASON); exact= needs a last
    statement that returns the recipe's answer."""
    joins = [sql for sql, _ in stmts if is_bloom_join(sql)]
    if joins and 'exact' not in notes and 'no-exact' not in notes:
        raise DocError('a Bloom join returns candidates, false positives included; declare the '
                       'exact query its answer must equal: <!-- doctest: exact="SELECT ..." --> '
                       f'(or no-exact="REASON")\n  {joins[-1]}')
    if 'exact' in notes and (stmts[-1][1] is not None or stmts[-1][0][:1] in '.\\'):
        raise DocError('exact=: the last statement must be the recipe, a query that succeeds')


def normal(value):
    """A value of either engine (a Python value, or psql's text) as an int, a
    float, or text; a blob as bytea's hex text."""
    if isinstance(value, bytes):
        return '\\x' + value.hex()
    if isinstance(value, (int, float)) or value is None:
        return value
    if re.fullmatch(r'-?\d+', value):
        return int(value)
    if re.fullmatch(r'-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?|-?Infinity|NaN', value, re.I):
        return float(value)
    return value


def same_value(a, b):
    """Equal; numbers of which one is a float, to 1e-9 relative."""
    if isinstance(a, float) or isinstance(b, float):
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b))
        return numbers and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def same_answer(recipe, exact):
    """Rows (sequences) equal as multisets, value by value (same_value)."""
    def key(row):
        return [format(v, '.6g') if isinstance(v, float) else str(v) for v in row]

    recipe = sorted(([normal(v) for v in row] for row in recipe), key=key)
    exact = sorted(([normal(v) for v in row] for row in exact), key=key)
    return len(recipe) == len(exact) and all(
        len(r) == len(e) and all(same_value(a, b) for a, b in zip(r, e))
        for r, e in zip(recipe, exact))


def check_same_answer(recipe, exact, query):
    if not same_answer(recipe, exact):
        def show(rows):
            return f'{len(rows)} row(s): ' + '; '.join('|'.join(map(str, r)) for r in rows[:5])
        raise DocError(f'the recipe\'s answer is not the exact one:\n  recipe: {show(recipe)}\n'
                       f'  exact:  {show(exact)}\n  (exact query: {query})')


def substitute(text, notes):
    for rule in notes['replace']:
        if '=>' not in rule:
            raise DocError(f'replace={rule!r} needs OLD=>NEW')
        old, new = rule.split('=>', 1)
        if old not in text:
            raise DocError(f'replace: {old!r} is not in the block')
        text = text.replace(old, os.path.expandvars(new))
    return text


# ---- engines --------------------------------------------------------------

def fixture(engine):
    with open(os.path.join(FIXTURES, f'fixture-{engine}.sql'), encoding='utf-8') as f:
        return f.read()


def sqlite_fixture_db(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(fixture('sqlite'))
    db.close()


def sqlite_rows(path, query):
    """The rows of query on the SQLite database at path, the extension loaded."""
    db = sqlite3.connect(path)
    try:
        db.enable_load_extension(True)
        db.load_extension(SQLITE_LIB)
        return db.execute(query).fetchall()
    finally:
        db.close()


def run_sqlite(stmts, notes, log):
    db = sqlite3.connect(':memory:', isolation_level=None)
    if 'own-tables' not in notes:
        db.executescript(fixture('sqlite'))
    if not any(s.lstrip().startswith('.load') for s, _ in stmts):
        db.enable_load_extension(True)
        db.load_extension(SQLITE_LIB)
        db.enable_load_extension(False)
    rows = []
    try:
        for sql, want_error in stmts:
            log.append(f'sqlite> {sql}')
            if sql.startswith('.'):
                words = shlex.split(sql)
                if words[0] != '.load' or len(words) != 2:
                    raise DocError(f'unsupported sqlite3 dot-command: {sql}')
                db.enable_load_extension(True)
                db.load_extension(words[1])
                db.enable_load_extension(False)
                continue
            try:
                rows = db.execute(sql).fetchall()
            except sqlite3.Error as e:
                if want_error is not None and want_error in str(e):
                    log.append(f'  error as documented: {e}')
                    continue
                raise DocError(f'{sql}\n  failed: {e}' +
                               (f'\n  documented error: {want_error}' if want_error else ''))
            if want_error is not None:
                raise DocError(f'{sql}\n  succeeded; the docs say it fails with: {want_error}')
            for row in rows[:5]:
                log.append('  ' + '|'.join(summarize(v) for v in row))
        if 'exact' in notes:
            exact = db.execute(notes['exact']).fetchall()
            log.append(f'sqlite> {notes["exact"]}  -- exact: {len(exact)} row(s), as the recipe')
            check_same_answer(rows, exact, notes['exact'])
    finally:
        db.close()


def summarize(value):
    if isinstance(value, bytes):
        return f'<blob {len(value)} bytes>'
    return str(value)


def psql(args, script=None):
    return subprocess.run(['psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1'] + args,
                          input=script, capture_output=True, text=True, timeout=TIMEOUT)


class Postgres:
    """The database every PostgreSQL block runs in, in order: made as
    `make psql` makes its own (tools/psql.sh), by fixture-pg.sql."""

    def __init__(self, name='doctest_psql'):
        self.db = name
        self.make_database(name)

    @staticmethod
    def make_database(name):
        r = psql(['-d', 'postgres', '-c', f'DROP DATABASE IF EXISTS {name}',
                  '-c', f'CREATE DATABASE {name}'])
        if r.returncode == 0:
            r = psql(['-d', name], fixture('pg'))
        if r.returncode != 0:
            raise SystemExit(f'doctest: cannot make the PostgreSQL database {name}: {r.stderr}')

    def run(self, stmts, notes, log):
        if 'own-tables' in notes:
            raise DocError('own-tables: a PostgreSQL block runs in make psql\'s database, after '
                           'the blocks above it; name its tables so that they do not clash')
        if 'database' in notes:
            self.make_database(notes['database'])
        db = self.db
        script = ['\\set ON_ERROR_STOP 0', '\\pset pager off']
        queries = list(stmts)
        if 'exact' in notes:  # its rows and the recipe's, without headers or footers
            queries.append((notes['exact'].rstrip().rstrip(';') + ';', None))
        for i, (sql, _) in enumerate(queries):
            if sql.startswith('\\'):
                script.append(sql)
                continue
            if 'exact' in notes and i == len(stmts) - 1:
                script.append('\\pset tuples_only on')
            script += [f'\\echo @@doctest {i}', sql,
                       '\\if :ERROR', f'\\echo @@doctest-error {i} :LAST_ERROR_MESSAGE', '\\endif']
        # make psql is one session: what a block SETs, it RESETs
        script += ['\\pset tuples_only on', '\\echo @@doctest-settings',
                   "SELECT name FROM pg_settings WHERE source = 'session' ORDER BY 1;"]
        r = psql(['-d', db, '-A'], '\n'.join(script) + '\n')
        errors = {}
        seen = set()
        output = {}  # statement -> the lines it printed
        current = None
        changed = None
        for line in r.stdout.split('\n'):
            if line == '@@doctest-settings':
                changed = []
                continue
            if changed is not None:
                if line:
                    changed.append(line)
                continue
            m = re.match(r'@@doctest-error (\d+) (.*)', line)
            if m:
                errors[int(m.group(1))] = m.group(2)
                continue
            m = re.match(r'@@doctest (\d+)$', line)
            if m:
                current = int(m.group(1))
                seen.add(current)
                output[current] = []
                log.append(f'pg> {queries[current][0]}')
            elif line:
                log.append('  ' + line[:200])
                if current is not None:
                    output[current].append(line)
        for i, (sql, want_error) in enumerate(stmts):
            if sql.startswith('\\'):
                continue
            if i not in seen:
                raise DocError(f'{sql}\n  never ran (psql: {r.stderr.strip()[-500:]})')
            got = errors.get(i)
            if got is not None and not (want_error is not None and want_error in got):
                raise DocError(f'{sql}\n  failed: {got}' +
                               (f'\n  documented error: {want_error}' if want_error else ''))
            if got is None and want_error is not None:
                raise DocError(f'{sql}\n  succeeded; the docs say it fails with: {want_error}')
        if 'exact' in notes:
            n = len(stmts)
            if n not in seen or n in errors:
                raise DocError(f'exact query {notes["exact"]}\n  failed: {errors.get(n, r.stderr.strip())}')
            check_same_answer([l.split('|') for l in output[n - 1]],
                              [l.split('|') for l in output[n]], notes['exact'])
        if changed:
            raise DocError(f'the block leaves {", ".join(changed)} changed: RESET it at the end '
                           '(make psql runs the blocks in one session)')


# ---- the scratch directory of a page --------------------------------------

REUSED_BUILDS = ['build/fuzz/libfuzzer', 'build/fuzz/replay']


def make_scratch(page):
    scratch = tempfile.mkdtemp(prefix='doctest-' + re.sub(r'\W', '_', page) + '-')
    files = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard'], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split('\n')
    for rel in files:
        src = os.path.join(ROOT, rel)
        if rel and os.path.isfile(src):
            dst = os.path.join(scratch, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    os.makedirs(os.path.join(scratch, 'build'), exist_ok=True)
    shutil.copy2(SQLITE_LIB + '.so', os.path.join(scratch, 'build', 'bloomfilter.so'))
    # Builds a user has from an earlier make: the fuzz targets (66-docs.sh
    # makes them). Times kept: make rebuilds only what the sources outdate.
    for built in REUSED_BUILDS:
        if os.path.isdir(os.path.join(ROOT, built)):
            shutil.copytree(os.path.join(ROOT, built), os.path.join(scratch, built))
    sqlite_fixture_db(os.path.join(scratch, 'build', 'app.db'))
    return scratch


def left_in_root(scratch, before):
    """What a block left in the root of the scratch copy (a clone's root,
    where a reader runs it) that git does not ignore."""
    new = sorted(set(os.listdir(scratch)) - before)
    if not new:
        return []
    names = [n + '/' if os.path.isdir(os.path.join(scratch, n)) else n for n in new]
    r = subprocess.run(['git', 'check-ignore', '--no-index', '--stdin'], cwd=ROOT,
                       input='\n'.join(names) + '\n', capture_output=True, text=True)
    ignored = set(r.stdout.split('\n'))
    return [n for n in names if n not in ignored]


def run_program(argv, scratch, log, pg=None):
    # A fresh Debian's PATH (no pyenv or /opt shims ahead of /usr/bin) and no
    # package index: what a user of the docs has on the CI machine.
    # PG_BIN (the suite's server of the major under test) comes first, as a
    # user's own server's pg_config and psql would.
    env = dict(os.environ, LC_ALL='C', PIP_NO_INDEX='1',
               PATH=(os.environ['PG_BIN'] + ':' if os.environ.get('PG_BIN') else '')
               + '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
    if pg is not None:  # a client of make psql's database, as the sql blocks
        env['PGDATABASE'] = pg.db
    r = subprocess.run(argv, cwd=scratch, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT,
                       env=env)
    out = (r.stdout + r.stderr).strip().split('\n')
    log.extend('  ' + line for line in out[-30:])
    if r.returncode != 0:
        raise DocError(f'exit status {r.returncode}:\n' + '\n'.join('  ' + l for l in out[-30:]))
    return r.stdout


# ---- a run ----------------------------------------------------------------

class Run:
    """The blocks of some pages, with the counts and exceptions of the run."""

    def __init__(self, engines, verbose, pg=None, engine_blocks_only=False):
        self.engines, self.verbose = engines, verbose
        self.engine_blocks_only = engine_blocks_only
        self.pg = pg or (Postgres() if 'pg' in engines else None)
        self.passed = self.failed = self.not_selected = 0
        self.per_kind = {'sqlite': 0, 'pg': 0, 'sh': 0, 'python': 0, 'file': 0, 'output': 0}
        self.exceptions = []

    def result(self, block, ok, what, detail='', log=()):
        if ok:
            self.passed += 1
            print(f'ok - {block.name} {what}')
            if self.verbose:
                print('\n'.join('       ' + l for l in log))
        else:
            self.failed += 1
            print(f'FAILED - {block.name} {what}')
            print('\n'.join('       ' + l for l in detail.rstrip().split('\n')))

    def not_run(self, block, why, label='skip'):
        self.exceptions.append(f'{block.name}: {why}')
        print(f'{label} {block.name}: {why}')

    def page(self, page):
        blocks = blocks_of(page)
        p = Page(page)
        for b in blocks:
            if 'file' in b.notes:
                p.write_file(b)
        for b in blocks:
            log = []
            try:
                self.block(p, b, log)
            except DocError as e:
                self.result(b, False, '', str(e))
            except (subprocess.TimeoutExpired, sqlite3.Error, OSError) as e:
                self.result(b, False, '', f'{type(e).__name__}: {e}')
        if not self.engine_blocks_only:
            self.links(page)
        for name, b in p.files.items():
            if p.file_used[name] is None:
                continue  # its block needs an engine not selected
            if p.file_used[name]:
                self.per_kind['file'] += 1
                self.result(b, True, f'[file {name}, used by a passing block]')
            else:
                self.result(b, False, f'[file {name}]', 'no passing block of this page uses it')
        p.remove()

    def links(self, page):
        """Every relative link of the page leads to a file, and to one of its
        headings where it names an anchor: a test each broken link, or one for
        the page."""
        broken = [(n, t, why) for n, t in links_of(page) for why in [broken_link(page, t)] if why]
        for number, target, why in broken:
            self.result(Block(page, number, 'link', target, {}), False, f'[link {target}]', why)
        if not broken:
            self.result(Block(page, 1, 'links', '', {}), True, '[every relative link resolves]')

    def block(self, p, b, log):
        notes = b.notes
        if 'invalid' in notes:
            raise DocError(notes['invalid'])
        if 'skip' in notes:
            self.not_run(b, notes['skip'])
        elif 'file' in notes:
            pass  # judged by the blocks that use it
        elif 'output' in notes:
            self.output_block(p, b)
        elif b.lang in SQL_LANGS:
            self.sql_block(p, b, log)
        elif b.lang in SH_LANGS or b.lang in PY_LANGS:
            self.program_block(p, b, log)
        else:
            raise DocError('a fenced block needs a language this runner runs (sql, sh, '
                           'python) or an annotation: <!-- doctest: file="NAME" | '
                           'output="COMMAND" | skip="REASON" --> (see tools/doctest.py)')

    def output_block(self, p, b):
        needs = b.notes['engines'] or PAGE_ENGINE.get(p.page, [])
        if (needs or self.engine_blocks_only) and not set(needs) & self.engines:
            print(f'---- {b.name}: not run (needs {"/".join(needs)}, not selected)')
            self.not_selected += 1
            return
        cmd = b.notes['output']
        if ' '.join(b.text.split()) not in ' '.join(p.output_of(cmd).split()):
            raise DocError(f'not in the output of {cmd!r}:\n{b.text}')
        self.per_kind['output'] += 1
        self.result(b, True, f'[output of {cmd}]')

    def sql_block(self, p, b, log):
        targets = b.notes['engines'] or PAGE_ENGINE.get(p.page, ['sqlite', 'pg'])
        stmts = split_sql(substitute(b.text, b.notes))
        if not stmts:
            raise DocError('no statement')
        check_exact_declared(stmts, b.notes)
        if 'no-exact' in b.notes:
            self.not_run(b, f'answer not compared with an exact query: {b.notes["no-exact"]}',
                         'no-exact')
        ran = [engine for engine in targets if engine in self.engines]
        if not ran:
            print(f'---- {b.name}: not run ({"/".join(targets)} not selected)')
            self.not_selected += 1
            return
        for engine in ran:
            if engine == 'sqlite':
                run_sqlite(stmts, b.notes, log)
            else:
                self.pg.run(stmts, b.notes, log)
            self.per_kind[engine] += 1
        self.result(b, True, f'[{" ".join(ran)}]', log=log)

    def program_block(self, p, b, log):
        notes = b.notes
        needs = notes['engines'] or PAGE_ENGINE.get(p.page, [])
        if (needs or self.engine_blocks_only) and not set(needs) & self.engines:
            print(f'---- {b.name}: not run (needs {"/".join(needs) or "no engine"}, not selected)')
            self.not_selected += 1
            p.mark_files_used(b, None)
            return
        text = substitute(b.text, notes)
        if b.lang in SH_LANGS:
            if 'omit-line' in notes:
                text = omit_line(text, notes)
                self.not_run(b, f'line "{notes["omit-line"]}" not run: {notes["reason"]}', 'omit')
            argv, kind = ['bash', '-e', '-o', 'pipefail', '-c', text], 'sh'
            npm_from_cache(text, p.scratch())
        else:
            argv, kind = ['/usr/bin/python3', '-c', text], 'python'
        out = run_program(argv, p.scratch(), log, self.pg)
        left = left_in_root(p.scratch(), p.root_before)
        if left:
            raise DocError(f'leaves {", ".join(left)} in the root of the clone: write into build/ '
                           'or a scratch directory')
        if 'exact' in notes:
            exact = sqlite_rows(os.path.join(p.scratch(), 'build', 'app.db'), notes['exact'])
            printed = out.rstrip('\n').split('\n')
            recipe = [line.split('|') for line in printed[len(printed) - len(exact):]] if exact else []
            check_same_answer(recipe, exact, notes['exact'])
        p.mark_files_used(b, True)
        self.per_kind[kind] += 1
        self.result(b, True, f'[{kind}]', log=log)


NPM_INSTALL = re.compile(r'^\s*npm install (?:--prefix (\S+) )?((?:@[\w.-]+/)?[\w.-]+)@(\S+)\s*(?:#.*)?$',
                         re.M)
NPM_TIMEOUT = 900  # a native module built from source: better-sqlite3, 2 minutes on 2 cores


def npm_from_cache(text, scratch):
    """For each `npm install NAME@VERSION` line of an sh block, which then runs
    for real: the scratch directory first gets a copy of node_modules from
    build/doctest-npm/NAME@VERSION, installed there once from the npm
    registry (no package-lock; the version pinned exactly in its package.json,
    as tools/suites/50-parquet.sh does), so the block's own install finds it
    done instead of downloading and compiling it on every run."""
    for m in NPM_INSTALL.finditer(text):
        prefix, name, version = m.groups()
        if not re.fullmatch(r'\d+\.\d+\.\d+', version):
            raise DocError(f'npm install {name}@{version}: pin an exact version (x.y.z), the '
                           'one the doc tests install')
        cache = os.path.join(ROOT, 'build', 'doctest-npm', f'{name.replace("/", "+")}@{version}')
        installed = os.path.join(cache, 'node_modules', name, 'package.json')
        # two majors' doc tests may run at once: one installs, the other waits
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache + '.lock', 'w', encoding='utf-8') as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            install_npm_cache(name, version, cache, installed)
        shutil.copytree(os.path.join(cache, 'node_modules'),
                        os.path.join(scratch, prefix or '', 'node_modules'),
                        symlinks=True, dirs_exist_ok=True)


def install_npm_cache(name, version, cache, installed):
    """Install NAME@VERSION into CACHE unless it is there."""
    if not os.path.exists(installed) or json_file(installed).get('version') != version:
        shutil.rmtree(cache, ignore_errors=True)
        os.makedirs(cache)
        with open(os.path.join(cache, 'package.json'), 'w', encoding='utf-8') as f:
            json.dump({'private': True, 'dependencies': {name: version}}, f)
        r = subprocess.run(['npm', 'install', '--no-package-lock', '--no-audit', '--no-fund',
                            '--loglevel=error'], cwd=cache, capture_output=True, text=True,
                           timeout=NPM_TIMEOUT)
        if r.returncode != 0 or not os.path.exists(installed):
            raise DocError(f'npm install {name}@{version} into {cache} failed:\n' +
                           (r.stdout + r.stderr)[-2000:])


def json_file(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def omit_line(text, notes):
    if 'reason' not in notes:
        raise DocError('omit-line needs a reason')
    lines = text.split('\n')
    kept = [l for l in lines if not l.lstrip().startswith(notes['omit-line'])]
    if len(kept) == len(lines):
        raise DocError(f'omit-line: no line starts with {notes["omit-line"]!r}')
    return '\n'.join(kept)


class Page:
    """A page's scratch directory (made on first use), its file= blocks and
    the output of its output= commands (each run once)."""

    def __init__(self, page):
        self.page = page
        self.dir = None
        self.files, self.file_used, self.outputs = {}, {}, {}
        self.root_before = set()

    def scratch(self):
        if self.dir is None:
            self.dir = make_scratch(self.page)
            self.root_before = set(os.listdir(self.dir))
        return self.dir

    def write_file(self, b):
        name = b.notes['file']
        os.makedirs(os.path.dirname(os.path.join(self.scratch(), name)), exist_ok=True)
        with open(os.path.join(self.scratch(), name), 'w', encoding='utf-8') as f:
            f.write(b.text)
        self.files[name] = b
        self.file_used[name] = False

    def mark_files_used(self, b, used):
        """used: True (a block that uses it passed) or None (not run here)."""
        for name in self.files:
            if name in b.text:
                self.file_used[name] = self.file_used[name] or used

    def output_of(self, cmd):
        if cmd not in self.outputs:
            self.outputs[cmd] = run_program(['bash', '-e', '-c', cmd], self.scratch(), [])
            left = left_in_root(self.scratch(), self.root_before)
            if left:
                raise DocError(f'{cmd!r} leaves {", ".join(left)} in the root of the clone')
        return self.outputs[cmd]

    def remove(self):
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)


# ---- main -----------------------------------------------------------------

def selftest(page, engines, pg):
    """The runner itself: every block and every link of PAGE is wrong and
    must fail (blocks of an engine not selected are not run)."""
    run = Run(engines, False, Postgres('doctest_selftest') if pg else None)
    with contextlib.redirect_stdout(io.StringIO()) as quiet:  # its FAILED lines are expected
        run.page(page)
    wrong = len(blocks_of(page)) - run.not_selected + len(list(links_of(page)))
    ok = run.passed == 0 and run.failed == wrong
    if not ok:
        print(quiet.getvalue(), end='')
    print(f'{"ok -" if ok else "FAILED -"} self-test: {run.failed} of the {run.passed + run.failed} '
          f'wrong examples of {page} failed')
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--engines', default='sqlite,pg')
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('--engine-blocks-only', action='store_true',
                    help='skip the sh, python and output blocks that need no engine of --engines '
                         '(another run has them: tools/suites/67-docs-pg.sh, once per major)')
    ap.add_argument('--selftest', metavar='PAGE',
                    help='first run PAGE, whose blocks are all wrong: one test, passed when each fails')
    ap.add_argument('pages', nargs='*')
    args = ap.parse_args()
    engines = set(args.engines.split(','))
    pages = args.pages or ['README.md'] + sorted(
        os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, 'docs', '*.md')))

    run = Run(engines, args.verbose, engine_blocks_only=args.engine_blocks_only)
    checked = selftest(args.selftest, engines, run.pg) if args.selftest else None
    for page in pages:
        run.page(page)
    if checked is not None:
        run.passed += checked
        run.failed += not checked

    print('docs: examples run: ' + ', '.join(f'{k} {v}' for k, v in run.per_kind.items()))
    if run.exceptions:
        print(f'docs: {len(run.exceptions)} exception(s), not run:')
        for e in run.exceptions:
            print('  ' + e)
    print(f'docs: {run.passed} passed, {run.failed} failed')
    return 1 if run.failed else 0


if __name__ == '__main__':
    sys.exit(main())
