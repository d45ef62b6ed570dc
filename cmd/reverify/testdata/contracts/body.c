/* Assertions in the body of a function with a contract, verified
   through its contract check (library mode): the reproducer replays the
   check and judges the assertion that fails in the body. */

int get(int *a, unsigned n, unsigned i)
__CPROVER_requires(n >= 1 && n <= 4 && __CPROVER_is_fresh(a, n * sizeof(int)))
__CPROVER_ensures(1)
{
  __CPROVER_assert(i < n, "index in range");
  if (a[0] == 5)
    __CPROVER_assert(0, "five");
  return a[0];
}

/* an ensures clause over a memory query */
int *id(int *p)
__CPROVER_requires(__CPROVER_is_fresh(p, sizeof(int)))
__CPROVER_ensures(__CPROVER_r_ok(__CPROVER_return_value, 2 * sizeof(int)))
{
  return p;
}
