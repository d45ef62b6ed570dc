// --entry f on a function without a caller: its integer parameters are
// arbitrary inputs (not nonnegative: f is not main).
// entry: f
#include <assert.h>

int f(int x, unsigned char c) {
	assert(x >= 0 || c == 0);             // want FALSE
	assert(c <= 255);                     // want TRUE
	return 0;
}
