/* Loop contracts: invariant on entry and preserved, decreases, a
   quantified invariant over an array; holding and failing versions. */

unsigned count_up(unsigned n)
__CPROVER_requires(n < 1000)  // want NOT_CHECKED
__CPROVER_ensures(__CPROVER_return_value == n)  // want TRUE
{
  unsigned i = 0;
  while (i < n)  // want TRUE
  __CPROVER_loop_invariant(i <= n)  // want TRUE
  __CPROVER_decreases(n - i)  // want TRUE
  {
    i++;
  }
  return i;
}

int bad_entry(unsigned n)
__CPROVER_requires(n < 100)  // want NOT_CHECKED
{
  int k = 0;
  unsigned i = 0;
  while (i < n)  // want FALSE
  __CPROVER_loop_invariant(i <= n && k == (int)i + 1)  // want TRUE
  __CPROVER_decreases(i)  // want FALSE
  {
    k++;
    i++;
  }
  return k;
}

int not_preserved(unsigned n)
__CPROVER_requires(n < 100)  // want NOT_CHECKED
{
  unsigned i = 0;
  int s = 0;
  while (i < n)  // want TRUE
  __CPROVER_loop_invariant(i <= n && s <= 3)  // want FALSE
  __CPROVER_decreases(n - i)  // want TRUE
  {
    s += 2;
    i++;
  }
  return s;
}

void zero2(int *a)
__CPROVER_requires(__CPROVER_is_fresh(a, 2 * sizeof(int)))  // want NOT_CHECKED
__CPROVER_assigns(__CPROVER_object_whole(a))
{
  for (int i = 0; i < 2; i++)  // want TRUE
  __CPROVER_assigns(i, __CPROVER_object_whole(a))
  __CPROVER_loop_invariant(0 <= i && i <= 2 && __CPROVER_forall { int j; (0 <= j && j < i) ==> a[j] == 0 })  // want TRUE
  __CPROVER_decreases(2 - i)  // want TRUE
  {
    a[i] = 0;  // want TRUE
  }
}

void zero2_wrong(int *a)
__CPROVER_requires(__CPROVER_is_fresh(a, 2 * sizeof(int)))  // want NOT_CHECKED
__CPROVER_assigns(__CPROVER_object_whole(a))
{
  for (int i = 0; i < 2; i++)  // want FALSE
  __CPROVER_assigns(i, __CPROVER_object_whole(a))
  __CPROVER_loop_invariant(0 <= i && i <= 2 && __CPROVER_forall { int j; (0 <= j && j < i + 1) ==> a[j] == 0 })  // want FALSE
  {
    a[i] = 1;  // want TRUE
  }
}

/* a pointer the body re-targets: the object it points to where the
   loop is entered is not the one it writes, so no frame is named */
int moved_pointer(void)
{
  int x = 1, other = 5;
  int *q = &x;
  for (int i = 0; i < 1; i++)  // want UNKNOWN
  __CPROVER_loop_invariant(0 <= i && i <= 1)  // want UNKNOWN
  {
    q = &other;
    *q = 7;
  }
  __CPROVER_assert(other == 5, "other unchanged");  // want UNKNOWN
  return other;
}

/* a loop body that calls a function: one that writes only its own
   locals changes nothing the loop's frame must name; one that writes a
   global does, and the loop is not supported */
static int twice(int v)
{
  int r = v;
  r = r + v;
  return r;
}

int sum_twice(void)
{
  int k = 3, s = 0;
  for (int i = 0; i < 4; i++)  // want TRUE
  __CPROVER_loop_invariant(0 <= i && i <= 4)  // want TRUE
  {
    s = twice(i);
  }
  __CPROVER_assert(k == 3, "k untouched");  // want TRUE
  return s;
}

int calls;
static int counted(int v)
{
  calls++;
  return v;
}

int sum_counted(void)
{
  int k = 3, s = 0;
  for (int i = 0; i < 4; i++)  // want UNKNOWN
  __CPROVER_loop_invariant(0 <= i && i <= 4)  // want UNKNOWN
  {
    s = counted(i);
  }
  __CPROVER_assert(k == 3, "k untouched");  // want UNKNOWN
  return s;
}

/* a loop body that calls functions through their contracts: where the
   assigns clause names only what a pointer argument points to, that
   object joins the loop's frame; a global it names does not */
void set_one(int *p)
__CPROVER_requires(__CPROVER_is_fresh(p, sizeof(int)))  // want TRUE
__CPROVER_assigns(*p)
__CPROVER_ensures(*p == 1)  // want TRUE
{
  *p = 1;  // want TRUE
}

int fill_ones(void)
{
  int a[4];
  int k = 3;
  for (int i = 0; i < 4; i++)  // want TRUE
  __CPROVER_loop_invariant(0 <= i && i <= 4)  // want TRUE
  {
    set_one(&a[i]);
  }
  __CPROVER_assert(k == 3, "k untouched");  // want TRUE
  return a[0];
}

int flag;
void set_flag(void)
__CPROVER_assigns(flag)
__CPROVER_ensures(flag == 1)  // want TRUE
{
  flag = 1;  // want TRUE
}

int fill_flag(void)
{
  int k = 3;
  for (int i = 0; i < 4; i++)  // want UNKNOWN
  __CPROVER_loop_invariant(0 <= i && i <= 4)  // want UNKNOWN
  {
    set_flag();
  }
  __CPROVER_assert(k == 3, "k untouched");  // want UNKNOWN
  return k;
}
