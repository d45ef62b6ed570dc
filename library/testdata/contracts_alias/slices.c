/* Fresh objects of a requires clause at a call: disjoint byte ranges of
 * one object satisfy it (rows of an array, fields of a struct);
 * overlapping ranges do not. */
struct pair {
  int a[2];
  int b[2];
};

void add2(int *dst, const int *src)
__CPROVER_requires(__CPROVER_is_fresh(dst, 2 * sizeof(int)) && __CPROVER_is_fresh(src, 2 * sizeof(int)))
__CPROVER_requires(src[0] >= 0 && src[0] < 100 && src[1] >= 0 && src[1] < 100)
__CPROVER_requires(dst[0] >= 0 && dst[0] < 100 && dst[1] >= 0 && dst[1] < 100)
__CPROVER_assigns(__CPROVER_object_upto(dst, 2 * sizeof(int)))
__CPROVER_ensures(dst[0] == __CPROVER_old(dst[0]) + src[0] && dst[1] == __CPROVER_old(dst[1]) + src[1])
{
  dst[0] = dst[0] + src[0];
  dst[1] = dst[1] + src[1];
}

void shift2(int *dst, const int *src)
__CPROVER_requires(__CPROVER_is_fresh(dst, 2 * sizeof(int)) && __CPROVER_is_fresh(src, 2 * sizeof(int)))
__CPROVER_assigns(__CPROVER_object_upto(dst, 2 * sizeof(int)))
__CPROVER_ensures(dst[0] == src[0] && dst[1] == src[1])
{
  dst[0] = src[0];
  dst[1] = src[1];
}

/* The check's fresh objects stand for what a caller may pass: two
 * slices of one array, the second just after the first. So the body's
 * test dst + 2 == src may hold, and the ensures clause is not proved. */
void mark(int *dst, const int *src)
__CPROVER_requires(__CPROVER_is_fresh(dst, 2 * sizeof(int)) && __CPROVER_is_fresh(src, 2 * sizeof(int)))
__CPROVER_assigns(*dst)
__CPROVER_ensures(*dst == 1)
{
  *dst = dst + 2 == src ? 2 : 1;
}

int rows(void)
{
  int v[4] = {1, 2, 3, 4};
  add2(&v[0], &v[2]);
  __CPROVER_assert(v[0] == 4 && v[1] == 6, "rows");
  struct pair p = {{1, 1}, {2, 2}};
  add2(p.b, p.a);
  __CPROVER_assert(p.b[0] == 3 && p.b[1] == 3, "fields");
  mark(&v[0], &v[2]);
  return v[0];
}

int overlapping(void)
{
  int v[4] = {1, 2, 3, 4};
  shift2(&v[1], &v[0]);
  return v[3];
}
