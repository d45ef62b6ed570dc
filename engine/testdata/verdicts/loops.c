// Loops, calls and globals.
#include "../sv.h"

int g;

int inc(int x) { g++; return x + 1; }
int twice(int x) { return inc(inc(x)) - 1; }

int main(void) {
	int i = 0;
	while (i < 10)
		i++;
	assert(i == 10);                      // want TRUE
	for (int k = 0; k < 5; k++)
		assert(k != 3);                   // want FALSE
	int r = twice(5);
	assert(r == 6);                       // want TRUE
	assert(g == 2);                       // want TRUE
	int sum = 0;
	for (int j = 1; j <= 100; j++)
		sum += j;
	assert(sum == 5050);                  // want TRUE
	return 0;
}
