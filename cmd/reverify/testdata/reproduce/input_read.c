// read is an input on any descriptor (a pipe may give any bytes, and
// fewer than asked for): the reproducer defines it to return the
// counterexample's counts and store its bytes.
#include <assert.h>
#include <unistd.h>

int main(void) {
	char head[4] = {0, 0, 0, 0};
	ssize_t n = read(STDIN_FILENO, head, sizeof head);
	if (n >= 2 && head[0] == 'G' && head[1] == 'o') {
		char rest[2];
		assert(read(3, rest, 2) != 1 || rest[0] != '!'); // want FALSE
	}
	return 0;
}
