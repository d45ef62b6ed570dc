// A binary tree grown at random leaves: list abstraction cannot fold it
// (branching blocks of one allocation site), so the loop never converges;
// the UNKNOWN says why (engine/analysis/value/smg_nested.go, noteTrees).
// max-states: 3000
#include "../sv.h"
#include <stdlib.h>

struct tree { struct tree *left, *right; int v; };

int main(void) {
	struct tree *root = malloc(sizeof *root);
	if (!root) abort();
	root->left = root->right = NULL;
	root->v = 1;
	while (__VERIFIER_nondet_int()) {
		struct tree *n = root;
		while (n->left && n->right)
			n = __VERIFIER_nondet_int() ? n->left : n->right;
		struct tree *c = malloc(sizeof *c);
		if (!c) abort();
		c->left = c->right = NULL;
		c->v = 1;
		if (!n->left)
			n->left = c;
		else
			n->right = c;
	}
	assert(root->v == 1);   // want UNKNOWN "heap shape not abstracted: tree of blocks allocated at"
	return 0;
}
