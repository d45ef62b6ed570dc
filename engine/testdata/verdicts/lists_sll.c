// Singly linked lists of nondeterministic length: list abstraction
// (engine/analysis/value/smg.go) makes the loops that build and traverse
// them converge.
#include "../sv.h"
#include <stdlib.h>

struct node { struct node *next; int data; };

int main(void) {
	struct node *head = NULL;
	while (__VERIFIER_nondet_int()) {
		struct node *n = malloc(sizeof *n);
		if (!n) abort();
		n->data = 1;
		n->next = head;
		head = n;
	}
	struct node *p = head;
	while (p) {
		assert(p->data == 1);                 // want TRUE
		p = p->next;
	}
	/* free the list */
	while (head) {
		struct node *n = head->next;
		free(head);
		head = n;
	}
	assert(head == NULL);                     // want TRUE
	return 0;
}
