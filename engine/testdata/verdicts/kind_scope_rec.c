// configs: k-induction
// Outside k-induction's scope: recursion is UNKNOWN with its position,
// never TRUE, although the assertion holds.
#include "../sv.h"

int fact(int n) {
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

int main(void) {
	assert(fact(3) == 6);                 // want TRUE k-induction:UNKNOWN "recursion at"
	return 0;
}
