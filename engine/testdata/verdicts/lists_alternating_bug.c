// lists_alternating.c with a bug: a node holding 2 may get the tag 8 (a
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
	int flag = 1;
	while (__VERIFIER_nondet_int()) {
		p->tag = 7;
		if (flag) {
			p->data = 1;
		} else {
			p->data = 2;
			if (__VERIFIER_nondet_int())
				p->tag = 8;
		}
		flag = !flag;
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
