// A list of 1, 2, 1, 2, … ended by 3, checked node by node (SV-COMP's
// alternating_list, with the check of a list split into its odd and
// even nodes as in splice): no two neighbours are equal, so segments of
// equal blocks never form; pairs of blocks with data (1, 2) become
// segments of pairs (value/smg_period.go) and the building loop
// converges.
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
	flag = 1;
	for (p = a; p->h != 3; p = p->n) {
		if (flag)
			assert(p->h == 1);            // want TRUE
		else
			assert(p->h == 2);            // want TRUE
		flag = !flag;
	}
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
		assert(p->h == 2);                // want TRUE
	return 0;
}
