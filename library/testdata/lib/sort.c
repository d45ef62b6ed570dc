/* sort.c: sorting and searching with comparison callbacks. The
 * comparators' addresses are taken (cmp_lookup, sort_ascending, ...), so
 * a callback parameter is any of them. */
#include <assert.h>
#include <stddef.h>
#include "ml_sort.h"

int cmp_asc(int a, int b)
{
	int r = (a > b) - (a < b);

	return r;
}

int cmp_desc(int a, int b)
{
	int r = (a < b) - (a > b);

	return r;
}

/* cmp_sub is the subtraction comparator: its result is not in -1..1. */
int cmp_sub(int a, int b)
{
	return a - b;
}

/* cmp_by_abs orders by magnitude; -INT_MIN wraps to INT_MIN. */
int cmp_by_abs(int a, int b)
{
	int ka = a < 0 ? -a : a;
	int kb = b < 0 ? -b : b;

	assert(ka >= 0); // want FALSE
	return (ka > kb) - (ka < kb);
}

int_cmp cmp_lookup(int which)
{
	switch (which) {
	case 0:
		return cmp_asc;
	case 1:
		return cmp_desc;
	case 2:
		return cmp_sub;
	default:
		return cmp_by_abs;
	}
}

static void isort(int *v, size_t n, int_cmp cmp)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		int x = v[i];

		j = i;
		while (j > 0 && cmp(v[j - 1], x) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		assert(j <= i && i < n); // want TRUE
		v[j] = x;
	}
}

void sort_ints(int *v, size_t n, int_cmp cmp)
{
	isort(v, n, cmp);
}

/* sort_pair orders two values: every comparator is antisymmetric
 * (cmp(a,b) > 0 implies cmp(b,a) < 0, cmp_sub's wrapped difference
 * too), so after the swap the pair is in order. */
void sort_pair(int *a, int *b, int_cmp cmp)
{
	int t;

	if (cmp(*a, *b) > 0) {
		t = *a;
		*a = *b;
		*b = t;
	}
	assert(cmp(*a, *b) <= 0); // want TRUE
}

void sort_ascending(int *v, size_t n)
{
	sort_ints(v, n, cmp_asc);
}

void sort_descending(int *v, size_t n)
{
	sort_ints(v, n, cmp_desc);
}

/* order_of normalises nothing: cmp_sub(5, 0) is 5. */
int order_of(int a, int b, int_cmp cmp)
{
	int r = cmp(a, b);

	assert(r >= -1 && r <= 1); // want FALSE
	return r;
}

/* search_ints: linear search with the callback; a hit compared equal. */
int search_ints(const int *v, size_t n, int key, int_cmp cmp)
{
	int found = -1;
	int c = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		c = cmp(v[i], key);
		if (c == 0) {
			found = (int)i;
			break;
		}
	}
	assert(found == -1 || (found < (int)n && c == 0)); // want TRUE
	return found;
}

int rec_by_id(const struct rec *x, const struct rec *y)
{
	int r = (x->id > y->id) - (x->id < y->id);

	return r;
}

int rec_by_score(const struct rec *x, const struct rec *y)
{
	int r = (x->score > y->score) - (x->score < y->score);

	return r;
}

/* rec_max returns the index of a greatest record (0 when there is
 * none); both comparators order by a key, so they are transitive. */
size_t rec_max(const struct rec *v, size_t n, rec_cmp cmp)
{
	size_t best = 0;
	size_t i;

	if (n == 0)
		return 0;
	for (i = 1; i < n; i++)
		if (cmp(&v[i], &v[best]) > 0)
			best = i;
	assert(best < n); // want TRUE
	assert(cmp(&v[best], &v[0]) >= 0); // want TRUE
	return best;
}

size_t rec_best_score(const struct rec *v, size_t n)
{
	return rec_max(v, n, rec_by_score);
}

size_t rec_last_id(const struct rec *v, size_t n)
{
	return rec_max(v, n, rec_by_id);
}

/* A callback whose caller here passes only positive values, but whose
 * address is also in a global of external linkage: a caller outside the
 * sources may pass anything, so the callers here do not make its
 * assertion TRUE; it needs a precondition. */
typedef int (*pos_fn)(int);
static int pos_twice(int x);
pos_fn pos_hook = pos_twice;
static int pos_twice(int x)
{
	int y = x * 2;
	assert(x > 0); // want UNKNOWN
	return y;
}
int apply_pos(int v)
{
	pos_fn f = pos_twice;
	if (v <= 0 || v > 100)
		return 0;
	return f(v);
}
