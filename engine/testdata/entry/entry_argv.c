// argv points to strings the environment supplies; they are not modelled
// in counterexamples: an error path that reads them is UNKNOWN, never a
// FALSE the encoder cannot justify. A proof may read them (unknown
// values), and writes through them cannot reach the program's objects.
#include <assert.h>

int g;

int main(int argc, char **argv) {
	g = 0;
	if (argc > 1) {
		argv[1][0] = 'y';
		assert(argv[1][1] != 'x');        // want UNKNOWN "argv"
	}
	assert(g == 0);                       // want TRUE
	return 0;
}
