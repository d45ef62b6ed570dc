void add_into(int *dst, const int *src)
__CPROVER_requires(__CPROVER_is_fresh(dst, sizeof(int)) && __CPROVER_is_fresh(src, sizeof(int)))
__CPROVER_requires(*src >= 0 && *src < 100 && *dst >= 0 && *dst < 100)
__CPROVER_assigns(*dst)
__CPROVER_ensures(*dst == __CPROVER_old(*dst) + *src)
{
  *dst = *dst + *src;
}

int twice(int k)
{
  int a = 3, b = 4;
  add_into(&a, &b);
  __CPROVER_assert(a == 7, "separate");
  add_into(&a, &a);
  __CPROVER_assert(a == 14, "aliased");
  return a;
}
