#ifndef POLY_H
#define POLY_H
#include "cbmc.h"
#define N 2
typedef struct { short c[N]; } poly;

/* contracts on declarations, in the header */
void poly_clamp(poly *r)
__contract__(
  requires(memory_no_alias(r, sizeof(poly)))  // want TRUE
  assigns(object_whole(r))
  ensures(forall(k, 0, N, r->c[k] >= 0 && r->c[k] < 100))  // want TRUE
);

int poly_sum(const poly *a)
__contract__(
  requires(memory_no_alias(a, sizeof(poly)))  // want TRUE
  requires(forall(k, 0, N, a->c[k] >= 0 && a->c[k] < 100))  // want TRUE
  assigns()
  ensures(return_value >= 0 && return_value < 100 * N)  // want TRUE
);

/* its ensures claims too much: the check fails */
int poly_first(const poly *a)
__contract__(
  requires(memory_no_alias(a, sizeof(poly)))  // want NOT_CHECKED
  ensures(return_value == 0)  // want FALSE
);

/* the definition names its parameter q: the contract speaks of r */
void poly_zero(poly *r)
__contract__(
  requires(memory_no_alias(r, sizeof(poly)))  // want NOT_CHECKED
  assigns(object_whole(r))
  ensures(r->c[0] == 0 && r->c[N - 1] == 0)  // want TRUE
);
#endif
