// configs: value default
// The C library's conversions of decimal strings to integers
// (engine/frontend/cmodel: Strto, as glibc's strtol_l.c computes them in
// the "C" locale): white space, an optional sign, the longest run of
// digits; without a digit the result is 0 and the end pointer is the
// string; beyond the type's range its limit of the sign
// (strtol_errno.c: errno). inputs_gcc_test.go runs it with gcc on given input. (bmc
// takes over a minute: the constant strings unwind the digits loop 21
// times.)
#include "../sv.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
	char *end;
	const char *s = "x1";
	assert(atoi(" \t-17x") == -17);                                     // want TRUE
	assert(strtol("+42", &end, 10) == 42 && *end == 0);                 // want TRUE
	assert(strtol(s, &end, 10) == 0 && end == s);                       // want TRUE
	assert(strtoul("-1", 0, 10) == ULONG_MAX);                          // want TRUE
	char buf[4];
	if (!fgets(buf, sizeof buf, stdin))
		return 0;
	long v = strtol(buf, &end, 10);
	assert(v >= -99 && v <= 999);                                       // want TRUE
	assert(end >= buf && end <= buf + 3);                               // want TRUE
	assert(v != 42);                                                    // want FALSE
	assert(!(v == -5 && *end == 'x'));                                  // want FALSE
	assert(strtoll("99999999999999999999", 0, 10) == LLONG_MAX);        // want TRUE
	return 0;
}
