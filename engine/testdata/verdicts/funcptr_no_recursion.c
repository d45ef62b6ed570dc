// No recursion, but a call through a function pointer (issue 14: a
// harness over a parser with hooks answered "recursion depth 64
// exceeded"). Untracked, hook is unknown and hook(x) enters every
// function whose address is taken, walk included: a made-up cycle walk →
// walk → …. Function pointers are tracked under every precision.
#include "../sv.h"

typedef int (*cb)(int);
static cb hook;
static cb table[2];

static int leaf(int x) { return x + 1; }
static int walk(int x) { return hook(x); }

int main(void) {
	hook = leaf;
	table[0] = walk;
	int r = walk(3);
	assert(r == 4);                       // want TRUE
	return 0;
}
