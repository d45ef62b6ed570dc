// configs: bmc default
// __CPROVER_POINTER_OBJECT numbers every object once (CBMC's numbering,
// 0 for NULL): two results are equal exactly when their objects are. A
// precondition in the manner of aws-c-common's memcpy stub holds only
// with that: its comparisons of pointers into two objects are reached
// only when the two numbers are equal, so only on one object. A FALSE
// through the number of an object other than NULL is UNKNOWN: the
// concrete replay does not number objects (the numbers are CBMC's).
int a[4], b[4];
int nondet_int(void);

void copy(char *dst, const char *src, unsigned long n) {
	int apart = __CPROVER_POINTER_OBJECT(dst) != __CPROVER_POINTER_OBJECT(src) || src >= dst + n || dst >= src + n;
	__CPROVER_assert(apart, "src/dst overlap"); // want TRUE
}

void copy_overlapping(char *dst, const char *src, unsigned long n) {
	int apart = __CPROVER_POINTER_OBJECT(dst) != __CPROVER_POINTER_OBJECT(src) || src >= dst + n || dst >= src + n;
	__CPROVER_assert(apart, "src/dst overlap"); // want UNKNOWN "CBMC's"
}

int main(void) {
	copy((char *)a, (char *)b, sizeof a);
	copy((char *)a, (char *)a + 8, 8);
	__CPROVER_assert(__CPROVER_POINTER_OBJECT(a) == __CPROVER_POINTER_OBJECT(a + 2), "one object, one number"); // want TRUE
	__CPROVER_assert(__CPROVER_POINTER_OBJECT(a) != __CPROVER_POINTER_OBJECT(b), "two objects, two numbers"); // want TRUE
	__CPROVER_assert(__CPROVER_POINTER_OBJECT(a) != 0, "only NULL is 0"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(__CPROVER_POINTER_OBJECT(a) != 5, "a number"); // want UNKNOWN "CBMC's"
	if (nondet_int())
		copy_overlapping((char *)a, (char *)a + 4, 8); // fails under every numbering, but the replay cannot number objects
	return 0;
}
