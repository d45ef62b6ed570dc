// configs: value value-cegar predicate-cegar bmc default
// scanf with numeric conversions (C11 7.21.6.2, glibc's vfscanf): it
// returns the number of values stored, or EOF when the input ends before
// the first conversion; a conversion that fails on a character leaves it
// unread, so every later numeric conversion fails on it at once; once
// the input has ended it stays ended (stdin_scanf_getchar.c: a byte
// read after scanf). inputs_gcc_test.go runs it with gcc on given input.
#include "../sv.h"
#define EOF (-1)
extern int scanf(const char *, ...);

int main(void) {
	int a = 7, b = 8;
	int r = scanf("%d %d", &a, &b);
	assert(r >= EOF && r <= 2);                 // want TRUE
	assert(r >= 1 || a == 7);                   // want TRUE
	assert(r == 2 || b == 8);                   // want TRUE
	int s = scanf("%d", &a);
	assert(!(r == 0 && s != 0));                // want TRUE
	assert(!(r == EOF && s != EOF));            // want TRUE
	assert(!(r == 2 && a == -5 && b == 300));   // want FALSE
	unsigned char c = 0;
	unsigned long x = 0;
	int t = scanf("%hhu %lx", &c, &x);
	assert(!(t == 1 && c == 200));              // want FALSE
	assert(!(s == 1 && t == 2 && x == 0xbeef)); // want FALSE
	return 0;
}
