# PostgreSQL extension `bloomfilter` (type `bloom`); included by the top
# Makefile before PGXS.  The core's objects are linked into the module.
.DEFAULT_GOAL := all

PG_SRCS = pg/module.c pg/errors.c pg/type.c pg/hashing.c pg/functions.c \
          pg/builder_type.c pg/aggregates.c
DATA = pg/bloomfilter--1.0.sql
REGRESS = bloom_type bloom_functions bloom_hashing bloom_aggregates bloom_errors bloom_join
REGRESS_OPTS = --inputdir=. --load-extension=bloomfilter

# The core is C11 with declarations where they are used; PGXS's
# -Wdeclaration-after-statement is for PostgreSQL's own style only.
core/%.o: CFLAGS += -Wno-declaration-after-statement

$(PG_SRCS:.c=.o): $(wildcard pg/*.h) $(CORE_HDRS)
$(CORE_SRCS:.c=.o): $(CORE_HDRS)

# Benchmarks against built-in baselines in one throwaway cluster.
bench-pg:
	tools/install-deps.sh --quiet bench
	$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory install
	pg_virtualenv -t -v 15 bench/bench_pg.sh
.PHONY: bench-pg
