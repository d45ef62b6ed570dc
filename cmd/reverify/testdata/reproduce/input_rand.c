// rand, random, time and clock are inputs: the reproducer defines them
// to return the counterexample's values, time storing through its
// argument.
#include <assert.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
	srand((unsigned)time(NULL));
	int r = rand();
	time_t t;
	time(&t);
	if (t == 86400 && clock() == 7)
		assert(r != 12345 || random() != 99); // want FALSE
	return 0;
}
