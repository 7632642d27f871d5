# The SQLite extension: one loadable library, and the same sources built
# into a program with -DSQLITE_CORE to prove the static registration path.
SQLITE_SRCS = $(sort $(wildcard sqlite/*.c))
SQLITE_HDRS = $(wildcard sqlite/*.h)
SQLITE_CFLAGS = $(STD) $(WARN) -O2 -Icore

build/bloomfilter.so: $(CORE_SRCS) $(CORE_HDRS) $(SQLITE_SRCS) $(SQLITE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SQLITE_CFLAGS) -fPIC -shared -o $@ $(CORE_SRCS) $(SQLITE_SRCS) -lm

build/sqlite-static-test: sqlite/tests/static_test.c $(CORE_SRCS) $(CORE_HDRS) $(SQLITE_SRCS) $(SQLITE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SQLITE_CFLAGS) -DSQLITE_CORE -Isqlite -o $@ sqlite/tests/static_test.c $(CORE_SRCS) $(SQLITE_SRCS) -lsqlite3 -lm

sqlite: build/bloomfilter.so

sqlite-static-test: build/sqlite-static-test
	build/sqlite-static-test

bench-sqlite: sqlite
	bench/bench_sqlite.sh

.PHONY: sqlite sqlite-static-test bench-sqlite
