// atexit with an entry that calls main: the registered functions run
// when the program ends, not when main returns to its caller, so the
// model does not run them at main's returns here (the program names
// main elsewhere than its definition): what they affect stays UNKNOWN,
// never decided with the functions run too early. Compiled with gcc and
// entered at harness, the first assertion fails (h is still 0 after
// main returns), so TRUE there would be wrong.
// entry: harness
#include "../sv.h"
extern int atexit(void (*)(void));

int h;

void handler(void) { h = 1; }

int main(void) {
	atexit(handler);
	return 0;
}

void harness(void) {
	main();
	assert(h == 1);                       // want UNKNOWN "atexit functions at a return of main"
}
