// The error path is 24,000 steps over an array: found in a second, its
// SMT check (encoding, then Z3 asserting the formula) takes far longer,
// and must stop at the property's deadline (issue 14: a 23,000-step path
// ran 54 s past a 10 s limit inside the encoder and Z3's assert).
#include <assert.h>
int a[100];
int main(void) {
	for (int i = 0; i < 8000; i++)
		a[i % 100] += i;
	assert(a[3] == 0);
	return 0;
}
