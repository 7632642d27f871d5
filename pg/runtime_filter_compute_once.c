/*
 * runtime_filter_compute_once.c - Custom Scan (BloomComputeOnce): the build
 * side of a runtime filter, computed by one process of a parallel plan for
 * all of them (bloomfilter.runtime_filter_build_once).
 *
 * Under a Gather, a hash join whose Hash node is not a Parallel Hash has
 * every process (the leader and each worker) build the whole hash table:
 * each runs the build side in full, and builds the same filter from the
 * same rows.  TPC-H Q18 aggregates all of lineitem three times so, Q7 and
 * Q21 look up their suppliers' lineitem rows three times.  When that side
 * costs well more than writing its rows down and reading them back, this
 * node goes between the filter's build node and its child: the first
 * process to reach it runs the child, returns its rows and writes them to a
 * file of a shared file set; a process that comes while it does waits, then
 * reads the file, as does one that comes later.  On two cores, three
 * processes computing the same rows take half as long again as one.
 *
 * Waiting is safe: a process waits only for one that is producing, and
 * producing is a Hash node reading its child to the end, which sends
 * nothing to the Gather and waits for no process that waits here.  An error
 * in any process ends the query: the leader rethrows a worker's error while
 * it waits, and ends the workers when its own error ends it.  A producer
 * that stops before the end (a rescan with other parameters, a shutdown)
 * abandons the file: the processes waiting compute the rows themselves.
 *
 * Rescans: with the same parameters the file is read again; with others,
 * this process computes the rows itself from then on.  A Gather rescanned
 * starts over (ReInitializeDSMCustomScan): the next execution shares again.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"

#include <fcntl.h>

#include "access/htup_details.h"
#include "access/parallel.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "optimizer/optimizer.h"
#include "storage/buffile.h"
#include "storage/condition_variable.h"
#include "storage/dsm.h"
#include "storage/sharedfileset.h"
#include "storage/spin.h"
#include "utils/wait_event.h"

bool		bloomfilter_runtime_filter_build_once = true;
double		bloomfilter_runtime_filter_build_once_min_cost = 1000.0;

/* The rows' file in the node's own file set. */
#define ROWS_FILE "bloom-compute-once"

/* How many times the cost of writing and reading its rows the child must
 * cost, at least. */
#define SHARE_COST_FACTOR 4.0

typedef enum SharedRowsState
{
	ROWS_UNCLAIMED,
	ROWS_PRODUCING,
	ROWS_DONE,
	ROWS_ABANDONED
} SharedRowsState;

/* What the processes share of an execution, and EXPLAIN shows. */
typedef struct RowsStatus
{
	SharedRowsState state;
	int			producer;		/* its ParallelWorkerNumber (-1: the leader) */
	int			readers;		/* processes that read the file */
	int64		rows;
	uint64		bytes;
} RowsStatus;

typedef struct SharedRows
{
	slock_t		mutex;
	RowsStatus	status;
	dsm_handle	segment;		/* for the workers' attach to the file set */
	ConditionVariable done;		/* broadcast at DONE and ABANDONED */
	SharedFileSet fileset;
} SharedRows;

typedef enum OnceMode
{
	ONCE_UNDECIDED,				/* not run yet this execution */
	ONCE_PRODUCING,				/* running the child, writing the file */
	ONCE_READING,				/* reading the file */
	ONCE_LOCAL					/* running the child, sharing nothing */
} OnceMode;

typedef struct OnceState
{
	CustomScanState css;
	SharedRows *shared;			/* with workers */
	OnceMode	mode;
	BufFile    *file;
	bool		eof;			/* read to the end (READING) */
	bool		counted;		/* this process is among the readers */
	TupleTableSlot *read_slot;
	char	   *buf;
	Size		buf_size;
	int64		written_rows;
	uint64		written_bytes;

	/* for EXPLAIN ANALYZE, kept when the shared memory goes (UNCLAIMED:
	 * nothing to show) */
	RowsStatus	last;
} OnceState;

static Node *create_state(CustomScan *cscan);
static void begin_once(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_once(CustomScanState *node);
static void end_once(CustomScanState *node);
static void rescan_once(CustomScanState *node);
static Size estimate_dsm(CustomScanState *node, ParallelContext *pcxt);
static void initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate);
static void shutdown_once(CustomScanState *node);
static void explain_once(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomScanMethods once_methods = {
	.CustomName = BLOOM_COMPUTE_ONCE_NAME,
	.CreateCustomScanState = create_state,
};

static const CustomExecMethods once_exec_methods = {
	.CustomName = BLOOM_COMPUTE_ONCE_NAME,
	.BeginCustomScan = begin_once,
	.ExecCustomScan = exec_once,
	.EndCustomScan = end_once,
	.ReScanCustomScan = rescan_once,
	.EstimateDSMCustomScan = estimate_dsm,
	.InitializeDSMCustomScan = initialize_dsm,
	.ReInitializeDSMCustomScan = reinitialize_dsm,
	.InitializeWorkerCustomScan = initialize_worker,
	.ShutdownCustomScan = shutdown_once,
	.ExplainCustomScan = explain_once,
};

void
bloom_runtime_compute_once_register(void)
{
	RegisterCustomScanMethods(&once_methods);
}

/* ---- planning ---- */

/* Whether child costs well more than writing its rows and reading them
 * back, and at least bloomfilter.runtime_filter_build_once_min_cost (the
 * file's creation, the waits). */
static bool
worth_sharing(Plan *child)
{
	double		rows = Max(child->plan_rows, 1.0);
	double		pages = rows * (child->plan_width + MAXALIGN(SizeofMinimalTupleHeader)) / BLCKSZ;
	double		io = 2.0 * (rows * cpu_tuple_cost + pages * seq_page_cost);

	return child->total_cost >= bloomfilter_runtime_filter_build_once_min_cost &&
		child->total_cost >= SHARE_COST_FACTOR * io;
}

static void
add_once(Plan **link, int *next_plan_node_id)
{
	CustomScan *cscan = bloom_runtime_passthrough_scan(*link, &once_methods);

	/* for the shared memory callbacks: it divides no rows */
	cscan->scan.plan.parallel_aware = true;
	cscan->scan.plan.plan_node_id = (*next_plan_node_id)++;
	*link = (Plan *) cscan;
}

/*
 * under_gather: in the part of the plan the workers run; may_rescan: the
 * hash tables there may be built again within one execution of that part
 * (under a nested loop's inner side, a Memoize).  A Gather rescanned starts
 * the part over, which the node handles.
 */
static void
share_walk(Plan **link, bool under_gather, bool may_rescan, int *next_plan_node_id)
{
	Plan	   *plan = *link;
	ListCell   *lc;

	check_stack_depth();
	if (plan == NULL)
		return;
	switch (nodeTag(plan))
	{
		case T_Gather:
		case T_GatherMerge:
			share_walk(&plan->lefttree, true, false, next_plan_node_id);
			return;
		case T_NestLoop:
		case T_MergeJoin:
			share_walk(&plan->lefttree, under_gather, may_rescan, next_plan_node_id);
			share_walk(&plan->righttree, under_gather, true, next_plan_node_id);
			return;
		case T_Memoize:
		case T_RecursiveUnion:
			share_walk(&plan->lefttree, under_gather, true, next_plan_node_id);
			share_walk(&plan->righttree, under_gather, true, next_plan_node_id);
			return;
		case T_SubqueryScan:
			share_walk(&((SubqueryScan *) plan)->subplan, under_gather, may_rescan,
					   next_plan_node_id);
			return;
		case T_Hash:
			if (under_gather && !may_rescan && !plan->parallel_aware &&
				plan->lefttree != NULL && bloom_runtime_is_build(plan->lefttree))
			{
				Plan	   *build = plan->lefttree;

				if (worth_sharing(build->lefttree) && !bloom_runtime_divides_rows(build->lefttree))
					add_once(&build->lefttree, next_plan_node_id);
			}
			break;
		default:
			break;
	}
	foreach(lc, bloom_runtime_child_plans(plan))
		share_walk((Plan **) &lfirst(lc), under_gather, may_rescan, next_plan_node_id);
	share_walk(&plan->lefttree, under_gather, may_rescan, next_plan_node_id);
	share_walk(&plan->righttree, under_gather, may_rescan, next_plan_node_id);
}

void
bloom_runtime_share_builds(Plan **link, int *next_plan_node_id)
{
	if (bloomfilter_runtime_filter_build_once)
		share_walk(link, false, false, next_plan_node_id);
}

/* ---- running ---- */

static Node *
create_state(CustomScan *cscan)
{
	OnceState  *state = palloc0(sizeof(OnceState));

	NodeSetTag(state, T_CustomScanState);
	state->css.flags = cscan->flags;
	state->css.methods = &once_exec_methods;
	return (Node *) state;
}

static void
begin_once(CustomScanState *node, EState *estate, int eflags)
{
	OnceState  *state = (OnceState *) node;
	PlanState  *child;

	child = ExecInitNode(outerPlan(node->ss.ps.plan), estate, eflags);
	outerPlanState(node) = child;
	node->ss.ps.ps_ProjInfo = NULL;
	state->read_slot = ExecInitExtraTupleSlot(estate, ExecGetResultType(child),
											  &TTSOpsMinimalTuple);

	/*
	 * The child's slots (producing, local) or one of minimal tuples
	 * (reading): the node above deforms whichever comes.
	 */
	node->ss.ps.resultops = NULL;
	node->ss.ps.resultopsfixed = false;
	node->ss.ps.resultopsset = true;
	state->mode = ONCE_UNDECIDED;
}

static SharedRowsState
shared_state(SharedRows *shared)
{
	SharedRowsState result;

	SpinLockAcquire(&shared->mutex);
	result = shared->status.state;
	SpinLockRelease(&shared->mutex);
	return result;
}

static void
set_shared_state(SharedRows *shared, SharedRowsState to)
{
	SpinLockAcquire(&shared->mutex);
	shared->status.state = to;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->done);
}

static void
close_file(OnceState *state)
{
	if (state->file != NULL)
		BufFileClose(state->file);
	state->file = NULL;
}

/* A producer that will not finish: the others compute the rows themselves. */
static void
abandon(OnceState *state)
{
	close_file(state);
	if (state->shared != NULL)
		set_shared_state(state->shared, ROWS_ABANDONED);
	state->mode = ONCE_LOCAL;
}

/* Produce the rows, or wait for the process that does and read them. */
static void
decide(OnceState *state)
{
	SharedRows *shared = state->shared;
	SharedRowsState seen;

	if (shared == NULL)
	{
		state->mode = ONCE_LOCAL;
		return;
	}
	SpinLockAcquire(&shared->mutex);
	seen = shared->status.state;
	if (seen == ROWS_UNCLAIMED)
	{
		shared->status.state = ROWS_PRODUCING;
		shared->status.producer = ParallelWorkerNumber;
	}
	SpinLockRelease(&shared->mutex);

	if (seen == ROWS_UNCLAIMED)
	{
		MemoryContext old = MemoryContextSwitchTo(state->css.ss.ps.state->es_query_cxt);

		state->file = BufFileCreateFileSet(&shared->fileset.fs, ROWS_FILE);
		MemoryContextSwitchTo(old);
		state->written_rows = 0;
		state->written_bytes = 0;
		state->counted = true;	/* not among the readers if it reads again */
		state->mode = ONCE_PRODUCING;
		return;
	}
	ConditionVariablePrepareToSleep(&shared->done);
	while ((seen = shared_state(shared)) == ROWS_PRODUCING)
		ConditionVariableSleep(&shared->done, PG_WAIT_EXTENSION);
	ConditionVariableCancelSleep();
	state->mode = seen == ROWS_DONE ? ONCE_READING : ONCE_LOCAL;
	state->eof = false;
}

static TupleTableSlot *
produce_next(OnceState *state)
{
	TupleTableSlot *slot = ExecProcNode(outerPlanState(state));
	MinimalTuple tuple;
	bool		should_free;

	if (TupIsNull(slot))
	{
		/* closing flushes the file; the readers open it by its name */
		close_file(state);
		SpinLockAcquire(&state->shared->mutex);
		state->shared->status.rows = state->written_rows;
		state->shared->status.bytes = state->written_bytes;
		SpinLockRelease(&state->shared->mutex);
		set_shared_state(state->shared, ROWS_DONE);
		/* a rescan with the same parameters reads the file */
		state->mode = ONCE_READING;
		state->eof = true;
		return slot;
	}
	tuple = ExecFetchSlotMinimalTuple(slot, &should_free);
	BufFileWrite(state->file, tuple, tuple->t_len);
	state->written_rows++;
	state->written_bytes += tuple->t_len;
	if (should_free)
		pfree(tuple);
	return slot;
}

static TupleTableSlot *
read_next(OnceState *state)
{
	uint32		len;

	if (state->eof)
		return ExecClearTuple(state->read_slot);
	if (state->file == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(state->css.ss.ps.state->es_query_cxt);

		state->file = BufFileOpenFileSet(&state->shared->fileset.fs, ROWS_FILE, O_RDONLY, false);
		MemoryContextSwitchTo(old);
		if (!state->counted)
		{
			SpinLockAcquire(&state->shared->mutex);
			state->shared->status.readers++;
			SpinLockRelease(&state->shared->mutex);
			state->counted = true;
		}
	}
	/* each row: a minimal tuple, which starts with its length */
	if (BufFileReadMaybeEOF(state->file, &len, sizeof(len), true) == 0)
	{
		close_file(state);
		state->eof = true;
		return ExecClearTuple(state->read_slot);
	}
	if (len < SizeofMinimalTupleHeader || len > MaxAllocSize)
		elog(ERROR, "bloom compute once: a row of %u bytes in its file", len);
	if (len > state->buf_size)
	{
		Size		want = Max((Size) len, 2 * state->buf_size);

		want = Min(want, MaxAllocSize);
		state->buf = state->buf == NULL ?
			MemoryContextAlloc(state->css.ss.ps.state->es_query_cxt, want) :
			repalloc(state->buf, want);
		state->buf_size = want;
	}
	memcpy(state->buf, &len, sizeof(len));
	BufFileReadExact(state->file, state->buf + sizeof(len), len - sizeof(len));
	return ExecStoreMinimalTuple((MinimalTuple) state->buf, state->read_slot, false);
}

static TupleTableSlot *
exec_once(CustomScanState *node)
{
	OnceState  *state = (OnceState *) node;

	if (state->mode == ONCE_UNDECIDED)
		decide(state);
	switch (state->mode)
	{
		case ONCE_PRODUCING:
			return produce_next(state);
		case ONCE_READING:
			return read_next(state);
		default:
			return ExecProcNode(outerPlanState(node));
	}
}

static void
end_once(CustomScanState *node)
{
	OnceState  *state = (OnceState *) node;

	if (state->mode == ONCE_PRODUCING)
		abandon(state);
	close_file(state);
	ExecEndNode(outerPlanState(node));
}

static void
rescan_once(CustomScanState *node)
{
	OnceState  *state = (OnceState *) node;
	PlanState  *child = outerPlanState(node);

	if (state->mode == ONCE_PRODUCING)
		abandon(state);
	close_file(state);
	state->eof = false;
	/* other parameters, other rows: this process computes them */
	if (child->chgParam != NULL)
		state->mode = ONCE_LOCAL;
	else
		ExecReScan(child);
}

/* ---- parallel ---- */

static Size
estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	(void) node;
	(void) pcxt;
	return sizeof(SharedRows);
}

static void
reset_shared(SharedRows *shared)
{
	SpinLockAcquire(&shared->mutex);
	memset(&shared->status, 0, sizeof(shared->status));
	shared->status.state = ROWS_UNCLAIMED;
	shared->status.producer = -1;
	SpinLockRelease(&shared->mutex);
}

/* A new execution: nothing decided, nothing open. */
static void
reset_local(OnceState *state)
{
	close_file(state);
	state->mode = ONCE_UNDECIDED;
	state->eof = false;
	state->counted = false;
}

static void
initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	OnceState  *state = (OnceState *) node;
	SharedRows *shared = coordinate;

	reset_local(state);
	/* no segment (none could be made): no workers either */
	if (pcxt->seg == NULL)
	{
		state->shared = NULL;
		return;
	}
	SpinLockInit(&shared->mutex);
	reset_shared(shared);
	shared->segment = dsm_segment_handle(pcxt->seg);
	ConditionVariableInit(&shared->done);
	SharedFileSetInit(&shared->fileset, pcxt->seg);
	state->shared = shared;
}

static void
reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	OnceState  *state = (OnceState *) node;
	SharedRows *shared = coordinate;

	(void) pcxt;
	reset_local(state);
	if (state->shared == NULL)
		return;
	/* the workers of the last execution are gone: no one has it open */
	BufFileDeleteFileSet(&shared->fileset.fs, ROWS_FILE, true);
	reset_shared(shared);
}

static void
initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	OnceState  *state = (OnceState *) node;
	SharedRows *shared = coordinate;
	dsm_segment *seg = dsm_find_mapping(shared->segment);

	(void) toc;
	if (seg == NULL)
		elog(ERROR, "bloom compute once: the parallel query's segment is not mapped");
	SharedFileSetAttach(&shared->fileset, seg);
	reset_local(state);
	state->shared = shared;
}

/* The shared memory goes away after this: keep what EXPLAIN shows. */
static void
shutdown_once(CustomScanState *node)
{
	OnceState  *state = (OnceState *) node;
	SharedRows *shared = state->shared;

	if (shared == NULL)
		return;
	if (state->mode == ONCE_PRODUCING)
		abandon(state);
	close_file(state);
	SpinLockAcquire(&shared->mutex);
	state->last = shared->status;
	SpinLockRelease(&shared->mutex);
	state->shared = NULL;
}

/* ---- EXPLAIN ---- */

static void
explain_once(CustomScanState *node, List *ancestors, ExplainState *es)
{
	OnceState  *state = (OnceState *) node;
	StringInfoData buf;

	(void) ancestors;
	if (!es->analyze)
		return;
	if (state->shared != NULL)
		shutdown_once(node);
	if (state->last.state == ROWS_UNCLAIMED)
		return;
	initStringInfo(&buf);
	if (state->last.state == ROWS_ABANDONED)
		appendStringInfoString(&buf, "no: abandoned, each process computed the rows");
	else
	{
		if (state->last.producer < 0)
			appendStringInfoString(&buf, "by the leader");
		else
			appendStringInfo(&buf, "by worker %d", state->last.producer);
		if (state->last.state == ROWS_DONE)
			appendStringInfo(&buf, ", " INT64_FORMAT " rows, " UINT64_FORMAT " kB, read by %d %s",
							 state->last.rows, (state->last.bytes + 1023) / 1024,
							 state->last.readers,
							 state->last.readers == 1 ? "other process" : "other processes");
		else
			appendStringInfoString(&buf, ", unfinished when the query ended");
	}
	ExplainPropertyText("Computed Once", buf.data, es);
}
