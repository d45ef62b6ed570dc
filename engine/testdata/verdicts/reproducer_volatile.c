// A FALSE that depends on a volatile read: the reproducer supplies the
// value (cmd/reverify's TestReproduceCommand runs it).
#include "../sv.h"

volatile int v;

int main(void) {
	if (v == 42)
		assert(0); // want FALSE
	return 0;
}
