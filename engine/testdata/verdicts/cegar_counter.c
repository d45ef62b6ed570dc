// configs: value value-cegar default
// max-states: 100000
// A loop counter irrelevant to the assertion: with full precision the
// value analysis unrolls the loop a million times; CEGAR never tracks i,
// so the loop head covers itself.
#include "../sv.h"

int main(void) {
	int i = 0;
	int flag = 1;
	while (i < 1000000)
		i++;
	assert(flag == 1);                    // want TRUE value:UNKNOWN "state limit 100000" reduce:TRUE
	return 0;
}
