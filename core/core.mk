# Core unit tests: built with AddressSanitizer and UBSan, every finding fatal.
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CORE_TEST_SRCS = $(wildcard core/tests/*.c)

build/core-test/test_core: $(CORE_SRCS) $(CORE_HDRS) $(CORE_TEST_SRCS) $(wildcard core/tests/*.h)
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) -Werror -g -O1 $(SANITIZE) -DBLOOM_SCRATCH_EXACT -Icore -o $@ $(CORE_TEST_SRCS) $(CORE_SRCS) -lm

# The same without the code chosen by the CPU at run time (AVX2 blocked
# probes): the portable code must give the same answers.
build/core-test/test_core_portable: $(CORE_SRCS) $(CORE_HDRS) $(CORE_TEST_SRCS) $(wildcard core/tests/*.h)
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) -Werror -g -O1 $(SANITIZE) -DBLOOM_SCRATCH_EXACT -DBLOOM_PORTABLE -Icore -o $@ $(CORE_TEST_SRCS) $(CORE_SRCS) -lm

.PHONY: core-test
core-test: build/core-test/test_core build/core-test/test_core_portable
	build/core-test/test_core
	build/core-test/test_core_portable
