// A loop bounded by a constant whose proof needs no invariant beyond
// "1" when every execution is unrolled (bmc's unwinding assertions),
// but is not 1-inductive with it.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);

int main(void) {
	unsigned char x = __VERIFIER_nondet_uchar();
	unsigned char y = 0;
	unsigned char c = 0;
	while (c < 4) {
		unsigned char i = (unsigned char)(1 << c);
		if (x & i)
			y = y + i;
		c = c + 1;
	}
	if ((x & 15) != y)
		reach_error();
	return 0;
}
