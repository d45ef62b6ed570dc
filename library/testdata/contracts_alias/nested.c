/* An is_fresh inside a disjunction of a requires clause: where it is
 * evaluated it gives a fresh object in the check (as CBMC's assumed
 * is_fresh does), and at a call its object must be valid and apart from
 * the fresh objects before it; where the other operand holds, it asks
 * nothing (mlkem-native's keccakf1600x4_xor_bytes: four inputs, all
 * distinct or all the same). */
void xor1(unsigned char *st, const unsigned char *d)
__CPROVER_requires(__CPROVER_is_fresh(st, 4) && __CPROVER_is_fresh(d, 4))
__CPROVER_assigns(__CPROVER_object_upto(st, 4))
{
  for (int i = 0; i < 4; i++)
    st[i] ^= d[i];
}

void xor2(unsigned char *st, const unsigned char *d0, const unsigned char *d1)
__CPROVER_requires(__CPROVER_is_fresh(st, 8) && __CPROVER_is_fresh(d0, 4))
__CPROVER_requires(d0 == d1 || __CPROVER_is_fresh(d1, 4))
__CPROVER_assigns(__CPROVER_object_upto(st, 8))
{
  xor1(st, d0);
  xor1(st + 4, d1);
}

/* the same contract in one clause, the halves in the other order */
void xor2b(unsigned char *st, const unsigned char *d0, const unsigned char *d1)
__CPROVER_requires(__CPROVER_is_fresh(st, 8) && __CPROVER_is_fresh(d0, 4) && (d1 == d0 || __CPROVER_is_fresh(d1, 4)))
__CPROVER_assigns(__CPROVER_object_upto(st, 8))
{
  xor1(st + 4, d1);
  xor1(st, d0);
}

unsigned char same_or_apart(int same)
{
  unsigned char st[8] = {0}, a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  xor2(st, a, same ? a : b);
  return st[0];
}

unsigned char into_state(void)
{
  unsigned char st[12] = {0}, a[4] = {1, 2, 3, 4};
  /* the inputs differ, and the second is the state's second half:
   * bytes 4 to 7 lie in both */
  xor2b(st, a, st + 4);
  return st[0];
}
