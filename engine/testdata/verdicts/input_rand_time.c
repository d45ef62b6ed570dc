// configs: value value-cegar symex-cegar predicate-cegar default
// rand and random return a value in [0, RAND_MAX] (C11 7.22.2.1; glibc's
// RAND_MAX is 2^31-1; POSIX random), whatever srand and srandom seeded;
// time(t) returns any time_t value, (time_t)-1 on failure included, and
// stores it in *t when t is not NULL (C11 7.27.2.4); clock returns any
// clock_t value (C11 7.27.2.1). Each call is an input: a bug that a
// value triggers is a FALSE with the values as its inputs.
#include "../sv.h"
#include <stdlib.h>
#include <time.h>

int main(void) {
	srand(7);
	int r = rand();
	assert(r >= 0 && r <= RAND_MAX);          // want TRUE
	assert(r != 12345);                       // want FALSE
	srandom(3);
	long q = random();
	assert(q >= 0 && q <= 2147483647L);       // want TRUE
	assert(q != 2147483647L);                 // want FALSE
	int s = rand();
	assert(s == r);                           // want FALSE
	time_t t0 = 5;
	time_t t = time(&t0);
	assert(t == t0);                          // want TRUE
	assert(t != (time_t)-1);                  // want FALSE
	time_t u = time(0);
	assert(u >= t);                           // want FALSE
	clock_t c = clock();
	assert(c != (clock_t)-1);                 // want FALSE
	return 0;
}
