extern void reach_error(void);

int main(void) {
  int i = 0;
  int s = 0;
  for (i = 0; i < 1000; i++) {
    s = 1;
  }
  if (i != 1000) {
    reach_error();
  }
  return 0;
}
