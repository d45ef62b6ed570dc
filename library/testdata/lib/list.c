/* list.c: singly linked lists, traversed at most LIST_MAX nodes deep. */
#include <assert.h>
#include <stddef.h>
#include "ml_list.h"

size_t list_length(const struct node *head)
{
	size_t count = 0;
	const struct node *n;

	for (n = head; n != NULL && count < LIST_MAX; n = n->next)
		count++;
	assert(count <= LIST_MAX); // want TRUE
	return count;
}

/* list_find returns the first node holding key among the first LIST_MAX,
 * or NULL. */
const struct node *list_find(const struct node *head, int key)
{
	const struct node *n = head;
	size_t steps;

	for (steps = 0; n != NULL && steps < LIST_MAX; steps++) {
		if (n->value == key)
			break;
		n = n->next;
	}
	if (steps == LIST_MAX)
		return NULL;
	assert(n == NULL || n->value == key); // want TRUE
	return n;
}

int list_min(const struct node *head)
{
	int m = head->value;
	const struct node *n;
	size_t steps = 0;

	for (n = head->next; n != NULL && steps < LIST_MAX; n = n->next) {
		if (n->value < m)
			m = n->value;
		steps++;
	}
	assert(m <= head->value); // want TRUE
	return m;
}

void list_push_front(struct list *l, struct node *n)
{
	n->next = l->head;
	l->head = n;
	l->len++;
	assert(l->head == n); // want TRUE
}

/* list_pop_front trusts the cached length: a list whose len is 0 while
 * head is set (the caller's struct is inconsistent) breaks it. */
struct node *list_pop_front(struct list *l)
{
	struct node *n = l->head;

	if (n == NULL)
		return NULL;
	l->head = n->next;
	n->next = NULL;
	assert(l->len > 0); // want FALSE
	l->len--;
	return n;
}

static struct node *last_node(struct node *head)
{
	struct node *n = head;
	size_t steps = 0;

	while (n->next != NULL && steps < LIST_MAX) {
		n = n->next;
		steps++;
	}
	return n;
}

void list_append(struct list *l, struct node *nn)
{
	struct node *tail;

	nn->next = NULL;
	if (l->head == NULL) {
		l->head = nn;
	} else {
		tail = last_node(l->head);
		tail->next = nn;
	}
	l->len++;
	assert(l->head != NULL); // want TRUE
}

/* visit and sum_from are mutually recursive; depth stays in
 * 0..LIST_MAX-1 from list_sum_recursive, but visit's own context and
 * sum_from's (any depth) violate the assertion, and the escalation from
 * sum_from meets the recursion back into visit: needs a precondition. */
static int sum_from(const struct node *n, int depth);

static int visit(const struct node *n, int depth)
{
	int v;

	assert(depth >= 0 && depth < LIST_MAX); // want UNKNOWN
	v = n->value;
	if (n->next != NULL && depth + 1 < LIST_MAX)
		v += sum_from(n->next, depth + 1);
	return v;
}

static int sum_from(const struct node *n, int depth)
{
	int s;

	if (n == NULL)
		return 0;
	s = visit(n, depth);
	return s;
}

int list_sum_recursive(const struct node *head)
{
	return sum_from(head, 0);
}
