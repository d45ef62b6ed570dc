// Struct fields through a pointer; the field written last wins.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
struct point {
	int x, y;
};
static void move(struct point *p, int dx) { p->x += dx; }
int main(void) {
	struct point p = {1, 2};
	move(&p, 3);
	move(&p, __VERIFIER_nondet_int());
	__VERIFIER_assert(p.x != 10);
	return 0;
}
