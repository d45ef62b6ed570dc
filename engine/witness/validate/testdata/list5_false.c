// list5.c with an off-by-one: the sum is 5, not 4.
// loop through pointers: segments from a loop invariant cannot read the
// nodes, a base case that covers every execution can.
#include <stdlib.h>
extern void reach_error(void);

struct node {
	struct node *next;
	int data;
};

int main(void) {
	struct node *head = 0;
	int len = 5;
	while (len > 0) {
		struct node *n = malloc(sizeof(struct node));
		if (!n)
			return 0;
		n->next = head;
		n->data = 1;
		head = n;
		len--;
	}
	struct node *p = head;
	int sum = 0;
	do {
		if (p->data != 1)
			reach_error();
		sum += p->data;
		p = p->next;
	} while (p);
	if (sum != 4)
		reach_error();
	return 0;
}
