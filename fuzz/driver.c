/*
 * driver.c - runs a fuzz target without libFuzzer (any compiler; built
 * with AddressSanitizer and UBSan by `make fuzz-replay`):
 *
 *   driver [-runs=N] [-seed=S] PATH...
 *
 * Every file given, or inside a directory given, is passed to the target
 * once (a corpus or a crash reproducer), then N inputs made from them by
 * seeded random mutations (bit flips, bytes set to edge values, 64-bit
 * header fields set to edge values, insertions, deletions, truncations).
 * Same seed, same inputs: a failure names the mutated input's number R,
 * and `-seed=S -runs=R -save` writes that input to driver-input.bin.
 */
#include "fuzz.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_INPUTS = 4096, MAX_LEN = 1 << 20 };

typedef struct input {
    uint8_t *data;
    size_t size;
} input;

static input corpus[MAX_INPUTS];
static size_t ncorpus;
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

/* What runs now, for the report of a failure. */
static const char *current_file;
static long current_run = -1;

static void report(void)
{
    char msg[64];
    const char *what = "driver: failed on ";
    if (write(2, what, strlen(what)) < 0)
        return;
    if (current_run >= 0) {
        int len = snprintf(msg, sizeof msg, "mutated input %ld\n", current_run + 1);
        if (write(2, msg, (size_t)len) < 0)
            return;
    } else if (current_file != NULL) {
        if (write(2, current_file, strlen(current_file)) < 0 || write(2, "\n", 1) < 0)
            return;
    }
}

static void on_signal(int sig)
{
    report();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* AddressSanitizer and UBSan end the process without a signal; they call
 * this first when the driver is built with them. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static uint64_t rng(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

static void load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    uint8_t *buf = malloc(MAX_LEN);
    FUZZ_CHECK(buf != NULL);
    size_t n = fread(buf, 1, MAX_LEN, f);
    fclose(f);
    if (ncorpus == MAX_INPUTS) {
        fprintf(stderr, "driver: more than %d inputs\n", MAX_INPUTS);
        exit(2);
    }
    corpus[ncorpus].data = buf;
    corpus[ncorpus].size = n;
    ncorpus++;
    current_file = path;
    LLVMFuzzerTestOneInput(buf, n);
    current_file = NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        load_file(path);
        return;
    }
    DIR *dir = opendir(path);
    FUZZ_CHECK(dir != NULL);
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        FUZZ_CHECK(names != NULL);
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        FUZZ_CHECK(names[n] != NULL);
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(dir);
    qsort(names, n, sizeof *names, by_name); /* the same order everywhere */
    for (size_t i = 0; i < n; i++) {
        load_file(names[i]);
        free(names[i]);
    }
    free(names);
}

static const uint8_t edge_bytes[] = {0x00, 0x01, 0x02, 0x07, 0x08, 0x1f, 0x20, 0x21,
                                     0x3f, 0x40, 0x7f, 0x80, 0xfe, 0xff};
static const uint64_t edge_words[] = {0, 1, 7, 8, 63, 64, 65, 255, 256, 257,
                                      UINT64_C(1) << 32, (UINT64_C(1) << 40) - 1,
                                      UINT64_C(1) << 40, UINT64_MAX / 8, UINT64_MAX - 1,
                                      UINT64_MAX, UINT64_C(0x3FF0000000000000) /* 1.0 */,
                                      UINT64_C(0x3F847AE147AE147B) /* 0.01 */};

/* One mutation of buf[0, *size) (capacity MAX_LEN) in place. */
static void mutate(uint8_t *buf, size_t *size)
{
    size_t n = *size;
    switch (rng() % 7) {
    case 0: /* flip a bit */
        if (n > 0)
            buf[rng() % n] ^= (uint8_t)(1u << (rng() % 8));
        break;
    case 1: /* a byte to an edge value */
        if (n > 0)
            buf[rng() % n] = edge_bytes[rng() % sizeof edge_bytes];
        break;
    case 2: /* an aligned 64-bit little-endian field to an edge value */
        if (n >= 8) {
            size_t at = (rng() % (n / 8)) * 8;
            uint64_t v = edge_words[rng() % (sizeof edge_words / sizeof edge_words[0])];
            for (int i = 0; i < 8; i++)
                buf[at + i] = (uint8_t)(v >> (8 * i));
        }
        break;
    case 3: /* insert a byte */
        if (n < MAX_LEN) {
            size_t at = rng() % (n + 1);
            memmove(buf + at + 1, buf + at, n - at);
            buf[at] = (uint8_t)rng();
            *size = n + 1;
        }
        break;
    case 4: /* delete a byte */
        if (n > 0) {
            size_t at = rng() % n;
            memmove(buf + at, buf + at + 1, n - at - 1);
            *size = n - 1;
        }
        break;
    case 5: /* truncate */
        if (n > 0)
            *size = rng() % n;
        break;
    default: /* a random byte */
        if (n > 0)
            buf[rng() % n] = (uint8_t)rng();
        break;
    }
}

int main(int argc, char **argv)
{
    unsigned long runs = 0;
    int first = 1, save = 0;
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    if (__sanitizer_set_death_callback != NULL)
        __sanitizer_set_death_callback(report);
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strncmp(argv[first], "-runs=", 6) == 0)
            runs = strtoul(argv[first] + 6, NULL, 10);
        else if (strncmp(argv[first], "-seed=", 6) == 0)
            rng_state ^= strtoull(argv[first] + 6, NULL, 10);
        else if (strcmp(argv[first], "-save") == 0)
            save = 1;
        else {
            fprintf(stderr, "usage: %s [-runs=N] [-seed=S] [-save] PATH...\n", argv[0]);
            return 2;
        }
    }
    for (int i = first; i < argc; i++)
        load_path(argv[i]);
    if (ncorpus == 0 && runs > 0) {
        static uint8_t empty[1];
        corpus[ncorpus++] = (input){empty, 0};
    }
    uint8_t *buf = malloc(MAX_LEN);
    FUZZ_CHECK(buf != NULL);
    for (unsigned long r = 0; r < runs; r++) {
        const input *from = &corpus[rng() % ncorpus];
        size_t size = from->size;
        memcpy(buf, from->data, size);
        unsigned count = 1 + (unsigned)(rng() % 4);
        for (unsigned m = 0; m < count; m++)
            mutate(buf, &size);
        if (save && r + 1 == runs) {
            FILE *f = fopen("driver-input.bin", "wb");
            FUZZ_CHECK(f != NULL && fwrite(buf, 1, size, f) == size && fclose(f) == 0);
            printf("driver: mutated input %lu written to driver-input.bin\n", runs);
        }
        /* an exact-size copy: reads past the input are caught */
        uint8_t *exact = fuzz_copy(buf, size);
        current_run = (long)r;
        LLVMFuzzerTestOneInput(exact, size);
        current_run = -1;
        free(exact);
    }
    printf("driver: %zu corpus inputs, %lu mutated inputs, no failure\n", ncorpus, runs);
    free(buf);
    return 0;
}
