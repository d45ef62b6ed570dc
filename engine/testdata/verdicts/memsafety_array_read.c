// Out-of-bounds read of a global array (a[5] of int a[5]), next to an
// assertion that holds on every path that gets there.
// memory: valid-memsafety FALSE "offset 20 of a (20 bytes)"
int a[5] = {1, 2, 3, 4, 5};
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
int main(void) {
  int s = 0;
  for (int i = 0; i < 5; i++)
    s += a[i];
  assert(s == 15); // want TRUE
  for (int i = 0; i <= 5; i++)
    s += a[i]; // violation
  return s;
}
