// A list whose nodes each own a child that points back to its parent
// (the shape of SV-COMP's tree-3 without its nondeterministic values):
// nested list abstraction keeps the back pointer as the owner mark of the
// template, so every materialised child points to its own parent.
#include "../sv.h"
#include <stdlib.h>

struct node { struct node *next; struct node *child; struct node *parent; int leaf; };

int main(void) {
	struct node *head = NULL;
	while (__VERIFIER_nondet_int()) {
		struct node *n = malloc(sizeof *n);
		if (!n) abort();
		n->next = head;
		n->leaf = 0;
		n->parent = NULL;
		head = n;
	}
	for (struct node *p = head; p; p = p->next) {
		struct node *c = malloc(sizeof *c);
		if (!c) abort();
		c->next = NULL;
		c->child = NULL;
		c->leaf = 1;
		c->parent = p;
		p->child = c;
	}
	for (struct node *p = head; p; p = p->next) {
		assert(p->child->parent == p);            // want TRUE
		assert(p->child->leaf == 1);              // want TRUE
		assert(p->leaf == 0);                     // want TRUE
	}
	if (head && head->next)
		assert(head->next->child->parent == head); // want FALSE
	return 0;
}
