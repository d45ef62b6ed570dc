// configs: value value-cegar default
// fgets(buf, n, stdin) reads bytes of standard input into buf until n-1
// are read, a newline is read (and kept) or EOF, then stores a NUL and
// returns buf; EOF before any byte returns NULL and leaves buf as it was
// (C11 7.21.7.2); n = 1 reads nothing and stores the NUL (glibc).
// fread(buf, 1, n, stdin) reads up to n bytes, fewer only at EOF, and
// returns their number (C11 7.21.8.1). Both read the bytes getchar
// reads, from the one stream with its one end-of-file indicator.
// (symex-cegar does not finish line 24 in two minutes, predicate-cegar takes one.)
#include "../sv.h"
#include <stdio.h>
#include <string.h>

int main(void) {
	char buf[6];
	buf[0] = 'z';
	char *p = fgets(buf, sizeof buf, stdin);
	if (p == NULL) {
		assert(buf[0] == 'z');                      // want TRUE
		assert(getchar() == EOF);                   // want TRUE
		return 0;
	}
	assert(p == buf);                               // want TRUE
	assert(strlen(buf) <= 5);                       // want TRUE
	assert(buf[0] != '\n' || buf[1] == 0);          // want TRUE
	assert(!(buf[0] == 'o' && buf[1] == 'k'));      // want FALSE
	char one[1];
	one[0] = 'z';
	assert(fgets(one, 1, stdin) == one && one[0] == 0); // want TRUE
	char d[3];
	size_t n = fread(d, 1, sizeof d, stdin);
	assert(n <= 3);                                 // want TRUE
	if (n < 3)
		assert(getchar() == EOF);                   // want TRUE
	assert(n != 3 || d[2] != '!');                  // want FALSE
	return 0;
}
// symex excludes paths: the strlen model gives any length for bytes the
// analysis does not know, and only the SMT check rules out a length above 5.
