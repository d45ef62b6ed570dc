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
	assert(sum(3) == 3);                  // want TRUE k-induction:UNKNOWN "k-induction: loop in called function sum" reduce-full:TRUE "k-induction" reduce-thin:TRUE "k-induction" reduce-value:TRUE "k-induction"
	return 0;
}
