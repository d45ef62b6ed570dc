// FALSE only after ten iterations: a forged correctness witness must
// never be confirmed, whatever its induction depth.
extern void reach_error(void);

int main(void) {
	unsigned c = 0;
	while (c < 10)
		c++;
	if (c == 10)
		reach_error();
	return 0;
}
