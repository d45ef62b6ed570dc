// configs: symex symex-cegar default
// Symbolic values in memory: arrays with symbolic indices, structs,
// bytes, the heap, calls.
#include "../sv.h"

extern void *malloc(unsigned long);

struct pair { int a; unsigned char c; };

int sum(struct pair p) { return p.a + p.c; }

int main(void) {
	int arr[4] = {1, 2, 3, 4};
	int k = __VERIFIER_nondet_int();
	if (k >= 0 && k < 4) {
		assert(arr[k] == k + 1);          // want TRUE
		arr[k] = 10;
		assert(arr[0] + arr[1] + arr[2] + arr[3] == 19 - k); // want TRUE
		assert(arr[2] == 3);              // want FALSE
	}
	struct pair p;
	p.a = __VERIFIER_nondet_int();
	p.c = __VERIFIER_nondet_uchar();
	if (p.a > 0 && p.a < 1000)
		assert(sum(p) >= 1);              // want TRUE
	int *h = malloc(2 * sizeof(int));
	h[0] = __VERIFIER_nondet_int();
	h[1] = h[0] * 2;
	if (h[0] == 21)
		assert(h[1] == 42);               // want TRUE
	int w = __VERIFIER_nondet_int();
	unsigned char *bytes = (unsigned char *)&w;
	if (w == 0x11223344)
		assert(bytes[0] == 0x44 && bytes[3] == 0x11); // want TRUE
	return 0;
}
