// main with a third parameter, the environment (envp, named otherwise
// here): the reproducer passes the counterexample's argc, an argv of as
// many strings and the real environment.
#include <assert.h>

static int twice(int x) { return 2 * x; }

int main(int argc, char *argv[], char *environment[]) {
	if (argc >= 2 && argc <= 9)
		assert(twice(argc) != 10); // want FALSE
	return 0;
}
