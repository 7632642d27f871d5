/*
 * module.c - the module's entry point and its settings.
 *
 *   bloomfilter.default_fpr     target false-positive rate of bloom_agg(x),
 *                               in the open interval (0, 1); default 0.01
 *   bloomfilter.default_layout  layout of filters built by bloom_agg:
 *                               'classic' (default), 'blocked', 'counting'
 *                               or 'scalable' (bloom_agg(value) only)
 *
 * and registers what the other files register: the batched probe scan's
 * settings and planner hook (batched_probe_scan.c), the option of the index
 * access method bloom_bitslice (bitslice_am.c), the runtime filters'
 * settings, planner hook and build node (runtime_filter.c).
 */
#include "bloomfilter.h"
#include "batched_probe.h"
#include "bitslice.h"
#include "runtime_filter.h"

#include "utils/guc.h"

PG_MODULE_MAGIC;

double		bloomfilter_default_fpr = 0.01;
int			bloomfilter_default_layout = BLOOM_LAYOUT_CLASSIC;

static const struct config_enum_entry layout_options[] = {
	{"classic", BLOOM_LAYOUT_CLASSIC, false},
	{"blocked", BLOOM_LAYOUT_BLOCKED, false},
	{"counting", BLOOM_LAYOUT_COUNTING, false},
	{"scalable", BLOOM_LAYOUT_SCALABLE, false},
	{NULL, 0, false}
};

/* The GUC machinery checks a closed range; a rate needs an open one. */
bool
bloom_check_fpr_setting(double *newval, void **extra, GucSource source)
{
	bloom_error err;

	(void) extra;
	(void) source;
	if (bloom_check_fpr(*newval, &err) != BLOOM_OK)
	{
		GUC_check_errdetail("%s", bloom_sentence(err.message));
		return false;
	}
	return true;
}

void		_PG_init(void);

void
_PG_init(void)
{
	DefineCustomRealVariable("bloomfilter.default_fpr",
							 "Target false-positive rate of bloom_agg(value).",
							 "Greater than 0 and less than 1.",
							 &bloomfilter_default_fpr,
							 0.01, 0.0, 1.0,
							 PGC_USERSET, 0,
							 bloom_check_fpr_setting, NULL, NULL);
	DefineCustomEnumVariable("bloomfilter.default_layout",
							 "Layout of the filters bloom_agg builds.",
							 "'classic' (k probes anywhere), 'blocked' (one cache line per value, Parquet's layout), 'counting' (4-bit counters, values can be removed) or 'scalable' (grows by stages; bloom_agg(value) only).",
							 &bloomfilter_default_layout,
							 BLOOM_LAYOUT_CLASSIC, layout_options,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	bloom_batched_probe_init();
	bloom_bitslice_init();
	bloom_runtime_filter_init();
	MarkGUCPrefixReserved("bloomfilter");
}
