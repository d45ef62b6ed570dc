// A counterexample with more than 16 million arguments (1 << 24): no reproducer
// passes that many, and results.json says so.
#include <assert.h>

int main(int argc, char **argv) {
	if (argc > 20000000)
		assert(argc < 20000000); // want FALSE
	return 0;
}
