// x's lifetime ends with its block, so *p reads a dead object (SV-COMP's
// scopes tasks expect valid-deref). The CFA has no block ends: accesses
// through pointers to locals declared in nested blocks are never proved.
// memory: valid-memsafety UNKNOWN "block lifetimes are not modelled"
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = 0;
  if (__VERIFIER_nondet_int()) {
    int x = 5;
    p = &x;
  }
  if (p)
    return *p;
  return 0;
}
