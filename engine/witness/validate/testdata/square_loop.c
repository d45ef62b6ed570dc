// square.c checking its invariant in the loop, as ps2-ll does: with
// the invariant "1" 2-inductive.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
	int k = __VERIFIER_nondet_int();
	long long y = 0, x = 0, c = 0;
	while (1) {
		if (y * y - 2 * x + y != 0)
			reach_error();
		if (!(c < k))
			break;
		c = c + 1;
		y = y + 1;
		x = y + x;
	}
	if (y * y - 2 * x + y != 0)
		reach_error();
	return 0;
}
