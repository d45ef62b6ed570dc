// Symbolic array indices, decided per site by symbolic execution (the
// explicit analysis cannot bound them): both bounds assumed is TRUE,
// an upper bound only is FALSE (a negative index), an off-by-one upper
// bound is FALSE, and a site after the violations is TRUE.
// memory: sites
extern int __VERIFIER_nondet_int(void);
int g[4];
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 4)
    g[k] = 1; // site: valid-deref TRUE
  int j = __VERIFIER_nondet_int();
  if (j < 4)
    g[j] = 2; // site: valid-deref FALSE "out-of-bounds access of 4 bytes by g[j]"
  int m = __VERIFIER_nondet_int();
  if (m >= 0 && m <= 4)
    g[m] = 3; // site: valid-deref FALSE "out-of-bounds access of 4 bytes by g[m]"
  return g[3]; // site: valid-deref TRUE
}
