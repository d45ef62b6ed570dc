// A list whose nodes hold 1, except the first of at least three, which
// holds 2: abstraction keeps no value the merged nodes disagree on, and
// the counterexample needs a list of three nodes.
#include "../sv.h"
#include <stdlib.h>

struct node { struct node *next; int data; };

int main(void) {
	struct node *head = NULL;
	int len = 0;
	while (__VERIFIER_nondet_int()) {
		struct node *n = malloc(sizeof *n);
		if (!n) abort();
		n->data = 1;
		n->next = head;
		head = n;
	}
	if (head && head->next && head->next->next)
		head->data = 2;
	struct node *p = head;
	while (p) {
		assert(p->data == 1);                 // want FALSE
		p = p->next;
	}
	return 0;
}
