extern void reach_error(void);

int main(int argc, char **argv) {
  int i = 0;
  while (i < 10) {
    i++;
  }
  if (argv == 0 && i != 10) {
    reach_error();
  }
  return 0;
}
