extern void reach_error(void);

int count(int n) {
  int i = 0;
  while (i < n) {
    i++;
  }
  return i;
}

int main(void) {
  int r = count(10);
  if (r != 10) {
    reach_error();
  }
  return 0;
}
