// A list of lists freed inner lists first, then the outer list (as
// SV-COMP's dll_of_dll tasks do): nested list abstraction makes both
// loops converge; the outer nodes keep their (dangling) inner pointers,
// which are then reset.
#include "../sv.h"
#include <stdlib.h>

struct inner { struct inner *next; };
struct outer { struct outer *next; struct inner *sub; };

int main(void) {
	struct outer *head = NULL;
	while (__VERIFIER_nondet_int()) {
		struct outer *o = malloc(sizeof *o);
		if (!o) abort();
		o->sub = NULL;
		int n = 0;
		while (n < 2 || __VERIFIER_nondet_int()) {
			struct inner *i = malloc(sizeof *i);
			if (!i) abort();
			i->next = o->sub;
			o->sub = i;
			if (n < 2)
				n++;
		}
		o->next = head;
		head = o;
	}
	for (struct outer *p = head; p; p = p->next) {
		struct inner *q = p->sub;
		while (q) {
			struct inner *n = q->next;
			free(q);
			q = n;
		}
	}
	for (struct outer *p = head; p; p = p->next)
		assert(p->sub != NULL);                   // want TRUE
	for (struct outer *p = head; p; p = p->next)
		p->sub = NULL;
	for (struct outer *p = head; p; p = p->next)
		assert(p->sub == NULL);                   // want TRUE
	while (head) {
		struct outer *n = head->next;
		free(head);
		head = n;
	}
	assert(head == NULL);                         // want TRUE
	return 0;
}
