// configs: value default
// sscanf with decimal conversions (cfa.EmitSscanf, over the helpers of
// engine/frontend/cmodel's unit of the decimal conversions, as glibc's
// vfscanf does it): white space is skipped before each conversion; the
// string's end before the first conversion returns EOF; a conversion
// without digits ends the call; the value's low bits are stored (300 as
// %hhu is 44). inputs_gcc_test.go runs it with gcc on given input.
#include "../sv.h"
#include <stdio.h>

int main(void) {
	int a = 7, b = 8;
	assert(sscanf("12 -34", "%d %d", &a, &b) == 2 && a == 12 && b == -34); // want TRUE
	assert(sscanf(" \n", "%d", &a) == EOF && a == 12);                      // want TRUE
	assert(sscanf("5 x", "%d %d", &a, &b) == 1 && a == 5 && b == -34);      // want TRUE
	unsigned char c = 0;
	assert(sscanf("300", "%hhu", &c) == 1 && c == 44);                      // want TRUE
	char buf[3];
	if (!fgets(buf, sizeof buf, stdin))
		return 0;
	int x = 0;
	int r = sscanf(buf, "%d", &x);
	assert(r >= EOF && r <= 1);                                             // want TRUE
	assert(r == 1 || x == 0);                                               // want TRUE
	assert(!(r == 1 && x == 42));                                           // want FALSE
	assert(r != EOF);                                                       // want FALSE
	return 0;
}
