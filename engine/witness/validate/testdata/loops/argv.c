extern void reach_error(void);

int main(int argc, char **argv) {
  int i = 0;
  while (i < 1000) {
    i++;
  }
  if (i != 1000) {
    reach_error();
  }
  return 0;
}
