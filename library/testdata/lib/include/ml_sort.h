#ifndef ML_SORT_H
#define ML_SORT_H

#include <stddef.h>

typedef int (*int_cmp)(int a, int b);

struct rec {
	int id;
	int score;
};

typedef int (*rec_cmp)(const struct rec *x, const struct rec *y);

int cmp_asc(int a, int b);
int cmp_desc(int a, int b);
int cmp_sub(int a, int b);
int cmp_by_abs(int a, int b);
int_cmp cmp_lookup(int which);

void sort_ints(int *v, size_t n, int_cmp cmp);
void sort_ascending(int *v, size_t n);
void sort_descending(int *v, size_t n);
void sort_pair(int *a, int *b, int_cmp cmp);
int order_of(int a, int b, int_cmp cmp);
int search_ints(const int *v, size_t n, int key, int_cmp cmp);

int rec_by_id(const struct rec *x, const struct rec *y);
int rec_by_score(const struct rec *x, const struct rec *y);
size_t rec_max(const struct rec *v, size_t n, rec_cmp cmp);
size_t rec_best_score(const struct rec *v, size_t n);
size_t rec_last_id(const struct rec *v, size_t n);

#endif
