// configs: value value-cegar symex-cegar predicate-cegar default
// Values from outside the program (doc/semantics.md): an extern object
// that no source defines holds whatever its definition elsewhere gives
// it, an input like an entry parameter's; a function pointer that a
// bodiless function returns may designate a function outside the
// program, which may write every global. A weak definition is not
// final either: another object file may replace it at link time, so a
// weak object's value is an input and a weak function is unmodelled at
// its calls (its body is checked as "f.weak"). No assertion below may be
// TRUE: the adversary at the end (extern_test.go links it with gcc)
// defines the objects and the function and makes each one fail, case
// by case (__VERIFIER_nondet_int returns the case). Objects the
// program defines keep their initialisers.
// adversary fails: 0 1 2 3 4
// adversary holds: 5
#include "../sv.h"

extern int config_value;
extern int table[2];
int g;
typedef void (*fp_t)(void);
fp_t get_handler(void);
int counter = 7;
__attribute__((weak)) int weak_limit = 3;
__attribute__((weak)) void weak_hook(void) { }

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
	} else if (which == 3) {
		weak_hook();
		assert(g == 0);            // want UNKNOWN
	} else if (which == 4) {
		assert(weak_limit == 3);   // want FALSE
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
int weak_limit = 4;
void weak_hook(void) { g = 1; }
*/
