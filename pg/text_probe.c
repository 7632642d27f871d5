/*
 * text_probe.c - a probe value of a text type (text, varchar, bpchar, name:
 * what an untyped literal becomes) read as the values the filter holds
 * (docs/HASHING.md, "What a text probe checks").
 *
 * `bloom_agg(day) @> '2026-10-25'` hashes the text '2026-10-25', never
 * added: a false negative.  A filter records the classes of its values
 * (header byte 10, core/kinds.c), and a text probe of a filter that
 * records any is true when one of its readings is a member: the text
 * itself (TEXT), the number it reads as (NUMBER, by numeric's input; also
 * the float4 it rounds to, and a boolean's text), bytea's input of it
 * (BYTES), the input of the filter's one built-in type (TYPED).  A filter
 * that records nothing (text only, empty, or written before 1.2) is probed
 * with the text, as before.
 *
 * The readings of one text are made once and kept per call site (a probe
 * of a column of filters reads one literal for every row); their hashes
 * are kept for the last seed.
 */
#include "bloomfilter.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/syscache.h"

/* One reading of the text: a Datum of some type and how it hashes. */
typedef struct Reading
{
	Datum		value;
	BloomHasher hasher;
	uint64		seed;			/* hash is the reading's under seed */
	uint64		hash;
	bool		hashed;
} Reading;

typedef enum ReadState
{
	NOT_READ = 0,
	READ_OK,
	READ_NONE					/* not a value of the class */
} ReadState;

#define MAX_NUMBERS 3			/* the number, its float4, a boolean */

struct BloomTextProbe
{
	MemoryContext mcxt;			/* of the call site */
	MemoryContext values;		/* the readings of the current text */
	char	   *text;			/* the current text, NUL-terminated, in values */
	Size		len;
	bool		valid;
	Reading		own;			/* the text as text: the probe's own hasher */
	ReadState	numbers_state;
	int			nnumbers;
	Reading		numbers[MAX_NUMBERS];
	ReadState	bytes_state;
	Reading		bytes;
	ReadState	typed_state;
	Oid			typed_oid;		/* typed is a reading as this type */
	Reading		typed;
	/* input of typed_oid, cached across texts */
	Oid			io_oid;
	FmgrInfo	io_input;
	Oid			io_param;
	FmgrInfo	numeric_input;
	bool		numeric_input_ready;
};

BloomTextProbe *
bloom_text_probe_create(MemoryContext mcxt)
{
	BloomTextProbe *tp = MemoryContextAllocZero(mcxt, sizeof(BloomTextProbe));

	tp->mcxt = mcxt;
	tp->values = bloom_context_create(mcxt, "bloomfilter text probe", ALLOCSET_SMALL_SIZES);
	return tp;
}

/* The bytes a text-class value hashes as (bpchar without trailing blanks). */
static void
text_bytes(const BloomHasher *h, Datum value, const char **data, Size *len, struct varlena **detoasted)
{
	*detoasted = NULL;
	if (h->kind == BLOOM_HK_NAME)
	{
		*data = NameStr(*DatumGetName(value));
		*len = strnlen(*data, NAMEDATALEN);
		return;
	}
	*detoasted = PG_DETOAST_DATUM_PACKED(value);
	*data = VARDATA_ANY(*detoasted);
	*len = VARSIZE_ANY_EXHDR(*detoasted);
	if (h->kind == BLOOM_HK_BPCHAR)
		while (*len > 0 && (*data)[*len - 1] == ' ')
			(*len)--;
}

/* Make value the current text; its readings are kept while it stays. */
static void
set_text(BloomTextProbe *tp, const BloomHasher *h, Datum value)
{
	const char *data;
	Size		len;
	struct varlena *detoasted;
	MemoryContext old;

	text_bytes(h, value, &data, &len, &detoasted);
	/* the bytes decide every reading (a bpchar's are without its blanks) */
	if (tp->valid && tp->len == len && memcmp(tp->text, data, len) == 0)
	{
		if (detoasted != NULL && (Pointer) detoasted != DatumGetPointer(value))
			pfree(detoasted);
		return;
	}
	tp->valid = false;
	MemoryContextReset(tp->values);
	old = MemoryContextSwitchTo(tp->values);
	tp->text = palloc(len + 1);
	memcpy(tp->text, data, len);
	tp->text[len] = '\0';
	tp->len = len;
	/* the text reading: a text Datum of the same bytes, hashed as text */
	memset(&tp->own, 0, sizeof tp->own);
	tp->own.value = PointerGetDatum(cstring_to_text_with_len(tp->text, (int) len));
	tp->own.hasher.kind = BLOOM_HK_TEXT;
	tp->own.hasher.value_class = BLOOM_KIND_TEXT;
	tp->numbers_state = tp->bytes_state = tp->typed_state = NOT_READ;
	tp->nnumbers = 0;
	MemoryContextSwitchTo(old);
	if (detoasted != NULL && (Pointer) detoasted != DatumGetPointer(value))
		pfree(detoasted);
	tp->valid = true;
}

static uint64
reading_hash(Reading *r, uint64 seed)
{
	if (!r->hashed || r->seed != seed)
	{
		r->hash = bloom_hash_datum(&r->hasher, r->value, seed);
		r->seed = seed;
		r->hashed = true;
	}
	return r->hash;
}

static void
reading_init(Reading *r, Datum value, BloomHashKind kind)
{
	memset(r, 0, sizeof *r);
	r->value = value;
	r->hasher.kind = kind;
}

/*
 * Whether s is a number as numeric's input reads it before 16 (blanks, a
 * sign, digits with a point, an exponent; NaN, Infinity, inf): there,
 * numeric_in raises on anything else, so it is asked only about numbers.
 */
static bool
numeric_syntax(const char *s)
{
	bool		digits = false;

	while (isspace((unsigned char) *s))
		s++;
	if (pg_strncasecmp(s, "nan", 3) == 0)
		s += 3;
	else
	{
		if (*s == '+' || *s == '-')
			s++;
		if (pg_strncasecmp(s, "infinity", 8) == 0)
			s += 8;
		else if (pg_strncasecmp(s, "inf", 3) == 0)
			s += 3;
		else
		{
			while (isdigit((unsigned char) *s))
				s++, digits = true;
			if (*s == '.')
				for (s++; isdigit((unsigned char) *s); s++)
					digits = true;
			if (!digits)
				return false;
			if (*s == 'e' || *s == 'E')
			{
				s++;
				if (*s == '+' || *s == '-')
					s++;
				if (!isdigit((unsigned char) *s))
					return false;
				while (isdigit((unsigned char) *s))
					s++;
			}
		}
	}
	while (isspace((unsigned char) *s))
		s++;
	return *s == '\0';
}

/* The NUMBER readings: numeric's value (hashed as numeric is, so as the
 * integer or double it equals), the float4 it rounds to when that differs
 * (a float4 value hashes widened), and a boolean's 1 or 0. */
static void
read_numbers(BloomTextProbe *tp)
{
	MemoryContext old = MemoryContextSwitchTo(tp->values);
	Datum		num;
	bool		is_bool;
	bool		b;

	tp->nnumbers = 0;
	if (!tp->numeric_input_ready)
	{
		Oid			input,
					param;

		getTypeInputInfo(NUMERICOID, &input, &param);
		fmgr_info_cxt(input, &tp->numeric_input, tp->mcxt);
		tp->numeric_input_ready = true;
	}
	if ((BLOOM_SOFT_INPUT || numeric_syntax(tp->text)) &&
		bloom_input_soft(&tp->numeric_input, tp->text, NUMERICOID, -1, &num))
	{
		Numeric		n = DatumGetNumeric(num);

		reading_init(&tp->numbers[tp->nnumbers++], num, BLOOM_HK_NUMERIC);
		if (!numeric_is_nan(n) && !numeric_is_inf(n))
		{
			char	   *normal = numeric_normalize(n);
			float		f4 = strtof(normal, NULL);
			double		d = strtod(normal, NULL);

			if (isfinite(f4) && (double) f4 != d)
				reading_init(&tp->numbers[tp->nnumbers++], Float4GetDatum(f4), BLOOM_HK_FLOAT4);
		}
	}
	else
	{
		is_bool = parse_bool_with_len(tp->text, tp->len, &b);
		if (is_bool)
			reading_init(&tp->numbers[tp->nnumbers++], BoolGetDatum(b), BLOOM_HK_BOOL);
	}
	tp->numbers_state = tp->nnumbers > 0 ? READ_OK : READ_NONE;
	MemoryContextSwitchTo(old);
}

/* A reading through the input function of typid: a hard one raises the
 * type's error for a text that is not of the type, as a literal of the
 * type would. */
static ReadState
read_input(BloomTextProbe *tp, Oid typid, bool hard, Reading *out)
{
	MemoryContext old;
	Datum		value;
	bool		ok;

	if (tp->io_oid != typid)
	{
		Oid			input;

		if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(typid)))
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("the bloom filter holds values of type oid %u, which does not exist",
							typid),
					 errhint("Cast the probe to the type the filter was built from.")));
		getTypeInputInfo(typid, &input, &tp->io_param);
		fmgr_info_cxt(input, &tp->io_input, tp->mcxt);
		tp->io_oid = typid;
	}
	old = MemoryContextSwitchTo(tp->values);
	if (hard)
	{
		value = InputFunctionCall(&tp->io_input, tp->text, tp->io_param, -1);
		ok = true;
	}
	else
		ok = bloom_input_soft(&tp->io_input, tp->text, tp->io_param, -1, &value);
	if (ok)
	{
		memset(out, 0, sizeof *out);
		out->value = value;
		bloom_hasher_init_type(&out->hasher, typid, tp->values);
	}
	MemoryContextSwitchTo(old);
	return ok ? READ_OK : READ_NONE;
}

/* bytea's reading of the text, made once (hard: raise bytea's error) */
static bool
bytes_reading(BloomTextProbe *tp, bool hard)
{
	if (tp->bytes_state == NOT_READ)
		tp->bytes_state = read_input(tp, BYTEAOID, hard, &tp->bytes);
	return tp->bytes_state == READ_OK;
}

/* The reading of the text as a value of type typid, made once a type. */
static bool
typed_reading(BloomTextProbe *tp, Oid typid, bool hard)
{
	if (tp->typed_state == NOT_READ || tp->typed_oid != typid)
	{
		tp->typed_oid = typid;
		tp->typed_state = read_input(tp, typid, hard, &tp->typed);
	}
	return tp->typed_state == READ_OK;
}

static void
raise_several_types(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot read a text probe as the values of this bloom filter"),
			 errdetail("The filter holds values of several types, or of a type that is not built in, hashed through their binary form; the text is none of its other values."),
			 errhint("Cast the probe to the type the filter was built from, for example f @> '...'::date.")));
}

/* Whether one of the readings of class cls passes test. */
static bool
test_class(BloomTextProbe *tp, unsigned cls, bloom_kinds kinds, uint64 seed, BloomHashTest test,
		   void *ctx)
{
	bool		only = kinds.mask == cls;

	switch (cls)
	{
		case BLOOM_KIND_TEXT:
			return test(ctx, reading_hash(&tp->own, seed));
		case BLOOM_KIND_NUMBER:
			if (tp->numbers_state == NOT_READ)
				read_numbers(tp);
			for (int i = 0; i < tp->nnumbers; i++)
				if (test(ctx, reading_hash(&tp->numbers[i], seed)))
					return true;
			return false;
		case BLOOM_KIND_BYTES:
			return bytes_reading(tp, only) && test(ctx, reading_hash(&tp->bytes, seed));
		case BLOOM_KIND_TYPED:
			return typed_reading(tp, kinds.type_oid, only) &&
				test(ctx, reading_hash(&tp->typed, seed));
	}
	return false;
}

bool
bloom_text_probe_test(BloomTextProbe *tp, const BloomHasher *h, Datum value, bloom_kinds kinds,
					  uint64 seed, BloomHashTest test, void *ctx)
{
	set_text(tp, h, value);
	if (kinds.mask == 0)
		return test(ctx, reading_hash(&tp->own, seed));
	/* the readings that cannot raise first: on 15 an input that fails
	 * raises, and then only when nothing else answered */
	if ((kinds.mask & BLOOM_KIND_TEXT) && test_class(tp, BLOOM_KIND_TEXT, kinds, seed, test, ctx))
		return true;
	if ((kinds.mask & BLOOM_KIND_NUMBER) &&
		test_class(tp, BLOOM_KIND_NUMBER, kinds, seed, test, ctx))
		return true;
	if ((kinds.mask & BLOOM_KIND_BYTES) && test_class(tp, BLOOM_KIND_BYTES, kinds, seed, test, ctx))
		return true;
	if (kinds.mask & BLOOM_KIND_TYPED)
	{
		if (kinds.type_oid == InvalidOid)
			raise_several_types();
		if (test_class(tp, BLOOM_KIND_TYPED, kinds, seed, test, ctx))
			return true;
	}
	return false;
}

static bool
test_contains(void *ctx, uint64 hash)
{
	return bloom_contains_hash((const bloom_filter *) ctx, hash);
}

bool
bloom_text_probe_contains(BloomTextProbe *tp, const BloomHasher *h, Datum value,
						  const bloom_filter *f)
{
	return bloom_text_probe_test(tp, h, value, f->kinds, f->seed, test_contains, (void *) f);
}
