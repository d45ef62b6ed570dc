// configs: value value-cegar symex default
// CBMC's uninterpreted functions (__CPROVER_uninterpreted_<f>, aws-c-common's
// hasher, equals, compare and predicates) are functions of their argument
// values about which nothing else is known: each call gives any result
// (pure, no effect), and the replay checks that equal arguments give equal
// results. So different arguments may collide (FALSE), and a property
// that needs two calls with equal arguments to agree is UNKNOWN (the
// congruence is not used for proofs), never a wrong FALSE.
int __CPROVER_uninterpreted_f(int);
int nondet_int(void);

int g;

int main(void) {
	int x = nondet_int(), y = nondet_int();
	__CPROVER_assume(x != y);
	g = 3;
	int c = __CPROVER_uninterpreted_f(x);
	__CPROVER_assert(g == 3, "no effect"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(c != __CPROVER_uninterpreted_f(y), "may collide"); // want FALSE
	if (nondet_int())
		__CPROVER_assert(c == __CPROVER_uninterpreted_f(x), "congruent"); // want UNKNOWN "no function"
	return 0;
}
