# PostgreSQL extension `bloomfilter` (type `bloom`); included by the top
# Makefile before PGXS.  The core's objects are linked into the module.
.DEFAULT_GOAL := all

PG_SRCS = $(sort $(wildcard pg/*.c))
# Released install scripts are frozen; a new version ships only its upgrade
# script, and CREATE EXTENSION runs 1.0 then every upgrade step, so a fresh
# install and an upgraded one are the same objects by construction.
DATA = $(sort $(wildcard pg/bloomfilter--*.sql))
# Every sql/NAME.sql with its expected/NAME.out; each test makes its own tables.
REGRESS = $(sort $(notdir $(basename $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --load-extension=bloomfilter

# The core is C11 with declarations where they are used; PGXS's
# -Wdeclaration-after-statement is for PostgreSQL's own style only.
core/%.o: CFLAGS += -Wno-declaration-after-statement

$(PG_SRCS:.c=.o): $(wildcard pg/*.h) $(CORE_HDRS)
# bloom_version() is the control file's version (BLOOMFILTER_VERSION)
pg/functions.o: bloomfilter.control
$(CORE_SRCS:.c=.o): $(CORE_HDRS)

# Benchmarks against built-in baselines in one throwaway cluster.
bench-pg:
	tools/install-deps.sh --quiet bench
	$(MAKE) --no-print-directory all
	flock /tmp/bloomfilter-pg.lock sh -c '$(MAKE) --no-print-directory install && pg_virtualenv -t -v 15 sh -c "bench/bench_pg.sh && bench/bench_pg_sliced.sh && bench/bench_pg_batched.sh"'
.PHONY: bench-pg

# Sliced probes of stored filters alone (also part of bench-pg).
bench-pg-sliced:
	$(MAKE) --no-print-directory all
	flock /tmp/bloomfilter-pg.lock sh -c '$(MAKE) --no-print-directory install && pg_virtualenv -t -v 15 bench/bench_pg_sliced.sh'
.PHONY: bench-pg-sliced

# The batched probe scan alone, row by row against batched (also part of bench-pg).
bench-pg-batched:
	$(MAKE) --no-print-directory all
	flock /tmp/bloomfilter-pg.lock sh -c '$(MAKE) --no-print-directory install && pg_virtualenv -t -v 15 bench/bench_pg_batched.sh'
.PHONY: bench-pg-batched

# bloom_agg on a real Citus cluster against a local table (needs ../shared/citus).
bench-citus:
	$(MAKE) --no-print-directory all
	flock -o /tmp/bloomfilter-pg.lock sh -c '$(MAKE) --no-print-directory install && bench/bench_citus.sh'
.PHONY: bench-citus
