#ifndef ML_LIST_H
#define ML_LIST_H

#include <stddef.h>

/* Traversals stop after LIST_MAX nodes. */
#define LIST_MAX 8

struct node {
	int value;
	struct node *next;
};

/* A list with a cached length. */
struct list {
	struct node *head;
	size_t len;
};

size_t list_length(const struct node *head);
const struct node *list_find(const struct node *head, int key);
int list_min(const struct node *head);
void list_push_front(struct list *l, struct node *n);
struct node *list_pop_front(struct list *l);
void list_append(struct list *l, struct node *nn);
int list_sum_recursive(const struct node *head);

#endif
