// configs: value value-cegar symex symex-cegar default
// assume-pure: log_msg trace
// Functions the user declares side-effect-free (.reverify.yml assume.pure,
// --assume-pure) write nothing and return any value: TRUE stays possible,
// and every verdict lists the assumption. Undeclared functions without a
// body still may write every global.
// adversary fails: 1 2
// adversary holds: 0
#include "../sv.h"

int g;
void log_msg(int level);
int trace(int *p);
void other(void);

int main(void) {
	int which = __VERIFIER_nondet_int();
	g = 0;
	int x = 5;
	log_msg(1);
	int t = trace(&x);
	if (which == 0)
		assert(g == 0 && x == 5);  // want TRUE
	if (which == 1)
		assert(t == 0);            // want FALSE
	other();
	if (which == 2)
		assert(g == 0);            // want UNKNOWN
	return 0;
}

/* adversary:
#include <stdlib.h>
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
extern int g;
void log_msg(int level) {}
int trace(int *p) { return 1; }
void other(void) { g = 1; }
*/
