// configs: value value-cegar predicate-cegar bmc default
// fscanf on stdin is scanf (C11 7.21.6.4): both read the one standard
// input, so a conversion that fails in one fails at once in the other,
// and the end of the input stays ended for both. fscanf on any other
// stream is a call of an unmodelled function: what it stores and
// returns is unknown. inputs_gcc_test.go runs it with gcc on given input.
#include <stdio.h>
#include "../sv.h"

int main(void) {
	int a = 7, b = 8;
	int r = fscanf(stdin, "%d", &a);
	int s = scanf("%d", &b);
	assert(r >= 1 || a == 7);                  // want TRUE
	assert(!(r == 0 && s != 0));               // want TRUE
	assert(!(r == EOF && s != EOF));           // want TRUE
	assert(!(r == 1 && s == 1 && a == 40 && b == -2)); // want FALSE
	int c = 5;
	if (fscanf(stderr, "%d", &c) == 1)
		assert(c == 5);                        // want UNKNOWN
	return 0;
}
