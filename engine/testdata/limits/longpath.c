// The error path is 120,000 steps over an array: found in a fraction of
// a second, its SMT check (encoding, then Z3 asserting the formula)
// takes seconds, and must stop at the property's deadline (a 23,000-step
// path once ran 54 s past a 10 s limit inside the encoder and Z3's
// assert; with 8,000 iterations the check now ends within the limit).
#include <assert.h>
int a[100];
int main(void) {
	for (int i = 0; i < 40000; i++)
		a[i % 100] += i;
	assert(a[3] == 0);
	return 0;
}
