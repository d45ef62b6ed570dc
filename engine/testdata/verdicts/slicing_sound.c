// configs: symex-slicing symex-slicing-cegar value-slicing-cegar
// max-states: 3000
// Soundness of the slicing configurations: violations whose cause lies
// in pointers, arrays, calls (a global written in a callee, a value
// returned through a pointer parameter, a callee whose effect is
// irrelevant except in one call) stay FALSE with a confirmed
// counterexample, and properties that hold are not made FALSE by edges
// the slice turns into no-ops. Each case runs in its own branch of a
// nondeterministic choice.
#include "../sv.h"

int g;
int h;
int tab[8];

void set_g(int v) { g = v; }
void set_both(int v) { g = v; h = v + 1; }
void out(int *p, int v) { *p = v; }
int twice(int v) { h = h + 1; return 2 * v; }
int read_at(int *a, int i) { return a[i]; }

int main(void) {
	int c = __VERIFIER_nondet_int();
	int n = __VERIFIER_nondet_int();
	if (c == 0) {
		int b = 1;
		int *pb = &b;
		*pb = 7;
		assert(b != 7);                   // want FALSE
	} else if (c == 1) {
		g = 0;
		set_g(5);
		assert(g != 5);                   // want FALSE
	} else if (c == 2) {
		int r = 0;
		out(&r, n);
		if (n == 42)
			assert(r != 42);              // want FALSE
	} else if (c == 3) {
		tab[2] = 3;
		tab[n & 7] = 4;
		assert(tab[2] == 3);              // want FALSE
	} else if (c == 4) {
		int x = twice(3);
		int y = twice(n);
		assert(x == 6);                   // want TRUE
		assert(y != 8);                   // want FALSE
	} else if (c == 5) {
		set_both(n);
		set_both(1);
		assert(h == 2);                   // want TRUE
		assert(g == n);                   // want FALSE
	} else if (c == 6) {
		int arr[4] = {1, 2, 3, 4};
		int *q = arr;
		q[1] = n;
		assert(read_at(arr, 1) != 9);     // want FALSE
	} else {
		int k = 0;
		for (int i = 0; i < 5; i++)
			k += i;
		int *pk = &k;
		*pk = 3;
		assert(k == 3);                   // want TRUE
	}
	return 0;
}
