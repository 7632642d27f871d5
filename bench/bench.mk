# Benchmarks: each prints a table of ratios against a baseline of the same run.
BENCH_CFLAGS = $(STD) $(WARN) -O2 -g -Icore

build/bench/bench_core: bench/bench_core.c $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/bench_core.c $(CORE_SRCS) -lm

.PHONY: bench bench-core bench-compose bench-variants
# First the core at the hardware limit (ratios to a textbook filter
# and to one memory access, with their goals; alone: bench_core --limits).
bench-core: build/bench/bench_core
	build/bench/bench_core

# Size classes and estimates across sizes (docs/FORMAT.md "Size classes"):
# deterministic tables, no timings.
build/bench/bench_compose: bench/bench_compose.c bench/bench_util.h $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/bench_compose.c $(CORE_SRCS) -lm

bench-compose: build/bench/bench_compose
	build/bench/bench_compose

# Counting and scalable filters, rollups of size classes (docs/FORMAT.md,
# README "Rollups"): deterministic tables, no timings.
build/bench/bench_variants: bench/bench_variants.c bench/bench_util.h $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/bench_variants.c $(CORE_SRCS) -lm

bench-variants: build/bench/bench_variants
	build/bench/bench_variants

# PostgreSQL benchmarks against built-in baselines, in one throwaway server
# of the major PG (default: the first of pg/majors): PG=18 make bench-pg.
.PHONY: bench-pg bench-pg-stored bench-pg-batched bench-pg-bitslice bench-pg-runtime bench-pg-prebuild \
    bench-pg-prune bench-citus
bench-pg:
	tools/install-deps.sh --quiet bench
	bench/run_pg.sh bench/bench_pg.sh bench/bench_pg_stored.sh bench/bench_pg_batched.sh \
	    bench/bench_pg_bitslice.sh bench/bench_pg_runtime.sh bench/bench_pg_prebuild.sh \
	    bench/bench_pg_prune.sh
# Piecewise probes of stored filters alone (also part of bench-pg).
bench-pg-stored:
	bench/run_pg.sh bench/bench_pg_stored.sh
# The batched probe scan alone, row by row against batched (also part of bench-pg).
bench-pg-batched:
	bench/run_pg.sh bench/bench_pg_batched.sh
# The index over a column of filters, bloom_bitslice (also part of bench-pg):
# 10^5 and 10^6 stored filters, probes against the sequential scan, build
# against bloom_union_agg, size against the filters.
bench-pg-bitslice:
	bench/run_pg.sh bench/bench_pg_bitslice.sh

# The automatic Bloom join alone, runtime filters on against off (also part of bench-pg).
bench-pg-runtime:
	bench/run_pg.sh bench/bench_pg_runtime.sh
# Runtime filters built first for nested loop and merge star joins, on
# against off (also part of bench-pg).
bench-pg-prebuild:
	bench/run_pg.sh bench/bench_pg_prebuild.sh
# Partitions skipped whole by the runtime filters' range, on against off
# (also part of bench-pg).
bench-pg-prune:
	bench/run_pg.sh bench/bench_pg_prune.sh
# Queries derived from TPC-H (22) and TPC-DS (99), runtime filters on against
# off, in one throwaway server of PG (default 17): the data made once per
# scale factor SF (default 1; TPC-DS: whole numbers) in a cache outside the
# clone; RUNS (3), CONFIRM_RUNS (4 more of a filtered query past 1.05x either
# way), TIMEOUT (300 s a statement), QUERIES=Q3,Q5 (default all).
# Tables: build/bench/WORKLOAD-sfSF-pgMAJOR.md (docs/PERFORMANCE.md).
.PHONY: bench-tpch bench-tpcds
bench-tpch bench-tpcds:
	tools/install-deps.sh --quiet bench
	SF=$(or $(SF),1) bench/bench_standard.sh $(@:bench-%=%)

# bloom_agg on a real Citus cluster against a local table (needs ../shared/citus).
bench-citus:
	bench/bench_citus.sh

# bench-sqlite is defined in sqlite/sqlite.mk.
bench: bench-core bench-compose bench-variants bench-sqlite bench-pg
