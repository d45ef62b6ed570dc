// Nonlinear: 2x = y*y + y at the loop head (SV-COMP's ps2-ll).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
	int k = __VERIFIER_nondet_int();
	long long y = 0, x = 0, c = 0;
	while (1) {
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
