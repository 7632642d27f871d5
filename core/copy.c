/*
 * copy.c - a filter copied into a buffer of the host's, with its view.
 */
#include "internal.h"

size_t bloom_filter_size(const bloom_filter *f)
{
    return BLOOM_HEADER_SIZE + (size_t)f->nbytes;
}

/* The header sits right before the bits in every view (bloom_parse). */
void bloom_copy(const bloom_filter *f, void *buf, bloom_filter *out)
{
    memcpy(buf, f->bits - BLOOM_HEADER_SIZE, bloom_filter_size(f));
    *out = *f;
    out->bits = (uint8_t *)buf + BLOOM_HEADER_SIZE;
}
