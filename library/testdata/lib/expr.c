/* expr.c: an evaluator of expression trees, mutually recursive with a
 * depth bound. */
#include <assert.h>
#include <stddef.h>
#include "ml_expr.h"

static int eval_binary(const struct expr *e, int depth);

/* eval_at: expr_eval starts at depth 0 and eval_binary passes depth + 1
 * only below EXPR_MAX_DEPTH - 1, but eval_binary's own context has any
 * depth (a negative one passes its check) and its only caller is eval_at:
 * needs a precondition. */
static int eval_at(const struct expr *e, int depth)
{
	int v;

	assert(depth >= 0 && depth < EXPR_MAX_DEPTH); // want UNKNOWN
	if (e->op == OP_CONST)
		v = e->value;
	else
		v = eval_binary(e, depth);
	return v;
}

/* eval_binary: a division by a missing or zero right operand is reachable
 * from expr_eval. */
static int eval_binary(const struct expr *e, int depth)
{
	int l = 0, r = 0, v;

	if (depth + 1 >= EXPR_MAX_DEPTH)
		return 0;
	if (e->lhs != NULL)
		l = eval_at(e->lhs, depth + 1);
	if (e->rhs != NULL)
		r = eval_at(e->rhs, depth + 1);
	switch (e->op) {
	case OP_ADD:
		v = l + r;
		break;
	case OP_SUB:
		v = l - r;
		break;
	case OP_MUL:
		v = l * r;
		break;
	case OP_DIV:
		assert(r != 0); // want FALSE
		v = l / r;
		break;
	default:
		v = 0;
		break;
	}
	return v;
}

int expr_eval(const struct expr *e)
{
	return eval_at(e, 0);
}

/* expr_fold_add folds the sum of two constants into a constant node. */
int expr_fold_add(struct expr *e)
{
	int v;

	if (e->op != OP_ADD || e->lhs == NULL || e->rhs == NULL)
		return 0;
	if (e->lhs->op != OP_CONST || e->rhs->op != OP_CONST)
		return 0;
	v = e->lhs->value + e->rhs->value;
	e->op = OP_CONST;
	e->value = v;
	e->lhs = NULL;
	e->rhs = NULL;
	assert(e->op == OP_CONST && e->value == v); // want TRUE
	return 1;
}
