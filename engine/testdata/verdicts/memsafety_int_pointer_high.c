// The boundary of memsafety_int_pointer.c: an integer of 4096 or more
// may be the address of an object of a real execution, so the read
// through the pointer is neither proved valid nor confirmed invalid.
// memory: valid-memsafety UNKNOWN "unknown pointer in *p"
extern unsigned long __VERIFIER_nondet_ulong(void);
int main(void) {
  unsigned long v = __VERIFIER_nondet_ulong();
  if (v < 4096)
    return 0;
  int *p = (int *)v;
  return *p;
}
