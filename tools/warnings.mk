# `make warnings [CC=clang]`: every C file of the project compiled once with
# the project's warnings and -Werror, objects thrown away.  The builds use
# the same warnings; this turns any of them into a failure, for whichever
# compiler is named (tools/suites/11-warnings.sh runs gcc and clang).
# PostgreSQL files get the warnings PGXS adds, in a spelling both compilers
# know (PGXS's own list is gcc's), and PostgreSQL's headers as system headers.
WARN_CHECK_FLAGS = $(WARN) -Werror -O2
WARN_PG_CONFIG_INC = $(shell $(PG_CONFIG) --includedir-server 2>/dev/null)
WARN_PG_FLAGS = -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement \
    -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough -Wformat-security \
    -fno-strict-aliasing -fwrapv -D_GNU_SOURCE $(VERSION_DEF) -Icore \
    -isystem $(WARN_PG_CONFIG_INC) -isystem $(shell $(PG_CONFIG) --pkgincludedir 2>/dev/null)/internal

WARN_C_SRCS = $(CORE_SRCS) $(CORE_TEST_SRCS) $(SQLITE_SRCS) sqlite/tests/old_sqlite.c bench/bench_core.c bench/bench_variants.c \
    bench/bench_sqlite_floor.c \
    $(wildcard fuzz/*.c)
WARN_PG_SRCS = $(PG_SRCS) $(wildcard tests/pg_fmgr/*.c)

warn-c/%:
	$(CC) $(STD) $(WARN_CHECK_FLAGS) -Icore -Isqlite -c $* -o /dev/null
warn-sqlite-core/%:
	$(CC) $(STD) $(WARN_CHECK_FLAGS) -DSQLITE_CORE -Icore -Isqlite -c $* -o /dev/null
warn-pg/%:
	$(CC) $(WARN_CHECK_FLAGS) $(WARN_PG_FLAGS) -c $* -o /dev/null

WARN_C_TARGETS = $(addprefix warn-c/,$(WARN_C_SRCS)) \
    $(addprefix warn-sqlite-core/,$(SQLITE_SRCS) sqlite/tests/static_test.c)
WARN_TARGETS = $(WARN_C_TARGETS)
ifneq ($(WARN_PG_CONFIG_INC),)
WARN_TARGETS += $(addprefix warn-pg/,$(WARN_PG_SRCS))
endif

# `make warnings-c`: every file but the PostgreSQL ones (tools/suites/11-warnings.sh).
.PHONY: warnings warnings-c
warnings: $(WARN_TARGETS)
warnings-c: $(WARN_C_TARGETS)

# `make warnings-pg PG_CONFIG=... [CC=clang]`: the PostgreSQL files alone,
# against that major's headers (tools/suites/30-pg.sh, every major).
.PHONY: warnings-pg
warnings-pg: $(addprefix warn-pg/,$(WARN_PG_SRCS))
