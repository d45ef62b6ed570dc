// Entry parameters are inputs (issue 14): an assertion that depends only
// on main's parameters is a property (it used to be taken for an assert
// wrapper and vanish: "no assertion found"). argc is nonnegative in a
// hosted program (C11 5.1.2.2.1p2), so argc >= 0 holds; argc == 5 fails
// when the program runs with other than four arguments, as `./a.out`.
#include <assert.h>

int main(int argc, char **argv) {
	assert(argc >= 0);                    // want TRUE
	assert(argc == 5);                    // want FALSE
	return 0;
}
