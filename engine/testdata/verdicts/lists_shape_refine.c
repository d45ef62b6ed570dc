// A list of exactly five nodes, counted on the way back. The list
// abstraction at the building loop's head merges three nodes into a
// segment of at least three, which loses the length: the error path
// through a longer list is spurious, and only because of the abstraction
// (value-cegar with every value tracked still takes it). Shape
// refinement (engine/cegar/value_shape.go) raises the chain length that
// the loop heads on the path abstract to six, so the five nodes stay
// concrete. Without it the path was excluded and explored again longer
// and longer until the time limit.
// configs: value-cegar
#include "../sv.h"
#include <stdlib.h>

struct node { int data; struct node *next; };

int main(void) {
	struct node *head = NULL;
	for (int i = 0; i < 5; i++) {
		struct node *n = malloc(sizeof *n);
		if (!n) abort();
		n->data = 0;
		n->next = head;
		head = n;
	}
	int len = 0;
	for (struct node *p = head; p; p = p->next)
		len++;
	assert(len == 5);                     // want TRUE
	return 0;
}
