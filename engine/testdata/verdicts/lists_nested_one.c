// A list of lists whose inner lists have one node or more: an inner list
// of a single node and an inner segment have one shape (the node is a
// segment of exactly one, engine/analysis/value/smg_nested.go), so the
// outer nodes fold into one segment whatever their inner lengths.
#include "../sv.h"
#include <stdlib.h>

struct inner { struct inner *next; int data; };
struct outer { struct outer *next; struct inner *sub; };

int main(void) {
	struct outer *head = NULL;
	while (__VERIFIER_nondet_int()) {
		struct outer *o = malloc(sizeof *o);
		if (!o) abort();
		o->sub = NULL;
		do {
			struct inner *i = malloc(sizeof *i);
			if (!i) abort();
			i->data = 1;
			i->next = o->sub;
			o->sub = i;
		} while (__VERIFIER_nondet_int());
		o->next = head;
		head = o;
	}
	for (struct outer *p = head; p; p = p->next) {
		assert(p->sub != NULL);                   // want TRUE
		for (struct inner *q = p->sub; q; q = q->next) {
			assert(q->data == 1);                 // want TRUE
			q->data = 2;
		}
	}
	for (struct outer *p = head; p; p = p->next)
		for (struct inner *q = p->sub; q; q = q->next)
			assert(q->data == 2 && q->next == NULL);  // want FALSE
	return 0;
}
