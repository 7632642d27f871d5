# bloomfilter: one C core (core/), two hosts (pg/, sqlite/).
#
#   make demo    the main job on SQLite, no server (README's first command)
#   make test    installs what is missing (apt-get), builds, runs every suite
#                on every supported PostgreSQL major (PG=17 make test: one)
#   make bench   benchmarks, each against a baseline in the same run
#   make bench-tpch [SF=1]   runtime filters on against off, queries derived
#                from TPC-H (SF=1: about 25 min with data made and loaded)
#   make bench-tpcds [SF=1]  the same for TPC-DS (SF=1: hours; QUERIES=Q3,Q7)
#   make deb     Debian packages (PostgreSQL, one per major, and SQLite) in build/deb/
#   make wheel   a Python wheel carrying the core and the SQLite extension (build/wheel/)
#   make npm     an npm package carrying the SQLite extension (build/npm/)
#   make dist    the PGXN release archive (build/dist/)
#   make psql    psql on a server of your own, the extension and the README's
#                example tables created (PG=17 make psql; make psql-stop)
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

.PHONY: all clean test demo bench deps deb wheel npm dist psql psql-stop
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
endif
