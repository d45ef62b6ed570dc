// configs: symex symex-cegar
// max-states: 300
// Constraint interpolation (symex-cegar) tracks only what refutes the
// error paths: the counter of a loop with a symbolic bound is never
// tracked inside the loop (full-precision symex unrolls it until it runs
// out of states or time), and a value written through a pointer is kept
// (a write through a pointer may reach any address-taken variable).
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	int y = 1;
	while (x > 0)
		x--;
	assert(y == 1);                       // want TRUE symex:UNKNOWN reduce:TRUE
	int c = __VERIFIER_nondet_int();
	int *pc = &c;
	*pc = 60;
	assert(c == 60);                      // want TRUE symex:UNKNOWN reduce:TRUE
	return 0;
}
