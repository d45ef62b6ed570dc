// lists_heapfields.c with a bug: a node holding 2 may get the tag 8 (a
// list of at least two nodes), so the check of the tags fails.
// configs: value-cegar value
// max-states: 5000
#include "../sv.h"
#include <stdlib.h>

struct node { int data; int tag; struct node *next; };

int main(void) {
	struct node *head = malloc(sizeof *head);
	if (!head) abort();
	struct node *p = head;
	int k = 0;
	while (__VERIFIER_nondet_int()) {
		p->tag = 7;
		if (k == 0) {
			p->data = 1;
		} else if (k == 1) {
			p->data = 2;
			if (__VERIFIER_nondet_int())
				p->tag = 8;
		} else {
			p->data = 3;
		}
		k = k == 2 ? 0 : k + 1;
		p->next = malloc(sizeof *p);
		if (!p->next) abort();
		p = p->next;
	}
	p->data = 3;
	p->tag = 7;
	p->next = NULL;
	for (p = head; p; p = p->next)
		assert(p->tag == 7);              // want FALSE
	return 0;
}
