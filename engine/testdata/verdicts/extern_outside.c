// configs: value value-cegar symex-cegar predicate-cegar default
// Values from outside the program (doc/semantics.md): an extern object
// that no source defines holds whatever its definition elsewhere gives
// it, an input like an entry parameter's; a function pointer that a
// bodiless function returns may designate a function outside the
// program, which may write every global. No assertion below may be
// TRUE: the adversary at the end (extern_test.go links it with gcc)
// defines the objects and the function and makes each one fail, case
// by case (__VERIFIER_nondet_int returns the case). Objects the
// program defines keep their initialisers.
// adversary fails: 0 1 2
// adversary holds: 3
#include "../sv.h"

extern int config_value;
extern int table[2];
int g;
typedef void (*fp_t)(void);
fp_t get_handler(void);
int counter = 7;

int main(void) {
	int which = __VERIFIER_nondet_int();
	if (which == 0) {
		assert(config_value == 0); // want FALSE
	} else if (which == 1) {
		assert(table[1] != 5);     // want FALSE
	} else if (which == 2) {
		fp_t h = get_handler();
		int before = g;
		h();
		assert(g == before);       // want UNKNOWN
	} else {
		assert(counter == 7);      // want TRUE
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
static int which_case(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
int __VERIFIER_nondet_int(void) { return which_case(); }
int config_value = 1;
int table[2] = {0, 5};
extern int g;
static void bump(void) { g++; }
void (*get_handler(void))(void) { return bump; }
*/
