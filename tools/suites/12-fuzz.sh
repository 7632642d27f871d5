#!/usr/bin/env bash
# scope: once
# The fuzz targets (fuzz/, docs/FUZZING.md), briefly: each under libFuzzer
# (clang, ASan, UBSan) from its committed seed corpus for a bounded number
# of seeded runs, then each through the standalone driver (gcc, ASan, UBSan):
# the seeds replayed and a fixed set of seeded mutations.  `make fuzz` is the
# long run.  Ends with "fuzz: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin fuzz
out=$TL_OUT

# every fuzz/*.c but the driver and the seed writer (as fuzz/fuzz.mk)
targets=$(for f in fuzz/*.c; do basename "$f" .c; done | grep -vxE 'driver|seeds' | tr '\n' ' ')
[ -n "$targets" ] || { fail "no fuzz targets found"; targets=; }

# libFuzzer needs clang's runtime (libclang-rt-14-dev, tools/install-deps.sh core)
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' > "$out/probe.c"
if clang -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" 2>"$out/probe.log"; then
    libfuzzer=1
else
    libfuzzer=
    fail "libFuzzer: clang -fsanitize=fuzzer does not link (see $out/probe.log)"
fi

# The doc suite builds the same targets (docs/FUZZING.md's examples): one
# build at a time, the second finds them made.
mkdir -p build
if ! flock build/fuzz.lock make --no-print-directory -j2 $([ -n "$libfuzzer" ] && printf 'build/fuzz/libfuzzer/%s ' $targets) \
        $(printf 'build/fuzz/replay/%s ' $targets) >"$out/build.log" 2>&1; then
    cat "$out/build.log"
    fail "building the fuzz targets"
    tl_end
fi

for t in $targets; do
    if [ -n "$libfuzzer" ]; then
        mkdir -p "$out/corpus-$t"
        # the new inputs go to a scratch corpus, the committed seeds stay as they are
        if build/fuzz/libfuzzer/$t -seed=1 -runs=3000 -max_total_time=5 -timeout=10 -rss_limit_mb=2048 \
                -artifact_prefix="$out/$t-" "$out/corpus-$t" "fuzz/corpus/$t" >"$out/libfuzzer-$t.log" 2>&1; then
            pass "$t under libFuzzer: $(grep -oE '^Done [0-9]+ runs' "$out/libfuzzer-$t.log")"
        else
            tail -40 "$out/libfuzzer-$t.log"
            fail "$t under libFuzzer (see $out/libfuzzer-$t.log)"
        fi
    fi
    if build/fuzz/replay/$t -seed=1 -runs=2000 "fuzz/corpus/$t" >"$out/replay-$t.log" 2>&1; then
        pass "$t replayed: $(tail -n 1 "$out/replay-$t.log" | sed 's/^driver: //')"
    else
        tail -40 "$out/replay-$t.log"
        fail "$t replayed (see $out/replay-$t.log)"
    fi
done
tl_end
