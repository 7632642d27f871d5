/*
 * memory.c - a hint for large buffers: back them with huge pages where the
 * system offers them on request (Linux with transparent huge pages in
 * "madvise" mode, Debian's default).
 *
 * Why: a first touch costs one page fault per 4 KiB page, and on a
 * virtual machine a fault is dear, so filling a builder's hashes could
 * spend much of its time in the kernel; a 2 MiB page takes one fault where
 * 4 KiB pages take 512.  Large filters gain too: a probe misses the TLB
 * less.
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE 1 /* madvise under -std=c11 */
#include <sys/mman.h>
#endif

#include "bloom.h"

#include <stdint.h>

void bloom_advise_huge_pages(void *ptr, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)ptr + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)ptr + size) & ~(huge - 1);
    /* Only whole huge pages inside the buffer: the advice is per mapping,
     * and a neighbour's pages are none of our business.  Failure (no THP,
     * memory that is not anonymous) just leaves small pages. */
    if (ptr != NULL && end > start)
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)ptr;
    (void)size;
#endif
}
