// configs: value symex default
// The SMT encoding substitutes the path's definitions into a pointer
// before it asks which object the pointer designates (smt, folded): a
// pointer variable the path assigns one object is that object for the
// string functions, and an integer variable holding 0 cast to a pointer
// is NULL. Before, both made the counterexample check fail ("through a
// pointer to several objects", "integer-to-pointer cast"), so these
// FALSEs were UNKNOWN.
#include <string.h>

int nondet_int(void);

int main(void) {
	char a[4] = "abc";
	const char *p = a;
	const char *q = "abd";
	if (nondet_int())
		q = "abc";
	if (nondet_int())
		__CPROVER_assert(strncmp(p, q, 3) != 0, "may be equal"); // want FALSE
	long z = 0;
	int x = 5;
	int *r = (int *)z;
	if (nondet_int())
		r = &x;
	__CPROVER_assert(r == 0, "null from an integer"); // want FALSE
	return 0;
}
