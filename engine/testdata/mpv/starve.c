// Five assertions after a loop whose bound is an input: the value
// analysis at full precision enumerates the loop's counter without end,
// so the run over all properties at once cannot finish; value-cegar
// tracks nothing the assertions do not need and proves each at once.
extern unsigned __VERIFIER_nondet_uint(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
int main(void) {
	unsigned n = __VERIFIER_nondet_uint();
	unsigned i = 0, a = 1, b = 2, c = 3;
	while (i < n)
		i++;
	assert(a == 1);
	assert(b == 2);
	assert(c == 3);
	assert(a + b == c);
	assert(c - b == a);
	return 0;
}
