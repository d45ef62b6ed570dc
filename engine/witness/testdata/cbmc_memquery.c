// CBMC's dialect with memory queries and a quantifier
// (TestReproducerCBMCMemoryQueries): inputs n, m.
extern int __VERIFIER_nondet_int(void);

static char area[8] = {1, 1, 1, 1, 1, 1, 1, 1};

int zeroed(const char *p, int len)
{
  return __CPROVER_r_ok(p, len) && __CPROVER_forall { int i; (i >= 0 && i < len) ==> p[i] == 0 };
}

void clear(char *p, int n)
{
  __CPROVER_precondition(__CPROVER_w_ok(p, n), "n bytes are writable");
  for (int i = 0; i < n; i++)
    p[i] = 0;
}

int main(void)
{
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  __CPROVER_assume(n >= 0 && n <= 16 && m >= 0 && m <= 8);
  clear(area, n);
  __CPROVER_assert(zeroed(area, m < n ? m : n), "the cleared prefix is zeroed");
  __CPROVER_assert(zeroed(area, m), "m bytes are zeroed");
  return 0;
}
