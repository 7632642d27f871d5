# The PostgreSQL extension, from the root of the tree: `make`, `make install`,
# `make installcheck` and `make uninstall` find the major of PG_CONFIG, refuse
# one that pg/majors does not list, and run PGXS (pg/pg.mk) in
# build/pg/MAJOR, a VPATH build.  Without a working pg_config, `make` builds
# the SQLite extension alone and says why; the PostgreSQL targets fail with
# what to do.
PG_MAJORS := $(shell grep -o '^[0-9][0-9]*' pg/majors)
PG_VERSION_STRING := $(shell $(PG_CONFIG) --version 2>/dev/null)
PG_MAJOR := $(shell echo '$(PG_VERSION_STRING)' | sed -n 's/^PostgreSQL \([0-9][0-9]*\).*/\1/p')
# A relative PG_CONFIG must still name the same file from build/pg/MAJOR.
PG_CONFIG_ABS := $(if $(findstring /,$(PG_CONFIG)),$(abspath $(PG_CONFIG)),$(PG_CONFIG))
PG_BUILD_DIR = build/pg/$(PG_MAJOR)
PG_TARGETS = install installcheck uninstall

PG_HOW = install a PostgreSQL server's development files (Debian: postgresql-server-dev-NN),
PG_HOW += or get a server of any supported major with tools/postgres.sh MAJOR, then
PG_HOW += make PG_CONFIG=/path/to/pg_config
ifeq ($(PGXS),)
  ifneq ($(filter command line environment,$(origin PG_CONFIG)),)
    ifeq ($(filter clean deps demo help sqlite,$(MAKECMDGOALS)),$(MAKECMDGOALS))
      ifneq ($(MAKECMDGOALS),)
        PG_UNUSABLE =
      else
        PG_UNUSABLE = yes
      endif
    else
      PG_UNUSABLE = yes
    endif
    ifeq ($(PG_UNUSABLE),yes)
      $(error PG_CONFIG=$(PG_CONFIG) is not a working pg_config (no such file, or it does not answer --pgxs): $(PG_HOW))
    endif
  endif
all:
	@echo "make: no pg_config on PATH: built the SQLite extension only (build/bloomfilter.so)."
	@echo "make: for the PostgreSQL extension, $(PG_HOW)"
$(PG_TARGETS):
	@echo "make $@: no pg_config on PATH: $(PG_HOW)" >&2; exit 1
else ifeq ($(filter $(PG_MAJOR),$(PG_MAJORS)),)
  ifneq ($(filter-out clean deps demo help sqlite,$(or $(MAKECMDGOALS),all)),)
    $(error $(PG_CONFIG) is PostgreSQL $(or $(PG_MAJOR),of an unknown major) ($(PG_VERSION_STRING)): this extension supports PostgreSQL $(PG_MAJORS) (pg/majors))
  endif
else
all: pg
pg $(PG_TARGETS): pg-build-dir
	@$(MAKE) --no-print-directory -C $(PG_BUILD_DIR) -f $(CURDIR)/Makefile \
	    PG_CONFIG=$(PG_CONFIG_ABS) $(if $(filter pg,$@),all,$@)
# One directory per major; objects of another build of the same major
# (another minor's headers) are not reused.
pg-build-dir:
	@mkdir -p $(PG_BUILD_DIR)
	@if [ "$$(cat $(PG_BUILD_DIR)/.pg_version 2>/dev/null)" != '$(PG_VERSION_STRING)' ]; then \
	    rm -f $(PG_BUILD_DIR)/core/*.o $(PG_BUILD_DIR)/pg/*.o $(PG_BUILD_DIR)/*.so; \
	    echo '$(PG_VERSION_STRING)' > $(PG_BUILD_DIR)/.pg_version; fi
endif
.PHONY: pg pg-build-dir pg-clean $(PG_TARGETS)
pg-clean:
	rm -rf build/pg
