// configs: symex symex-cegar
// Values through recursive calls: symex-cegar's liveness keeps the
// caller's variables apart from the callee's (one frame per call).
#include "../sv.h"

int depth(int n) {
	if (n <= 0)
		return 0;
	return 1 + depth(n - 1);
}

int main(void) {
	int r = depth(3);
	assert(r == 3);                       // want TRUE
	assert(depth(5) == 4);                // want FALSE
	return 0;
}
