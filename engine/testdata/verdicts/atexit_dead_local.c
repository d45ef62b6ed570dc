// After main returns its locals are dead (C11 5.1.2.2.3), so a function
// registered with atexit must not read them through a pointer; main has
// an address-taken local, and the functions after its return are not
// modelled: the assertion they reach is not decided.
#include "../sv.h"
extern int atexit(void (*)(void));
int *p;
void h(void) {
	assert(*p == 1);                      // want UNKNOWN "atexit"
}
int main(void) {
	int x = 1;
	p = &x;
	atexit(h);
	return 0;
}
