// configs: value symex-cegar predicate-cegar default
// getenv of a literal name (cfa.EnvName) returns NULL or a string of at
// most 131,071 bytes outside the program's objects, one pointer per name,
// and writes nothing: a bug it triggers is a FALSE whose inputs are the
// name's value. After an unmodelled call (setenv, putenv) a path through
// getenv is no counterexample; a name computed at run time stays an
// unmodelled call.
// symex excludes paths: getenv's results are unknown to the analyses.
#include "../sv.h"
#include <stdlib.h>
#include <string.h>

int g = 1;

int main(void) {
	char *d = getenv("DEBUG");
	assert(g == 1);                        // want TRUE
	if (d && d[0] == 'y' && d[1] == 0)
		assert(0);                         // want FALSE
	char *e = getenv("DEBUG");
	assert(e == d);                        // want TRUE
	char *h = getenv("HOME");
	if (h)
		assert(strlen(h) != 3);            // want FALSE
	static char buf[] = "Y=1";
	putenv(buf); // getenv("Y") now returns buf + 2, an object of the program
	char *y = getenv("Y");
	if (y == buf + 2)
		assert(0);                         // want UNKNOWN "cannot encode external function getenv"
	setenv("X", "1", 1);
	char *x = getenv("X");
	if (x)
		assert(0);                         // want UNKNOWN "cannot encode external function getenv"
	char name[2] = {'P', 0};
	char *p = getenv(name);
	if (p)
		assert(g == 2);                    // want UNKNOWN "cannot encode external function getenv"
	return 0;
}
