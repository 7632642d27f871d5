# bloomfilter: one C core (core/), two hosts (pg/, sqlite/).
#
#   make help    the targets, one line each
#
#   make [PG_CONFIG=.../pg_config] [install|installcheck|uninstall]
#                the SQLite extension (build/bloomfilter.so) and, when a
#                pg_config is found, the PostgreSQL one for its major
#
# Every build output lands under build/.  The PostgreSQL extension is built
# with PGXS out of the tree, in build/pg/MAJOR/ (PGXS's VPATH builds): one
# directory per major, so builds for several majors live side by side, and
# nothing named bloomfilter.so sits in the tree's root.  This file run with
# -f from any other directory is such a build (pg_buildext's build-MAJOR too).

# The tree's root, also from build/pg/MAJOR (where this file runs with -f).
top := $(dir $(firstword $(MAKEFILE_LIST)))

EXTENSION = bloomfilter
# The one place the version is set: the control file's default_version.  C
# code (bloom_version()) and the install scripts follow it.
EXTVERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(top)bloomfilter.control)
VERSION_DEF = -DBLOOMFILTER_VERSION='"$(EXTVERSION)"'

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

ifneq ($(abspath $(top)),$(abspath .))
# ---- elsewhere (build/pg/MAJOR, or pg_buildext's build-MAJOR): the
# PostgreSQL extension alone, PGXS, a VPATH build ----
include $(top)pg/pg.mk
include $(PGXS)
.PHONY: regress-schedule-check
regress-schedule-check:
	@$(top)tools/check-schedule.sh $(top)sql
# Sources only are looked up in the tree: an old in-tree build's
# bloomfilter.so or core/*.o must never stand in for this directory's.
VPATH =
vpath %.c $(top)
vpath %.control $(top)
# LOAD by a database owner who is not a superuser reads $libdir/plugins only:
# a link there to the module.  The same file, so a session that loaded it by
# either name never loads it twice (PostgreSQL compares the file, not the name).
install: install-plugins-link
install-plugins-link: install-lib
	$(MKDIR_P) '$(DESTDIR)$(pkglibdir)/plugins'
	ln -sfn ../$(MODULE_big)$(DLSUFFIX) '$(DESTDIR)$(pkglibdir)/plugins/$(MODULE_big)$(DLSUFFIX)'
uninstall: uninstall-plugins-link
uninstall-plugins-link:
	rm -f '$(DESTDIR)$(pkglibdir)/plugins/$(MODULE_big)$(DLSUFFIX)'
.PHONY: install-plugins-link uninstall-plugins-link

else
# ---- at the root of the tree ----
CORE_SRCS = $(sort $(wildcard core/*.c))
CORE_HDRS = $(wildcard core/*.h)
PG_SRCS = $(sort $(wildcard pg/*.c))
# Flags for what this Makefile builds itself (core tests, SQLite, bench, fuzz).
WARN = -Wall -Wextra -Wpedantic
STD = -std=c11 $(VERSION_DEF)

.DEFAULT_GOAL := all
all: sqlite
include pg/build.mk
include core/core.mk
include sqlite/sqlite.mk
include bench/bench.mk
include tools/warnings.mk
include fuzz/fuzz.mk

.PHONY: all clean test demo bench deps deb wheel npm dist psql psql-stop help
clean: pg-clean
	rm -rf build core/*.o pg/*.o bloomfilter.so results regression.diffs regression.out

deps:
	tools/install-deps.sh

test:
	tools/test.sh

deb:
	tools/build-deb.sh

wheel:
	@tools/build-wheel.sh

npm:
	@tools/build-npm.sh

dist:
	@tools/build-dist.sh

demo:
	tools/install-deps.sh --quiet sqlite
	$(MAKE) --no-print-directory sqlite
	sqlite/demo.sh

psql:
	@tools/psql.sh
psql-stop:
	@tools/psql.sh --stop

# One line a target; the bench targets with their rough run time on a 2-core
# machine (docs/PERFORMANCE.md has what each measures).  Not the default goal.
help:
	@printf '%-26s %s\n' \
	'make' 'the SQLite extension (build/bloomfilter.so); with a pg_config, the PostgreSQL one too' \
	'make install' 'install the PostgreSQL extension (PG_CONFIG=.../pg_config for another server)' \
	'make installcheck' 'pg_regress against the installed extension' \
	'make uninstall' 'remove the installed PostgreSQL extension' \
	'make sqlite' 'the SQLite extension alone' \
	'make clean' 'remove build/' \
	'make deps' 'install the build and test dependencies (apt-get)' \
	'make demo' 'the main job on SQLite, no server: a filter, a Bloom join, timed' \
	'make test' 'every suite on every PostgreSQL major (PG=17, SUITES="pg fdw": fewer)' \
	'make core-test' 'the core unit tests, under ASan and UBSan' \
	'make warnings' 'every C file with -Werror (CC=clang; warnings-c, warnings-pg: a part)' \
	'make sqlite-static-test' 'the SQLite extension linked into a program' \
	'make sqlite-version-test' 'the load-time check of the least SQLite version' \
	'make fuzz' 'each fuzz target under libFuzzer for FUZZ_TIME seconds (60)' \
	'make fuzz-replay' 'each fuzz target on its seed corpus, without libFuzzer' \
	'make fuzz-seeds' 'rewrite the seed corpora in fuzz/corpus/' \
	'make psql' 'psql on a server of your own, with the examples'"'"' tables (PG=16: another major)' \
	'make psql-stop' 'stop that server' \
	'make deb' 'Debian packages: one per PostgreSQL major, and the SQLite one (build/deb/)' \
	'make wheel' 'the Python wheel; installing it needs no compiler (build/wheel/)' \
	'make npm' 'the npm package of the SQLite extension (build/npm/)' \
	'make dist' 'the PGXN release archive (build/dist/)' \
	'make bench' 'every benchmark below but tpch, tpcds and citus (about 1 hour)' \
	'make bench-core' 'the core: probes at the hardware limit, the layouts (about 10 min)' \
	'make bench-compose' 'size classes and estimates, no timings (about 1 min)' \
	'make bench-variants' 'counting and scalable filters, rollups, no timings (about 1 min)' \
	'make bench-sqlite' 'the SQLite extension on a 10M-row table (about 15 min)' \
	'make bench-pg' 'the six bench-pg-* below and bench_pg.sh, PG=17 for another major (about 1 hour)' \
	'make bench-pg-batched' 'a constant filter probed row by row and in batches (about 5 min)' \
	'make bench-pg-stored' 'a table of stored filters probed row by row (about 5 min)' \
	'make bench-pg-bitslice' 'the bloom_bitslice index against a sequential scan (about 15 min)' \
	'make bench-pg-runtime' 'runtime filters on against off, single joins (about 15 min)' \
	'make bench-pg-prebuild' 'filters built first for nested loop and merge star joins (about 15 min)' \
	'make bench-pg-prune' 'partitions the runtime filters skip whole, on against off (about 5 min)' \
	'make bench-citus' 'bloom_agg on a Citus cluster against a local table (a few min)' \
	'make bench-tpch' 'runtime filters on the 22 queries derived from TPC-H, SF=1 (about 25 min)' \
	'make bench-tpcds' 'the same on the 99 derived from TPC-DS, SF=1 (hours; QUERIES=Q3,Q7: some)' \
	'make help' 'this list'
endif
