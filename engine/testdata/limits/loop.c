// A long loop over an array: no configuration decides it within a
// couple of seconds, and the property must stop at its deadline.
#include <assert.h>
int a[100];
int main(void) {
	for (int i = 0; i < 100000; i++)
		a[i % 100] += i;
	assert(a[3] != 12345);
	return 0;
}
