// configs: default value-cegar
// max-states: 3000
// The default configuration is a portfolio: value-cegar cannot prove
// this (x's parity follows y's, which the value analysis does not know,
// so it enumerates x's values up to the state limit); symex-cegar, which
// runs beside it, proves it from the constraint on y % 2.
#include "../sv.h"

int main(void) {
	unsigned int x = 0;
	unsigned int y = __VERIFIER_nondet_uint();
	while (x < 99) {
		if (y % 2 == 0)
			x += 2;
		else
			x++;
	}
	if ((x % 2) != (y % 2))
		reach_error();                    // want TRUE value-cegar:UNKNOWN "state limit 3000"
	return 0;
}
