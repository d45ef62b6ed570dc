// An array filled by a loop and checked after it: 2-inductive with the
// invariant "1" (the step from the last iteration writes the element
// that is checked), as bmc's k-induction proves it.
extern void reach_error(void);

int main(void) {
	int a[64];
	int i;
	for (i = 0; i < 64; i++)
		a[i] = i;
	if (a[63] != 63)
		reach_error();
	return 0;
}
