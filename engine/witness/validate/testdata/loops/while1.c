extern void reach_error(void);

int main(void) {
  int i = 0;
  while (1) {
    if (i >= 10) {
      break;
    }
    i++;
  }
  if (i != 10) {
    reach_error();
  }
  return 0;
}
