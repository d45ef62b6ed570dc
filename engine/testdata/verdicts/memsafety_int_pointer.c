// A pointer made of a nondeterministic integer (SV-COMP's list-ext_2):
// an integer below 4096 addresses no object (the zero page, unmapped on
// Linux; smt.EncodeOptions.ZeroPagePointers), so the read through the
// pointer is invalid for the input 1, say.
// memory: valid-memsafety FALSE "unknown pointer in *p, and an execution of the path makes it invalid"
extern unsigned long __VERIFIER_nondet_ulong(void);
int main(void) {
  int *p = (int *)__VERIFIER_nondet_ulong();
  if (!p)
    return 0;
  return *p;
}
