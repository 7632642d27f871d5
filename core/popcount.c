/*
 * popcount.c - counting the bits set in a filter's words, alone or as two
 * filters' words combined, with the POPCNT instruction where the CPU has
 * it.  The build targets baseline x86-64, where __builtin_popcountll is a
 * call into libgcc of a dozen instructions a word; the instruction (every
 * x86-64 CPU since 2008-2011) is chosen at run time.
 */
#include "internal.h"

/* The loops, written once for each way of counting. */
#define POPCOUNT_LOOPS(suffix, attributes)                                                         \
    attributes static uint64_t bytes_##suffix(const uint8_t *p, uint64_t nbytes)                   \
    {                                                                                              \
        uint64_t total = 0, i = 0;                                                                 \
        for (; i + 8 <= nbytes; i += 8) {                                                          \
            uint64_t word;                                                                         \
            memcpy(&word, p + i, 8); /* byte order does not change a popcount */                  \
            total += (uint64_t)__builtin_popcountll(word);                                         \
        }                                                                                          \
        for (; i < nbytes; i++)                                                                    \
            total += (uint64_t)__builtin_popcount(p[i]);                                           \
        return total;                                                                              \
    }                                                                                              \
    attributes static uint64_t combined_##suffix(bloom_op op, const uint8_t *a, const uint8_t *b,  \
                                                 uint64_t words)                                   \
    {                                                                                              \
        uint64_t total = 0;                                                                        \
        for (uint64_t w = 0; w < words; w++)                                                       \
            total += (uint64_t)__builtin_popcountll(combined_word(op, a, b, w));                   \
        return total;                                                                              \
    }                                                                                              \
    attributes static double block_fills_##suffix(bloom_op op, const uint8_t *a, const uint8_t *b, \
                                                  uint64_t words, uint64_t *set)                   \
    {                                                                                              \
        double sum = 0;                                                                            \
        *set = 0;                                                                                  \
        for (uint64_t w = 0; w + 4 <= words; w += 4) {                                             \
            double product = 1;                                                                    \
            for (uint64_t q = 0; q < 4; q++)                                                       \
                blocked_word_fills(combined_word(op, a, b, w + q), &product, set);                 \
            sum += product;                                                                        \
        }                                                                                          \
        return sum;                                                                                \
    }

POPCOUNT_LOOPS(portable, )

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(BLOOM_PORTABLE)
POPCOUNT_LOOPS(popcnt, __attribute__((target("popcnt"))))
#define HAVE_POPCNT() __builtin_cpu_supports("popcnt")
#else
#define bytes_popcnt bytes_portable
#define combined_popcnt combined_portable
#define block_fills_popcnt block_fills_portable
#define HAVE_POPCNT() 0
#endif

uint64_t popcount_bytes(const uint8_t *p, uint64_t nbytes)
{
    return HAVE_POPCNT() ? bytes_popcnt(p, nbytes) : bytes_portable(p, nbytes);
}

uint64_t popcount_combined(bloom_op op, const uint8_t *a, const uint8_t *b, uint64_t words)
{
    return HAVE_POPCNT() ? combined_popcnt(op, a, b, words) : combined_portable(op, a, b, words);
}

double block_fills_combined(bloom_op op, const uint8_t *a, const uint8_t *b, uint64_t words,
                            uint64_t *set)
{
    return HAVE_POPCNT() ? block_fills_popcnt(op, a, b, words, set)
                         : block_fills_portable(op, a, b, words, set);
}
