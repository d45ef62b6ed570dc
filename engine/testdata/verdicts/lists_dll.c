// Doubly linked list of nondeterministic length, built at the front,
// traversed forwards checking the data and the back links.
#include "../sv.h"
#include <stdlib.h>

struct dnode { struct dnode *next; struct dnode *prev; int data; };

int main(void) {
	struct dnode *head = NULL;
	while (__VERIFIER_nondet_int()) {
		struct dnode *n = malloc(sizeof *n);
		if (!n) abort();
		n->data = 7;
		n->next = head;
		n->prev = NULL;
		if (head)
			head->prev = n;
		head = n;
	}
	struct dnode *p = head;
	while (p) {
		assert(p->data == 7);                 // want TRUE
		if (p->next)
			assert(p->next->prev == p);       // want TRUE
		p = p->next;
	}
	return 0;
}
