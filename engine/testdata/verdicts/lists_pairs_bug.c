// lists_pairs.c with a bug: the even nodes split off are checked against
// 1 (fails on lists of at least two nodes before the 3).
#include "../sv.h"
#include <stdlib.h>

struct node { int h; struct node *n; };

int main(void) {
	struct node *a = malloc(sizeof *a);
	if (!a) abort();
	struct node *p = a;
	int flag = 1;
	while (__VERIFIER_nondet_int()) {
		if (flag) {
			p->h = 1;
			flag = 0;
		} else {
			p->h = 2;
			flag = 1;
		}
		struct node *t = malloc(sizeof *t);
		if (!t) abort();
		p->n = t;
		p = t;
	}
	p->h = 3;
	p->n = NULL;
	struct node *odd = NULL, *even = NULL;
	flag = 1;
	p = a;
	while (p->h != 3) {
		struct node *t = p;
		p = p->n;
		if (flag) {
			t->n = odd;
			odd = t;
		} else {
			t->n = even;
			even = t;
		}
		flag = !flag;
	}
	for (p = odd; p; p = p->n)
		assert(p->h == 1);                // want TRUE
	for (p = even; p; p = p->n)
		assert(p->h == 1);                // want FALSE
	return 0;
}
