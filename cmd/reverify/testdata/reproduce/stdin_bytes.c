// Standard input read byte by byte: the reproducer pipes the
// counterexample's bytes (a NUL, 255 and a '%', which printf must not
// take for a conversion) into the run, where the C library's getchar,
// getc and fgetc read them.
#include <assert.h>
#include <stdio.h>

int main(void) {
	int a = getchar();
	int b = getc(stdin);
	int c = fgetc(stdin);
	if (a == 0 && b == 255 && c == '%')
		assert(0); // want FALSE
	return 0;
}
