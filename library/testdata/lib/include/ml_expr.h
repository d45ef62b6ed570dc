#ifndef ML_EXPR_H
#define ML_EXPR_H

/* Trees deeper than EXPR_MAX_DEPTH evaluate their deep parts to 0. */
#define EXPR_MAX_DEPTH 4

enum expr_op { OP_CONST, OP_ADD, OP_SUB, OP_MUL, OP_DIV };

struct expr {
	enum expr_op op;
	int value;
	struct expr *lhs;
	struct expr *rhs;
};

int expr_eval(const struct expr *e);
int expr_fold_add(struct expr *e);

#endif
