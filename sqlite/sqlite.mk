# The SQLite extension: one loadable library, and the same sources built
# into a program with -DSQLITE_CORE to prove the static registration path.
# The library exports its entry point only: calls between its own files are
# then direct, not through the PLT (several per row in bloom_agg).
SQLITE_SRCS = $(sort $(wildcard sqlite/*.c))
SQLITE_HDRS = $(wildcard sqlite/*.h)
# SQLITE_EXTRA_CFLAGS, SQLITE_LDFLAGS: a packager's flags (debian/rules
# passes dpkg-buildflags' hardening flags).
SQLITE_CFLAGS = $(STD) $(WARN) -O2 -Icore $(SQLITE_EXTRA_CFLAGS)

# Written aside, then renamed: a test that loads the library meanwhile
# (make test runs suites side by side) reads the old file or the new one.
build/bloomfilter.so: $(CORE_SRCS) $(CORE_HDRS) $(SQLITE_SRCS) $(SQLITE_HDRS) bloomfilter.control
	@mkdir -p $(@D)
	$(CC) $(SQLITE_CFLAGS) -fPIC -fvisibility=hidden -shared $(SQLITE_LDFLAGS) -o $@.$$$$.tmp $(CORE_SRCS) $(SQLITE_SRCS) -lm && \
	    mv -f $@.$$$$.tmp $@

build/sqlite-static-test: sqlite/tests/static_test.c $(CORE_SRCS) $(CORE_HDRS) $(SQLITE_SRCS) $(SQLITE_HDRS) bloomfilter.control
	@mkdir -p $(@D)
	$(CC) $(SQLITE_CFLAGS) -DSQLITE_CORE -Isqlite -o $@ sqlite/tests/static_test.c $(CORE_SRCS) $(SQLITE_SRCS) -lsqlite3 -lm

# The load-time check of the least SQLite version (sqlite/tests/old_sqlite.c).
build/old_sqlite.so: sqlite/tests/old_sqlite.c $(CORE_SRCS) $(CORE_HDRS) $(SQLITE_SRCS) $(SQLITE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SQLITE_CFLAGS) -Isqlite -fPIC -shared -o $@ sqlite/tests/old_sqlite.c $(CORE_SRCS) $(SQLITE_SRCS) -lm

# The library under ASan and UBSan, for the tests only (tools/suites/20-sqlite.sh
# loads it into the stock sqlite3 shell with libasan preloaded); SANITIZE is
# the core tests' (core/core.mk).
build/asan/bloomfilter.so: $(CORE_SRCS) $(CORE_HDRS) $(SQLITE_SRCS) $(SQLITE_HDRS) bloomfilter.control
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) -g -O1 -Icore $(SANITIZE) -fPIC -fvisibility=hidden -shared -o $@.$$$$.tmp \
	    $(CORE_SRCS) $(SQLITE_SRCS) -lm && mv -f $@.$$$$.tmp $@

sqlite: build/bloomfilter.so

sqlite-static-test: build/sqlite-static-test
	build/sqlite-static-test

sqlite-version-test: build/bloomfilter.so build/old_sqlite.so
	CC="$(CC)" sqlite/tests/version_test.sh

# Debian's python3: its sqlite3 module allows load_extension.
SQLITE_PYTHON ?= /usr/bin/python3

# The floor under a row-at-a-time probe (bench/bench_sqlite_floor.c): not
# part of the product, built for the benchmark only.
build/bench/bench_sqlite_floor.so: bench/bench_sqlite_floor.c core/memory.c $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SQLITE_CFLAGS) -fPIC -shared -o $@ bench/bench_sqlite_floor.c core/memory.c

bench-sqlite: sqlite build/bench/bench_sqlite_floor.so
	$(SQLITE_PYTHON) bench/bench_sqlite.py

.PHONY: sqlite sqlite-static-test sqlite-version-test bench-sqlite
