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
		case BLOOM_E_SATURATED:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("bloom filter %s is saturated",
							 what == NULL || strcmp(what, "union") == 0 ? "union" : "intersection"),
					 errdetail("%s", detail),
					 errhint("%s", bloom_status_hint(BLOOM_E_SATURATED))));
			break;
		case BLOOM_OK:
			break;
	}
	elog(ERROR, "unexpected bloom status %d", (int) err->status);
}

void
bloom_raise_combine(const bloom_error *err, const char *what)
{
	/* what two filters of these layouts cannot do, whatever their sizes */
	if (err->status == BLOOM_E_INVALID_ARGUMENT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot %s these bloom filters", what),
				 errdetail("%s", bloom_sentence(err->message))));
	bloom_raise(err, BLOOM_SOURCE_STORED, what);
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

/*
 * The allocator of a filter that may move (a scalable filter growing a
 * stage): every buffer the core gets is the payload of a varlena, so the
 * buffer it ends with is a value once its length is set.
 */
static void *
varlena_alloc(void *ctx, size_t size)
{
	char	   *p = MemoryContextAllocExtended((MemoryContext) ctx, VARHDRSZ + size,
											   MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);

	return p ? p + VARHDRSZ : NULL;
}

static void
varlena_release(void *ctx, void *ptr)
{
	(void) ctx;
	pfree((char *) ptr - VARHDRSZ);
}

struct varlena *
bloom_pg_insert(struct varlena *value, bloom_filter *f, const uint64 *hashes, size_t n)
{
	bloom_allocator alloc = {varlena_alloc, varlena_release, CurrentMemoryContext};
	void	   *buf = VARDATA(value);
	size_t		len = VARSIZE(value) - VARHDRSZ;
	bloom_error err;

	if (bloom_insert(&alloc, BLOOM_PG_MAX_FILTER_BYTES, &buf, &len, f, hashes, n, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, NULL);
	value = (struct varlena *) ((char *) buf - VARHDRSZ);
	SET_VARSIZE(value, VARHDRSZ + len);
	return value;
}
