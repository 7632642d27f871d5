/*
 * error.c - status names and the one place that formats messages.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

const char *bloom_status_name(bloom_status status)
{
    switch (status) {
    case BLOOM_OK:
        return "ok";
    case BLOOM_E_INVALID_ARGUMENT:
        return "invalid argument";
    case BLOOM_E_LIMIT:
        return "size limit exceeded";
    case BLOOM_E_FORMAT:
        return "malformed bloom filter";
    case BLOOM_E_MISMATCH:
        return "incompatible bloom filters";
    case BLOOM_E_NOMEM:
        return "out of memory";
    case BLOOM_E_SATURATED:
        return "saturated bloom filter";
    }
    return "unknown error";
}

const char *bloom_status_hint(bloom_status status)
{
    if (status == BLOOM_E_MISMATCH)
        return "Filters combine when they have the same layout, nhashes and seed and the nbits "
               "of one divides the other's, as filters built by bloom_agg(x) or bloom_empty at "
               "one fpr do. For a union that stays at its target rate, build every group with "
               "bloom_agg(x, capacity, fpr) sized for the largest union you will form.";
    if (status == BLOOM_E_SATURATED)
        return "A union of filters of one size holds all their values in that size, and these "
               "hold more than it was sized for (or the filters were near saturation already). "
               "Build every group with bloom_agg(x, capacity, fpr), capacity the count of the "
               "largest union you will form (README, Rollups).";
    return NULL;
}

bloom_status bloom_fail(bloom_error *err, bloom_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}
