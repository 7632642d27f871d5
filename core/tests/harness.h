/*
 * harness.h - the smallest test harness that reports like the others:
 * one line per test, then "core: N passed, M failed".
 */
#ifndef BLOOMFILTER_TEST_HARNESS_H
#define BLOOMFILTER_TEST_HARNESS_H

#include <stdio.h>

extern int test_current_failed;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);     \
            test_current_failed = 1;                                                       \
        }                                                                                  \
    } while (0)

#define CHECK_MSG(cond, ...)                                                               \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            test_current_failed = 1;                                                       \
        }                                                                                  \
    } while (0)

typedef struct test_case {
    const char *name;
    void (*run)(void);
} test_case;

#endif
