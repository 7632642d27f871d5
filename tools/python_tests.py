#!/usr/bin/python3
"""Run the Python package's tests (python/tests) with the installed package:
one "ok - NAME" or "FAILED - NAME" line per test (tools/suites/65-python.sh
counts them), the failures' tracebacks after.
    python tools/python_tests.py python/tests [PATTERN ...]
Run it from outside python/, so `import bloomfilter` is the installed one."""
import sys
import unittest

start = sys.argv[1]
patterns = sys.argv[2:] or ['test_*.py']


class LineResult(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        print(f'ok - {test.id()}', flush=True)

    def _bad(self, test):
        print(f'FAILED - {test.id()}', flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad(test)

    def addError(self, test, err):
        super().addError(test, err)
        self._bad(getattr(test, 'id', lambda: str(test)) and test)

    def addSkip(self, test, reason):  # a test that cannot run is a failure here
        super().addSkip(test, reason)
        print(f'FAILED - {test.id()} (skipped: {reason})', flush=True)


suite = unittest.TestSuite(unittest.defaultTestLoader.discover(start, pattern=p, top_level_dir=start)
                          for p in patterns)
runner = unittest.TextTestRunner(resultclass=LineResult, verbosity=0, stream=sys.stderr)
result = runner.run(suite)
sys.exit(0 if result.wasSuccessful() and not result.skipped else 1)
