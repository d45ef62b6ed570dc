// configs: k-induction
// Outside k-induction's scope: a loop in a called function. Under
// --reduce full, sum is inlined (engine/reduce/inline.go): the loop is in
// main, which k-induction proves.
#include "../sv.h"

int sum(int n) {
	int s = 0;
	for (int i = 0; i < n; i++)
		s++;
	return s;
}

int main(void) {
	assert(sum(3) == 3);                  // want TRUE k-induction:UNKNOWN "loop in called function sum" reduce-full:TRUE "proved at k=" reduce-thin:TRUE "proved at k=" reduce-value:TRUE "proved at k="
	return 0;
}
