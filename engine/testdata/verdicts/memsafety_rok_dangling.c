// A pointer to a local of a frame that was left: in memory mode the value
// analysis knows the object is dead, so __CPROVER_r_ok is 0 and the
// guarded write never happens (TRUE); were r_ok taken as 1, the write
// would be a dangling access (FALSE).
// entry: harness
// memory: valid-memsafety TRUE
char *f(void) {
  char b[4];
  char *q = b;
  return q;
}
void harness(void) {
  char *p = f();
  if (__CPROVER_r_ok(p, 1))
    p[0] = 1; // not reached
}

int main(void) { return 0; } // other tests of testdata/verdicts start at main
