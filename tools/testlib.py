"""Small helpers shared by the Python test drivers that talk to both engines
(tools/cross_engine.py, tests/parquet/check_interop.py)."""
import sqlite3
import subprocess


class Checks:
    """Counts checks, prints one line each and the suite's closing line."""

    def __init__(self, suite):
        self.suite, self.passed, self.failed = suite, 0, 0

    def __call__(self, name, ok, detail=''):
        if ok:
            self.passed += 1
            print(f'ok - {name}', flush=True)
        else:
            self.failed += 1
            print(f'FAILED - {name}: {detail}', flush=True)

    def finish(self):
        print(f'{self.suite}: {self.passed} passed, {self.failed} failed')
        return 1 if self.failed else 0


def pg(sql):
    """One statement through psql (PGHOST, PGPORT: tools/pgclusters.sh's pgc_run); its rows as text."""
    out = subprocess.run(['psql', '-X', '-At', '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f'psql failed on {sql[:200]!r}: {out.stderr.strip()}')
    return out.stdout.strip()


def sqlite_with_extension(path):
    db = sqlite3.connect(':memory:')
    db.enable_load_extension(True)
    db.load_extension(path)
    db.enable_load_extension(False)
    return db
