# Fuzz targets (fuzz/*.c but driver.c and seeds.c; docs/FUZZING.md).
#   make fuzz [FUZZ_TIME=60]   each target under libFuzzer (clang) for FUZZ_TIME
#                              seconds, corpus kept in build/fuzz/corpus/
#   make fuzz-replay           each target without libFuzzer ($(CC), ASan and
#                              UBSan): the seed corpus, then seeded mutations
#   make fuzz-seeds            rewrite the seed corpora fuzz/corpus/ from seeds.c
FUZZ_TARGETS = $(filter-out driver seeds,$(basename $(notdir $(wildcard fuzz/*.c))))
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_RUNS ?= 2000
FUZZ_SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(STD) $(WARN) -g -O1 -Icore -Isqlite -DSQLITE_CORE
# The SQLite target links the extension itself and SQLite.
FUZZ_LIBS_sqlite_sql = $(SQLITE_SRCS) -lsqlite3
FUZZ_LIBS_sqlite_bitslice = $(SQLITE_SRCS) -lsqlite3
FUZZ_DEPS = fuzz/fuzz.h $(CORE_SRCS) $(CORE_HDRS) $(SQLITE_SRCS) $(SQLITE_HDRS)

build/fuzz/libfuzzer/%: fuzz/%.c $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SANITIZE) -o $@ $< $(CORE_SRCS) $(FUZZ_LIBS_$*) -lm

build/fuzz/replay/%: fuzz/%.c fuzz/driver.c $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) $(FUZZ_SANITIZE) -o $@ fuzz/driver.c $< $(CORE_SRCS) $(FUZZ_LIBS_$*) -lm

build/fuzz/seeds: fuzz/seeds.c fuzz/fuzz.h $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) -o $@ fuzz/seeds.c $(CORE_SRCS) -lm

# Every target, both builds, without running them (the fuzz and doc suites:
# one builds them, the other finds them made).
fuzz-build: $(addprefix build/fuzz/libfuzzer/,$(FUZZ_TARGETS)) $(addprefix build/fuzz/replay/,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-replay fuzz-seeds fuzz-build
fuzz: $(addprefix build/fuzz/libfuzzer/,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p build/fuzz/corpus/$$t build/fuzz/artifacts; \
	    echo "== $$t: $(FUZZ_TIME) s"; \
	    build/fuzz/libfuzzer/$$t -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 \
	        -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/$$t- \
	        build/fuzz/corpus/$$t fuzz/corpus/$$t || exit 1; \
	done

fuzz-replay: $(addprefix build/fuzz/replay/,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	    echo "== $$t"; build/fuzz/replay/$$t -runs=$(FUZZ_RUNS) -seed=1 fuzz/corpus/$$t || exit 1; \
	done

fuzz-seeds: build/fuzz/seeds
	rm -rf fuzz/corpus
	mkdir -p fuzz/corpus
	build/fuzz/seeds fuzz/corpus
