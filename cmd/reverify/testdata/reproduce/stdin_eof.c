// Reads standard input to its end: the counterexample's EOF ends the
// bytes the reproducer feeds, and a read after it is EOF again (the
// end-of-file indicator).
#include <assert.h>
#include <stdio.h>

int main(void) {
	int n = 0, c;
	while ((c = getchar()) != EOF) {
		if (c == '\'')
			n += 10;
		n++;
		if (n > 40)
			return 0;
	}
	if (getchar() != EOF)
		return 1;
	assert(n != 12); // want FALSE
	return 0;
}
