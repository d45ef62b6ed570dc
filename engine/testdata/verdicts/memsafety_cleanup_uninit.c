// The path to the end of the program depends on a byte malloc left
// indeterminate (SV-COMP reads it as a nondeterministic value; as in
// bubble_sort_linux-2 and dll_of_dll-2): the concrete replay of the
// candidate takes the SMT model's initial heap bytes
// (interp.ReplayMemoryHeap).
// memory: valid-memcleanup FALSE "still allocated at the end of the program"
#include <stdlib.h>
int main(void) {
  int *p = malloc(2 * sizeof(int));
  if (!p)
    return 0;
  p[0] = 1;
  if (p[1] == 7)
    abort();
  free(p);
  return 0;
}
