// A list whose data field is set per node after it is built (every node
// gets 3, then the values are checked), and one whose length is counted
// against a nondeterministic bound.
#include "../sv.h"
#include <stdlib.h>

struct node { int data; struct node *next; };

int main(void) {
	struct node *head = malloc(sizeof *head);
	if (!head) abort();
	head->next = NULL;
	head->data = 0;
	while (__VERIFIER_nondet_int()) {
		struct node *n = malloc(sizeof *n);
		if (!n) abort();
		n->next = head;
		n->data = __VERIFIER_nondet_int();
		head = n;
	}
	for (struct node *p = head; p; p = p->next)
		p->data = 3;
	for (struct node *p = head; p; p = p->next)
		assert(p->data == 3);                 // want TRUE
	for (struct node *p = head; p; p = p->next)
		assert(p->data != 3);                 // want FALSE
	return 0;
}
