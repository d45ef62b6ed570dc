// A list of lists, both of nondeterministic length (every inner list has
// at least two nodes): nested list abstraction
// (engine/analysis/value/smg_nested.go) folds the outer nodes, each owning
// its own inner list, into one segment whose template is an inner
// segment, and materialises a fresh inner list for every outer node the
// traversal reaches. Writes through one outer node's inner list must not
// reach the others' (the FALSE below). Everything is in main with one
// allocation site per list: function inlining (--reduce full) would give
// each inlined copy of a helper a site of its own, and segments only
// merge blocks of one site.
#include "../sv.h"
#include <stdlib.h>

struct inner { struct inner *next; int data; };
struct outer { struct outer *next; struct outer *prev; struct inner *sub; int tag; };

int main(void) {
	struct outer *head = NULL;
	while (__VERIFIER_nondet_int()) {
		struct outer *o = malloc(sizeof *o);
		if (!o) abort();
		o->tag = 7;
		o->sub = NULL;
		int n = 0;
		while (n < 2 || __VERIFIER_nondet_int()) {
			struct inner *i = malloc(sizeof *i);
			if (!i) abort();
			i->data = 1;
			i->next = o->sub;
			o->sub = i;
			if (n < 2)
				n++;
		}
		o->prev = NULL;
		o->next = head;
		if (head)
			head->prev = o;
		head = o;
	}
	for (struct outer *p = head; p; p = p->next) {
		assert(p->tag == 7);                      // want TRUE
		assert(!p->next || p->next->prev == p);   // want TRUE
		assert(p->sub && p->sub->next);           // want TRUE
		for (struct inner *q = p->sub; q; q = q->next) {
			assert(q->data == 1);                 // want TRUE
			q->data = 2;
		}
	}
	for (struct outer *p = head; p; p = p->next)
		for (struct inner *q = p->sub; q; q = q->next)
			assert(q->data == 2);                 // want TRUE
	if (head && head->next) {
		/* one outer node's inner list only */
		for (struct inner *q = head->sub; q; q = q->next)
			q->data = 3;
		for (struct inner *q = head->next->sub; q; q = q->next)
			assert(q->data == 3);                 // want FALSE
	}
	return 0;
}
