// configs: value value-cegar symex-cegar predicate-cegar default
// #pragma pack as gcc reads it ("Structure-Layout Pragmas" in the GCC
// manual): a struct completed under pack(N) aligns no member beyond N
// bytes, and so has no more padding (doc/semantics.md); push and pop
// restore the value before, pack() the default, also through _Pragma in
// a macro. sizeof, _Alignof and offsetof are gcc's, and so are the bytes
// memcpy copies out of (and into) such a struct. extern_test.go compiles
// the program with gcc and runs each case.
// adversary fails: 1 2 3 4 5 6
// adversary holds: 0
#include "../sv.h"

extern void *memcpy(void *, const void *, unsigned long);
#define offsetof(T, m) __builtin_offsetof(T, m)

#pragma pack(1)
struct P { char c; int x; };                 /* 5 bytes, x at 1 */
#pragma pack(push, 2)
struct Q { char c; int x; long long v; };    /* 14 bytes, x at 2, v at 6 */
#pragma pack(pop)
struct W { char a; struct P p; short s; };   /* pack(1) again: s at 6 */
#pragma pack()
struct N { char c; int x; };                 /* the default: 8 bytes */
#define PACKED_BEGIN _Pragma("pack(push, 1)")
#define PACKED_END _Pragma("pack(pop)")
PACKED_BEGIN
struct M { char c; long long v; };           /* 9 bytes */
PACKED_END

static unsigned char out[16];

// The bytes of a struct P whose x is 0x01020304, copied out by memcpy.
static void copy_p(void) {
	struct P p;
	p.c = 9;
	p.x = 0x01020304;
	memcpy(out, &p, sizeof p);
}

// The bytes of a struct W whose s is 7.
static void copy_w(void) {
	struct W w;
	w.a = 0;
	w.p.c = 0;
	w.p.x = 0;
	w.s = 7;
	memcpy(out, &w, sizeof w);
}

// x of a struct P copied in from bytes.
static int x_of_bytes(void) {
	unsigned char raw[5] = {9, 4, 3, 2, 1};
	struct P p;
	memcpy(&p, raw, 5);
	return p.x;
}

int main(void) {
	int which = __VERIFIER_nondet_int();
	if (which == 0) {
		assert(sizeof(struct P) == 5);                        // want TRUE
		assert(offsetof(struct Q, v) == 6);                   // want TRUE
		assert(sizeof(struct W) == 8 && _Alignof(struct Q) == 2); // want TRUE
		assert(sizeof(struct N) == 8 && sizeof(struct M) == 9); // want TRUE
		copy_p();
		assert(out[0] == 9 && out[1] == 4 && out[4] == 1);    // want TRUE symex-cegar:UNKNOWN "refinement made no progress"
		copy_w();
		assert(out[6] == 7);                                  // want TRUE symex-cegar:UNKNOWN "refinement made no progress"
		assert(x_of_bytes() == 0x01020304);                   // want TRUE symex-cegar:UNKNOWN "refinement made no progress"
	} else if (which == 1) {
		assert(sizeof(struct P) == 8);                        // want FALSE
	} else if (which == 2) {
		assert(offsetof(struct Q, x) == 4);                   // want FALSE
	} else if (which == 3) {
		copy_p();
		assert(out[4] != 1);                                  // want FALSE
	} else if (which == 4) {
		copy_w();
		assert(out[6] != 7);                                  // want FALSE
	} else if (which == 5) {
		assert(x_of_bytes() != 0x01020304);                   // want FALSE
	} else {
		assert(_Alignof(struct M) != 1);                      // want FALSE
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
*/
