// getenv of a literal name is an input: the reproducer defines getenv
// to return the counterexample's values (NULL or the string) for the
// names it reads, and the real environment for any other name (the C
// runtime's own calls).
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
	const char *mode = getenv("MODE");
	if (mode && strcmp(mode, "fast") == 0)
		assert(getenv("LEVEL") == 0); // want FALSE
	const char *user = getenv("REVERIFY_USER");
	if (!user)
		assert(mode != 0); // want FALSE
	return 0;
}
