# Benchmarks: each prints a table of ratios against a baseline of the same run.
BENCH_CFLAGS = $(STD) $(WARN) -O2 -g -Icore

build/bench/bench_core: bench/bench_core.c $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/bench_core.c $(CORE_SRCS) -lm

.PHONY: bench bench-core bench-compose
bench-core: build/bench/bench_core
	build/bench/bench_core

# Size classes and estimates across sizes (docs/FORMAT.md "Size classes"):
# deterministic tables, no timings.
build/bench/bench_compose: bench/bench_compose.c $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/bench_compose.c $(CORE_SRCS) -lm

bench-compose: build/bench/bench_compose
	build/bench/bench_compose

# bench-sqlite and bench-pg are defined in sqlite/sqlite.mk and pg/pg.mk.
bench: bench-core bench-compose bench-sqlite bench-pg
