// A list whose nodes cycle through the data values 1, 2, 3, 1, 2, 3, …
// and all carry the tag 7; only the tags are checked. With every heap
// value tracked (value) no two neighbours are equal, nor two neighbouring
// pairs, and the building loop never converges; value-cegar learns that
// the tag and the link fields are needed, not the data (heap-value
// precision by field, value/smg_refine.go), so the blocks merge into a
// list segment.
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
		if (k == 0)
			p->data = 1;
		else if (k == 1)
			p->data = 2;
		else
			p->data = 3;
		k = k == 2 ? 0 : k + 1;
		p->tag = 7;
		p->next = malloc(sizeof *p);
		if (!p->next) abort();
		p = p->next;
	}
	p->data = 3;
	p->tag = 7;
	p->next = NULL;
	for (p = head; p; p = p->next)
		assert(p->tag == 7);              // want TRUE value:UNKNOWN "state limit 5000"
	return 0;
}
