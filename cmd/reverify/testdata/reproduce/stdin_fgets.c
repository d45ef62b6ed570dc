// Reads a line with fgets, a block with fread: the reproducer feeds the
// bytes both read, in read order, and the C library's functions consume
// them as the models do (fgets stops after the newline).
#include <assert.h>
#include <stdio.h>

int main(void) {
	char line[4];
	char block[2];
	if (!fgets(line, sizeof line, stdin) || line[0] != 'g' || line[1] != '\n')
		return 0;
	if (fread(block, 1, sizeof block, stdin) != 2 || block[0] != '4')
		return 0;
	assert(block[1] != '2'); // want FALSE
	return 0;
}
