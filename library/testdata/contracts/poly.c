#include "poly.h"

void poly_clamp(poly *r)
{
  for (unsigned i = 0; i < N; i++)  // want TRUE
  __loop__(
    assigns(i, object_whole(r))
    invariant(i <= N && forall(k, 0, i, r->c[k] >= 0 && r->c[k] < 100))  // want TRUE
    decreases(N - i))  // want TRUE
  {
    short v = r->c[i];
    if (v < 0) v = 0;
    if (v > 99) v = 99;
    r->c[i] = v;  // want TRUE
  }
}

int poly_sum(const poly *a)
{
  int s = 0;
  for (unsigned i = 0; i < N; i++)  // want TRUE
  __loop__(
    invariant(i <= N && s >= 0 && s <= 99 * (int)i)  // want TRUE
    decreases(N - i))  // want TRUE
  {
    s += a->c[i];
  }
  return s;
}

int poly_first(const poly *a)
{
  return a->c[0];
}

/* uses the contracts of poly_clamp and poly_sum, not their bodies */
int poly_api(poly *p)
{
  poly_clamp(p);
  int s = poly_sum(p);
  __CPROVER_assert(s < 100 * N, "sum bounded");  // want TRUE
  __CPROVER_assert(s < 10, "sum small");  // want FALSE
  return s;
}

void poly_zero(poly *q)
{
  q->c[0] = 0;  // want TRUE
  q->c[N - 1] = 0;  // want TRUE
}
