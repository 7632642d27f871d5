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
    }
    return "unknown error";
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
