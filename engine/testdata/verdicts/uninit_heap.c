// Memory from malloc is uninitialised: its bytes may hold anything
// (SV-COMP reads them as nondeterministic values), so a branch on a field
// never written may go either way; a counterexample takes their values
// from the SMT model, and the concrete replay reads the same bytes.
#include "../sv.h"
#include <stdlib.h>
struct node {
	int value;
	struct node *next;
};
int main(void) {
	struct node *n = malloc(sizeof *n);
	if (!n)
		return 0;
	n->value = 1;
	assert(n->value == 1);                // want TRUE
	if (n->next != n)
		assert(n->value == 2);            // want FALSE
	unsigned char *b = malloc(4);
	if (b && b[3] == 200)
		assert(b[0] + b[3] != 300);       // want FALSE
	free(b);
	free(n);
	return 0;
}
