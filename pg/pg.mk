# The PostgreSQL extension `bloomfilter` (type `bloom`) for PGXS.  The top
# Makefile includes this in build/pg/MAJOR, a VPATH build: sources are read
# from the tree ($(top)), objects and the module are written here.  The
# core's objects are linked into the module.
MODULE_big = bloomfilter
PG_OBJS = $(patsubst $(top)%.c,%.o,$(sort $(wildcard $(top)pg/*.c)))
CORE_OBJS = $(patsubst $(top)%.c,%.o,$(sort $(wildcard $(top)core/*.c)))
OBJS = $(CORE_OBJS) $(PG_OBJS)
# The objects' directories here (the compiler does not make them).
$(shell mkdir -p core pg)
# Released install scripts are frozen; a new version ships only its upgrade
# script, and CREATE EXTENSION runs 1.0 then every upgrade step, so a fresh
# install and an upgraded one are the same objects by construction.
DATA = $(patsubst $(top)%,%,$(sort $(wildcard $(top)pg/bloomfilter--*.sql)))
# Every sql/NAME.sql with its expected/NAME.out; each test makes its own
# tables.  They run in the groups of sql/schedule (PGXS passes REGRESS to
# pg_regress as it is); REGRESS_PREP (tools/check-schedule.sh, its rule
# after PGXS's, which come first) refuses a test that no group names.
REGRESS = --schedule=$(top)sql/schedule
REGRESS_OPTS = --inputdir=$(top) --load-extension=bloomfilter
REGRESS_PREP = regress-schedule-check

PG_CPPFLAGS = -I$(top)core $(VERSION_DEF) $(PG_SYSTEM_HEADERS)
# Warnings as everywhere else (PGXS gives -Wall).  PostgreSQL's headers are
# read as system headers: warnings inside them are PostgreSQL's, not ours
# (the compiler then ignores the -I PGXS adds for the same directories).
PG_CFLAGS = -Wextra -Wpedantic
PG_SYSTEM_HEADERS = -isystem $(includedir_server) -isystem $(includedir_internal)
EXTRA_CLEAN = results regression.diffs regression.out

# The core is C11 with declarations where they are used; PGXS's
# -Wdeclaration-after-statement is for PostgreSQL's own style only.
$(CORE_OBJS): CFLAGS += -Wno-declaration-after-statement

$(PG_OBJS): $(wildcard $(top)pg/*.h) $(wildcard $(top)core/*.h)
$(CORE_OBJS): $(wildcard $(top)core/*.h)
# bloom_version() is the control file's version (BLOOMFILTER_VERSION)
pg/functions.o: $(top)bloomfilter.control
