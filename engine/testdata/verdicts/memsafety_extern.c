// Adversarial bodiless function: consume may free its argument (or read
// beyond it), so neither the later write nor the free can be proved
// valid — and nothing is known to fail: UNKNOWN, never TRUE.
// memory: valid-memsafety UNKNOWN "consume may access memory"
// memory: valid-memcleanup UNKNOWN "unmodelled consume"
#include <stdlib.h>
void consume(int *p);
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p)
    return 0;
  consume(p);
  *p = 1;
  free(p);
  return 0;
}
