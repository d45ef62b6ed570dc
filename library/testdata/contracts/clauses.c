/* Function contracts, one clause kind at a time, each in a holding and a
   failing version (CBMC's contract language, no macro layer). */

int counter;

/* requires: assumed by the check, checked at every call */
int div_floor(int a, int b)
__CPROVER_requires(b > 0)  // want FALSE
__CPROVER_requires(a >= 0)  // want TRUE
__CPROVER_ensures(__CPROVER_return_value >= 0)  // want TRUE
{
  return a / b;
}

int div_ok(int a)
{
  if (a < 0)
    return 0;
  return div_floor(a, 3);
}

int div_bad(int a, int b)
{
  if (a < 0)
    return 0;
  return div_floor(a, b); /* b may be 0: the requires clause fails here */
}

/* ensures with old: holding and failing */
void bump(int *p)
__CPROVER_requires(__CPROVER_is_fresh(p, sizeof(int)))  // want TRUE
__CPROVER_requires(*p < 1000 && *p > -1000)  // want TRUE
__CPROVER_assigns(*p)
__CPROVER_ensures(*p == __CPROVER_old(*p) + 1)  // want TRUE
__CPROVER_ensures(*p > __CPROVER_old(*p) + 1)  // want FALSE
{
  *p = *p + 1;  // want TRUE
}

int use_bump(void)
{
  int v = 7;
  bump(&v);
  __CPROVER_assert(v == 8, "bump adds one");  // want TRUE
  return v;
}

/* ensures with an implication */
int sign(int x)
__CPROVER_ensures(x > 0 ==> __CPROVER_return_value == 1)  // want TRUE
__CPROVER_ensures(x < 0 ==> __CPROVER_return_value == 1)  // want FALSE
{
  return x > 0 ? 1 : (x < 0 ? -1 : 0);
}

/* assigns: a write through a pointer outside the frame, a global write
   outside it, a helper's write checked too, and a whole object */
void copy_first(int *dst, const int *src, int *other)
__CPROVER_requires(__CPROVER_is_fresh(dst, 2 * sizeof(int)) && __CPROVER_is_fresh(src, 2 * sizeof(int)))  // want NOT_CHECKED
__CPROVER_requires(__CPROVER_is_fresh(other, sizeof(int)))  // want NOT_CHECKED
__CPROVER_assigns(dst[0])
{
  dst[0] = src[0];  // want TRUE
  if (src[1] > 5)
    *other = 1;  // want FALSE
  if (src[1] < -5)
    dst[1] = 0;  // want FALSE
}

static void tick(void) { counter++; }  // want FALSE

void count_twice(int *n)
__CPROVER_requires(__CPROVER_is_fresh(n, sizeof(int)))  // want NOT_CHECKED
__CPROVER_assigns(*n)
{
  *n = 2;  // want TRUE
  tick();
}

void clear(char *buf, unsigned len)
__CPROVER_requires(len <= 4 && __CPROVER_is_fresh(buf, len))  // want NOT_CHECKED
__CPROVER_assigns(__CPROVER_object_whole(buf))
{
  for (unsigned i = 0; i < len; i++)
    buf[i] = 0;  // want TRUE
}

void tail(char *buf, unsigned len)
__CPROVER_requires(len >= 2 && len <= 4 && __CPROVER_is_fresh(buf, len))  // want NOT_CHECKED
__CPROVER_assigns(__CPROVER_object_upto(buf, 1))
{
  buf[0] = 1;  // want TRUE
  buf[1] = 1;  // want FALSE
}

/* no assigns clause: nothing that existed before the call may be written */
void no_frame(int *p, int *q)
__CPROVER_requires(__CPROVER_is_fresh(p, sizeof(int)) && __CPROVER_is_fresh(q, sizeof(int)))  // want NOT_CHECKED
{
  int local = 1;
  int *mine = &local;
  *mine = 2;  // want TRUE
  if (*q > 0)
    *p = local;  // want FALSE
}

/* a contract of a function without parameters */
int zero(void)
__CPROVER_ensures(__CPROVER_return_value == 0)  // want TRUE
{
  return 0;
}

/* is_fresh in an ensures clause: freshness is not checked, so no TRUE
   (this one returns a global's address, which is not fresh) */
int fresh_target;
int *give(void)
__CPROVER_ensures(__CPROVER_is_fresh(__CPROVER_return_value, sizeof(int)))  // want UNKNOWN
{
  return &fresh_target;
}
