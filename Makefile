# bloomfilter: one C core (core/), two hosts (pg/, sqlite/).
#
#   make demo    the main job on SQLite, no server (README's first command)
#   make test    installs what is missing (apt-get), builds, runs every suite
#   make bench   benchmarks, each against a baseline in the same run
#   make deb     Debian packages (PostgreSQL and SQLite) in build/deb/
#
# The PostgreSQL part is PGXS; it is included only when pg_config exists, so
# `make test` can run on a machine that has no PostgreSQL yet and install it.

EXTENSION = bloomfilter
# The one place the version is set: the control file's default_version.  C
# code (bloom_version()) and the install scripts follow it.
EXTVERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" bloomfilter.control)
VERSION_DEF = -DBLOOMFILTER_VERSION='"$(EXTVERSION)"'
MODULE_big = bloomfilter

CORE_SRCS = $(sort $(wildcard core/*.c))
CORE_HDRS = $(wildcard core/*.h)

include pg/pg.mk

OBJS = $(CORE_SRCS:.c=.o) $(PG_SRCS:.c=.o)
PG_CPPFLAGS = -I$(srcdir)/core $(VERSION_DEF) $(PG_SYSTEM_HEADERS)
# Warnings as everywhere else (PGXS gives -Wall).  PostgreSQL's headers are
# read as system headers: warnings inside them are PostgreSQL's, not ours
# (the compiler then ignores the -I PGXS adds for the same directories).
PG_CFLAGS = -Wextra -Wpedantic
PG_SYSTEM_HEADERS = -isystem $(includedir_server) -isystem $(includedir_internal)
EXTRA_CLEAN = build results regression.diffs regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(PGXS),)
include $(PGXS)
else
all: sqlite
clean:
	rm -rf $(EXTRA_CLEAN) core/*.o pg/*.o
endif

# Flags for what this Makefile builds outside PGXS (core tests, SQLite, bench).
WARN = -Wall -Wextra -Wpedantic
STD = -std=c11 $(VERSION_DEF)

include core/core.mk
include sqlite/sqlite.mk
include bench/bench.mk
include tools/warnings.mk
include fuzz/fuzz.mk

.PHONY: test demo bench deps deb
deps:
	tools/install-deps.sh

test:
	tools/test.sh

deb:
	tools/build-deb.sh

demo:
	tools/install-deps.sh --quiet sqlite
	$(MAKE) --no-print-directory sqlite
	sqlite/demo.sh
