/*
 * errors.c - core statuses as PostgreSQL errors, and the core's allocator.
 *
 * The core fills a bloom_error with a status and a lower-case message that
 * names the field or the parameters at fault; here the status picks the
 * SQLSTATE and the message becomes the errdetail sentence.
 */
#include "bloomfilter.h"

#include <ctype.h>

#include "utils/memutils.h"

/* The core's message as a sentence: capital first letter, final period. */
char *
bloom_sentence(const char *message)
{
	size_t		len = strlen(message);
	char	   *s = palloc(len + 2);

	memcpy(s, message, len);
	if (len > 0)
		s[0] = (char) toupper((unsigned char) s[0]);
	if (len == 0 || s[len - 1] != '.')
		s[len++] = '.';
	s[len] = '\0';
	return s;
}

void
bloom_raise(const bloom_error *err, BloomSource source, const char *what)
{
	const char *detail = bloom_sentence(err->message[0] ? err->message
								  : bloom_status_name(err->status));

	switch (err->status)
	{
		case BLOOM_E_FORMAT:
			if (source == BLOOM_SOURCE_TEXT)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s", what ? what : "bloom"),
						 errdetail("%s", detail)));
			if (source == BLOOM_SOURCE_BINARY)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
						 errmsg("invalid binary representation of %s", what ? what : "a bloom filter"),
						 errdetail("%s", detail)));
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("stored %s is corrupted", what ? what : "bloom filter"),
					 errdetail("%s", detail)));
			break;
		case BLOOM_E_INVALID_ARGUMENT:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid %s", what ? what : "bloom filter parameter"),
					 errdetail("%s", detail)));
			break;
		case BLOOM_E_LIMIT:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s is too large", what ? what : "bloom filter"),
					 errdetail("%s", detail)));
			break;
		case BLOOM_E_MISMATCH:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot %s bloom filters with different parameters",
							what ? what : "combine"),
					 errdetail("%s", detail),
					 errhint("%s", bloom_status_hint(BLOOM_E_MISMATCH))));
			break;
		case BLOOM_E_NOMEM:
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory"),
					 errdetail("%s", detail)));
			break;
		case BLOOM_OK:
			break;
	}
	elog(ERROR, "unexpected bloom status %d", (int) err->status);
}

void
bloom_check_payload_size(uint64 size, const char *what)
{
	if (size > BLOOM_MAX_PAYLOAD)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s is too large", what),
				 errdetail("It needs " UINT64_FORMAT " bytes; a value holds at most %zu bytes.",
						   size, (size_t) BLOOM_MAX_PAYLOAD),
				 errhint("Use a larger false-positive rate or a smaller capacity.")));
}

static void *
pg_alloc(void *ctx, size_t size)
{
	return MemoryContextAllocExtended((MemoryContext) ctx, size,
									  MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void
pg_release(void *ctx, void *ptr)
{
	(void) ctx;
	pfree(ptr);
}

void
bloom_pg_allocator(bloom_allocator *alloc, MemoryContext ctx)
{
	alloc->alloc = pg_alloc;
	alloc->release = pg_release;
	alloc->ctx = ctx;
}
