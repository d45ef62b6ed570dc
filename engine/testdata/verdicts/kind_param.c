// configs: k-induction
// main's parameter is nondeterministic: the loop may start from any n,
// and the assertion fails for n == 7 in the first iteration.
#include "../sv.h"

int main(int n) {
	int i = 0;
	while (i < 10) {
		assert(i + n != 7);               // want FALSE
		i++;
	}
	return 0;
}
