// A pointer to a local of a returned frame: valid-deref.
// memory: valid-memsafety FALSE "after its lifetime ended"
int *f(void) {
  int x = 1;
  return &x;
}
int main(void) {
  int *p = f();
  return *p; // violation
}
