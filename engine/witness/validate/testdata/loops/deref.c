extern void reach_error(void);

int main(void) {
  int a = 0;
  int *p = &a;
  int i = 0;
  while (i < 10) {
    i++;
  }
  if (*p != 0) {
    reach_error();
  }
  return 0;
}
