/*
 * runtime_filter_remote.c - runtime filters sent to a remote server with
 * postgres_fdw (runtime_filter_plan.h).
 *
 * When a probe side is a foreign table of a server whose `extensions`
 * option lists bloomfilter, the filter is worth most on the remote server,
 * before the rows are shipped.  The remote SQL is written while planning,
 * so the query is planned a second time with a condition on the foreign
 * table, ($p IS NULL OR bloom_contains($p, key)), whose $p is a placeholder
 * the planner cannot see through (estimated to keep every row, so the plan
 * is the same); postgres_fdw ships it as a query parameter.  After that
 * planning, a hash join whose probe side is that foreign scan, with that
 * key, gets a build node making a canonical filter (the extension's hash,
 * a real `bloom`) and the placeholder becomes its parameter; otherwise the
 * placeholder becomes NULL (no filter).  When the second planning leaves a
 * placeholder anywhere but in a foreign scan, the first plan (without the
 * remote filter) is used.
 *
 * The condition goes only where it drops just the rows it rejects: not in
 * a query level with a LIMIT, OFFSET, window or DISTINCT ON, and only into
 * a remote query that reads one table and does nothing after its WHERE but
 * sort (postgres_fdw pushes a LIMIT into the scan of a table); and only for
 * a server that knows the extension's objects by their local names
 * (runtime_filter_remote_schema.c).
 *
 * Canonical filters are made only where the canonical hash follows the
 * join's equality whatever the two sides' types: integers (int2, int4,
 * int8 in any mix), numeric, float4 and float8 (in any mix), bool, oid,
 * uuid, date, timestamp, timestamptz, bytea; and text, varchar and
 * char(n) under a deterministic collation (equality is then byte
 * equality) where the remote server stores the bytes the local one
 * receives (runtime_filter_remote_schema.c asks).  The remote column's
 * collation plays no part: bloom_contains hashes bytes.  Each key of a
 * join gets a filter of its own: the canonical hash has no form for
 * several columns, and each filter alone drops only rows without a match.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"

#include <ctype.h>

#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "commands/extension.h"
#include "foreign/foreign.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

/* Placeholders of the remote filters in the second planning: PARAM_EXTERN
 * numbers no query has. */
#define PLACEHOLDER_BASE 2147418112

/* ---- the objects of the extension (remote filters) ---- */

void
bloom_runtime_lookup_extension(InjectContext *cx)
{
	Oid			ext = get_extension_oid("bloomfilter", true);
	Oid			nsp;
	Oid			args[2];
	List	   *name;

	cx->bloom_type = InvalidOid;
	cx->contains_func = InvalidOid;
	if (!OidIsValid(ext))
		return;
	nsp = get_extension_schema(ext);
	cx->bloom_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("bloom"),
									 ObjectIdGetDatum(nsp));
	if (!OidIsValid(cx->bloom_type))
		return;
	name = list_make2(makeString(get_namespace_name(nsp)), makeString("bloom_contains"));
	args[0] = cx->bloom_type;
	args[1] = ANYELEMENTOID;
	cx->contains_func = LookupFuncName(name, 2, args, true);
}

/*
 * Whether the canonical hash follows the equality of op under collation, on
 * both sides.  Text equality is byte equality only under a deterministic
 * collation; char(n)'s ignores trailing blanks, as its canonical hash does.
 */
bool
bloom_runtime_canonical_equality(Oid op, Oid collation)
{
	switch (get_opcode(op))
	{
		case F_INT2EQ:
		case F_INT4EQ:
		case F_INT8EQ:
		case F_INT24EQ:
		case F_INT42EQ:
		case F_INT28EQ:
		case F_INT82EQ:
		case F_INT48EQ:
		case F_INT84EQ:
		case F_NUMERIC_EQ:
		case F_FLOAT4EQ:
		case F_FLOAT8EQ:
		case F_FLOAT48EQ:
		case F_FLOAT84EQ:
		case F_BOOLEQ:
		case F_OIDEQ:
		case F_UUID_EQ:
		case F_DATE_EQ:
		case F_TIMESTAMP_EQ:
		case F_BYTEAEQ:
			return true;
		case F_TEXTEQ:
		case F_BPCHAREQ:
			return OidIsValid(collation) && get_collation_isdeterministic(collation);
		default:
			return false;
	}
}

static bool
is_text_equality(Oid op)
{
	RegProcedure eq = get_opcode(op);

	return eq == F_TEXTEQ || eq == F_BPCHAREQ;
}

/*
 * The foreign table's column that key (of join operator op) is, or NULL.
 * A text key may be the column under a binary-compatible cast (varchar,
 * a domain): text equality's keys are text or varchar columns, char(n)'s
 * char(n) ones, so that the remote hashes what the build side does.
 */
static Var *
remote_key_column(Oid op, Expr *key)
{
	RegProcedure eq = get_opcode(op);
	Oid			base;

	if (!is_text_equality(op))
		return IsA(key, Var) ? (Var *) key : NULL;
	while (IsA(key, RelabelType))
		key = ((RelabelType *) key)->arg;
	if (!IsA(key, Var))
		return NULL;
	base = getBaseType(((Var *) key)->vartype);
	if (eq == F_TEXTEQ ? (base == TEXTOID || base == VARCHAROID) : base == BPCHAROID)
		return (Var *) key;
	return NULL;
}

/* Whether foreign table relid is postgres_fdw's, on a server whose
 * `extensions` option lists bloomfilter. */
static bool
remote_has_extension(Oid relid)
{
	ForeignTable *table = GetForeignTable(relid);
	ForeignServer *server = GetForeignServer(table->serverid);
	ForeignDataWrapper *fdw = GetForeignDataWrapper(server->fdwid);
	char	   *handler;
	ListCell   *lc;

	if (!OidIsValid(fdw->fdwhandler))
		return false;
	handler = get_func_name(fdw->fdwhandler);
	if (handler == NULL || strcmp(handler, "postgres_fdw_handler") != 0)
		return false;
	foreach(lc, server->options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);
		List	   *names;
		ListCell   *n;
		bool		found = false;

		if (strcmp(def->defname, "extensions") != 0)
			continue;
		if (!SplitIdentifierString(pstrdup(defGetString(def)), ',', &names))
			return false;
		foreach(n, names)
			if (strcmp(lfirst(n), "bloomfilter") == 0)
				found = true;
		return found;
	}
	return false;
}

/*
 * Whether a word of a remote query is one of the clauses that act after its
 * WHERE (a LIMIT, an aggregate, a window, ...) or that read more than one
 * table.  postgres_fdw writes keywords in capitals and quotes any name that
 * is not all lower case, so a capital word outside quotes is a keyword.
 */
static bool
acts_after_where(const char *word, int len)
{
	static const char *const words[] = {
		"LIMIT", "OFFSET", "FETCH", "GROUP", "HAVING", "DISTINCT", "OVER", "WINDOW",
		"UNION", "INTERSECT", "EXCEPT", "JOIN", "LATERAL", "TABLESAMPLE"
	};

	for (size_t i = 0; i < lengthof(words); i++)
		if ((int) strlen(words[i]) == len && strncmp(word, words[i], len) == 0)
			return true;
	return false;
}

/*
 * Whether the remote query of postgres_fdw's scan fs reads one table and
 * does nothing after its WHERE but sort: only then does a condition in
 * its WHERE drop just the rows it rejects.  postgres_fdw pushes a LIMIT or
 * OFFSET into the scan of a table (the query's last step, with no node of
 * its own in the local plan), and a filter in the WHERE of such a query
 * would run before the LIMIT and let other rows in.  The query is the
 * first item of the scan's fdw_private (postgres_fdw's layout on every
 * major); read word by word outside quotes, one SELECT and none of the
 * words above, or anything unexpected, and it is not plain.
 */
static bool
remote_query_is_plain(ForeignScan *fs)
{
	const char *sql;
	const char *p;
	int			selects = 0;

	if (fs->fdw_private == NIL || !IsA(linitial(fs->fdw_private), String))
		return false;
	sql = strVal(linitial(fs->fdw_private));
	for (p = sql; *p != '\0';)
	{
		if (*p == '\'' || *p == '"')
		{
			/* a literal or a quoted name; a doubled quote is one inside it */
			char		quote = *p++;

			for (;;)
			{
				if (*p == '\0')
					return false;
				if (*p++ == quote)
				{
					if (*p != quote)
						break;
					p++;
				}
			}
		}
		else if (isalpha((unsigned char) *p) || *p == '_')
		{
			const char *word = p;

			while (isalnum((unsigned char) *p) || *p == '_' || *p == '$')
				p++;
			if (acts_after_where(word, (int) (p - word)))
				return false;
			if (p - word == 6 && strncmp(word, "SELECT", 6) == 0)
				selects++;
		}
		else
			p++;
	}
	return selects == 1 && strncmp(sql, "SELECT ", 7) == 0;
}

/* Whether rti is a relation of the query's FROM list that no outer join
 * nulls: a condition in WHERE on it restricts its scan, in any plan. */
static bool
in_inner_position(Node *jtnode, Index rti)
{
	if (jtnode == NULL)
		return false;
	if (IsA(jtnode, RangeTblRef))
		return ((RangeTblRef *) jtnode)->rtindex == (int) rti;
	if (IsA(jtnode, FromExpr))
	{
		ListCell   *lc;

		foreach(lc, ((FromExpr *) jtnode)->fromlist)
			if (in_inner_position(lfirst(lc), rti))
				return true;
		return false;
	}
	if (IsA(jtnode, JoinExpr))
	{
		JoinExpr   *join = (JoinExpr *) jtnode;

		switch (join->jointype)
		{
			case JOIN_INNER:
				return in_inner_position(join->larg, rti) || in_inner_position(join->rarg, rti);
			case JOIN_LEFT:
				return in_inner_position(join->larg, rti);
			case JOIN_RIGHT:
				return in_inner_position(join->rarg, rti);
			default:
				return false;
		}
	}
	return false;
}

/* Where relation relid is named in a query, at every level (subqueries,
 * views, CTEs, sublinks). */
typedef struct FindRelation
{
	Oid			relid;
	int			count;
	Query	   *level;
	Index		rti;
} FindRelation;

static bool
find_relation_walker(Node *node, FindRelation *fr)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;
		Index		rti = 0;
		ListCell   *lc;

		foreach(lc, query->rtable)
		{
			RangeTblEntry *rte = lfirst(lc);

			rti++;
			if (rte->rtekind == RTE_RELATION && rte->relid == fr->relid)
			{
				fr->count++;
				fr->level = query;
				fr->rti = rti;
			}
		}
		return query_tree_walker(query, find_relation_walker, fr, 0);
	}
	return expression_tree_walker(node, find_relation_walker, fr);
}

/*
 * Whether a condition in the WHERE of query level drops only the rows it
 * rejects from what the level returns: not where a LIMIT, OFFSET, window
 * or DISTINCT ON of the level chooses which rows are kept among those the
 * WHERE lets through (dropping one lets another in).
 */
static bool
filters_before_rows_are_kept(Query *level)
{
	return level->limitCount == NULL && level->limitOffset == NULL && !level->hasWindowFuncs &&
		!level->hasDistinctOn && level->setOperations == NULL;
}

/*
 * First planning: whether the key of a foreign scan target could take a
 * remote filter; if so, note the candidate.  The foreign table must be
 * named once in the query (so that the scan of the plan is that one), in
 * a query level where a condition in WHERE restricts its scan.  Where the
 * second planning puts the condition is checked again then: a placeholder
 * anywhere but in the foreign scan sends that plan back.
 */
void
bloom_runtime_note_remote(InjectContext *cx, HashJoin *hj, Target *target, bool may_rescan)
{
	ForeignScan *fs = (ForeignScan *) *target->link;
	RangeTblEntry *rte = rt_fetch(fs->scan.scanrelid, cx->stmt->rtable);
	Oid			op = list_nth_oid(hj->hashoperators, target->key);
	Var		   *var = remote_key_column(op, target->expr);
	bool		same_bytes;
	FindRelation fr;
	RemoteCandidate *cand;
	ListCell   *lc;

	if (may_rescan || cx->parse == NULL || !OidIsValid(cx->contains_func) ||
		cx->parse->commandType != CMD_SELECT || var == NULL || var->varattno <= 0 ||
		!bloom_runtime_canonical_equality(op, list_nth_oid(hj->hashcollations, target->key)) ||
		rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_FOREIGN_TABLE ||
		rte->inh || !remote_has_extension(rte->relid))
		return;
	foreach(lc, cx->candidates)
	{
		RemoteCandidate *c = lfirst(lc);

		if (c->relid == rte->relid && c->attno == var->varattno)
			return;
	}
	memset(&fr, 0, sizeof fr);
	fr.relid = rte->relid;
	(void) find_relation_walker((Node *) cx->parse, &fr);
	if (fr.count != 1 || fr.level->commandType != CMD_SELECT || fr.level->jointree == NULL ||
		!in_inner_position((Node *) fr.level->jointree, fr.rti) ||
		!filters_before_rows_are_kept(fr.level) || !remote_query_is_plain(fs) ||
		!bloom_runtime_remote_names_match(cx, rte->relid, var->varattno, &same_bytes) ||
		(is_text_equality(op) && !same_bytes))
		return;
	cand = palloc0(sizeof(RemoteCandidate));
	cand->relid = rte->relid;
	cand->level = fr.level;
	cand->rti = fr.rti;
	cand->attno = var->varattno;
	cand->type = var->vartype;
	cand->typmod = var->vartypmod;
	cand->collation = var->varcollid;
	cand->placeholder = PLACEHOLDER_BASE + list_length(cx->candidates);
	cand->paramid = -1;
	cx->candidates = lappend(cx->candidates, cand);
}

/* Second planning: the candidate whose placeholder the foreign scan
 * carries for this key, or NULL. */
typedef struct FindPlaceholder
{
	int			placeholder;
} FindPlaceholder;

static bool
find_placeholder_walker(Node *node, FindPlaceholder *fp)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXTERN &&
		((Param *) node)->paramid == fp->placeholder)
		return true;
	return expression_tree_walker(node, find_placeholder_walker, fp);
}

RemoteCandidate *
bloom_runtime_placed_remote(InjectContext *cx, HashJoin *hj, Target *target)
{
	ForeignScan *fs = (ForeignScan *) *target->link;
	RangeTblEntry *rte = rt_fetch(fs->scan.scanrelid, cx->stmt->rtable);
	Var		   *var = remote_key_column(list_nth_oid(hj->hashoperators, target->key), target->expr);
	ListCell   *lc;

	if (var == NULL || rte->rtekind != RTE_RELATION)
		return NULL;
	foreach(lc, cx->candidates)
	{
		RemoteCandidate *c = lfirst(lc);
		FindPlaceholder fp = {c->placeholder};

		if (c->relid == rte->relid && c->attno == var->varattno && c->paramid < 0 &&
			remote_query_is_plain(fs) &&
			(find_placeholder_walker((Node *) fs->fdw_exprs, &fp) ||
			 find_placeholder_walker((Node *) fs->scan.plan.qual, &fp)))
			return c;
	}
	return NULL;
}

/* ---- the second planning: placeholders for the remote filters ---- */

bool
bloom_runtime_is_placeholder(Node *node)
{
	return node != NULL && IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXTERN &&
		((Param *) node)->paramid >= PLACEHOLDER_BASE;
}

/* Whether the query reads, at any level, a foreign table that could take a
 * remote filter. */
static bool
reads_remote_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		ListCell   *lc;

		foreach(lc, ((Query *) node)->rtable)
		{
			RangeTblEntry *rte = lfirst(lc);

			if (rte->rtekind == RTE_RELATION && rte->relkind == RELKIND_FOREIGN_TABLE &&
				remote_has_extension(rte->relid))
				return true;
		}
		return query_tree_walker((Query *) node, reads_remote_walker, context, 0);
	}
	return expression_tree_walker(node, reads_remote_walker, context);
}

bool
bloom_runtime_reads_remote(Query *parse)
{
	return parse->commandType == CMD_SELECT && reads_remote_walker((Node *) parse, NULL);
}

/* WHERE ... AND ($p IS NULL OR bloom_contains($p, key)) for each candidate. */
void
bloom_runtime_add_placeholders(InjectContext *cx)
{
	ListCell   *lc;

	foreach(lc, cx->candidates)
	{
		RemoteCandidate *c = lfirst(lc);
		Param	   *param = (__extension__ makeNode(Param));
		NullTest   *isnull = (__extension__ makeNode(NullTest));
		FuncExpr   *contains;

		param->paramkind = PARAM_EXTERN;
		param->paramid = c->placeholder;
		param->paramtype = cx->bloom_type;
		param->paramtypmod = -1;
		param->paramcollid = InvalidOid;
		param->location = -1;
		isnull->arg = (Expr *) param;
		isnull->nulltesttype = IS_NULL;
		isnull->argisrow = false;
		isnull->location = -1;
		contains = makeFuncExpr(cx->contains_func, BOOLOID,
								list_make2(copyObjectImpl(param),
										   makeVar(c->rti, c->attno, c->type, c->typmod,
												   c->collation, 0)),
								InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
		/* in the WHERE of the query level that names the table */
		c->level->jointree->quals =
			make_and_qual(c->level->jointree->quals,
						  (Node *) makeBoolExpr(OR_EXPR, list_make2(isnull, contains), -1));
	}
}

/* The placeholders: the parameter of their filter, or NULL (no filter). */
static Node *
resolve_mutator(Node *node, InjectContext *cx)
{
	if (node == NULL)
		return NULL;
	if (bloom_runtime_is_placeholder(node))
	{
		ListCell   *lc;

		foreach(lc, cx->candidates)
		{
			RemoteCandidate *c = lfirst(lc);

			if (c->placeholder == ((Param *) node)->paramid)
			{
				Param	   *param;

				if (c->paramid < 0)
					return (Node *) makeNullConst(cx->bloom_type, -1, InvalidOid);
				param = (Param *) copyObjectImpl(node);
				param->paramkind = PARAM_EXEC;
				param->paramid = c->paramid;
				return (Node *) param;
			}
		}
		return node;
	}
	return expression_tree_mutator(node, resolve_mutator, cx);
}

static void
resolve_in_plan(InjectContext *cx, Plan *plan)
{
	ListCell   *lc;

	if (plan == NULL)
		return;
	if (IsA(plan, ForeignScan))
	{
		ForeignScan *fs = (ForeignScan *) plan;

		fs->fdw_exprs = (List *) resolve_mutator((Node *) fs->fdw_exprs, cx);
		fs->fdw_recheck_quals = (List *) resolve_mutator((Node *) fs->fdw_recheck_quals, cx);
		fs->scan.plan.qual = (List *) resolve_mutator((Node *) fs->scan.plan.qual, cx);
	}
	resolve_in_plan(cx, plan->lefttree);
	resolve_in_plan(cx, plan->righttree);
	switch (nodeTag(plan))
	{
		case T_Append:
			foreach(lc, ((Append *) plan)->appendplans)
				resolve_in_plan(cx, lfirst(lc));
			break;
		case T_MergeAppend:
			foreach(lc, ((MergeAppend *) plan)->mergeplans)
				resolve_in_plan(cx, lfirst(lc));
			break;
		case T_SubqueryScan:
			resolve_in_plan(cx, ((SubqueryScan *) plan)->subplan);
			break;
		case T_CustomScan:
			foreach(lc, ((CustomScan *) plan)->custom_plans)
				resolve_in_plan(cx, lfirst(lc));
			break;
		default:
			break;
	}
}

/*
 * Resolve every placeholder of the second plan; false if one is left
 * where it was not expected (then that plan is not used).
 */
bool
bloom_runtime_resolve_placeholders(InjectContext *cx, PlannedStmt *stmt)
{
	ListCell   *lc;
	char	   *text;

	resolve_in_plan(cx, stmt->planTree);
	foreach(lc, stmt->subplans)
		resolve_in_plan(cx, lfirst(lc));
	text = nodeToString(stmt->planTree);
	if (strstr(text, ":paramid 214741") != NULL)
		return false;
	foreach(lc, stmt->subplans)
		if (lfirst(lc) != NULL && strstr(nodeToString(lfirst(lc)), ":paramid 214741") != NULL)
			return false;
	return true;
}
