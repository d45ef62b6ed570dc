// gcc's checked arithmetic builtins, which clang compiles into LLVM's
// llvm.{s,u}{add,sub,mul}.with.overflow intrinsics: the LLVM front end
// gives the flag and the wrapped result as the C front end does.
#include <assert.h>
#include <limits.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
	int r; unsigned ur; long long lr;
	assert(__builtin_add_overflow(INT_MAX, 1, &r) && r == INT_MIN); // want TRUE
	assert(!__builtin_add_overflow(2, 3, &r) && r == 5); // want TRUE
	assert(__builtin_sub_overflow(INT_MIN, 1, &r)); // want TRUE
	assert(__builtin_mul_overflow(65536, 65536, &r) && r == 0); // want TRUE
	assert(!__builtin_mul_overflow(-3, 5, &r) && r == -15); // want TRUE
	assert(__builtin_uadd_overflow(UINT_MAX, 1u, &ur) && ur == 0); // want TRUE
	assert(__builtin_usub_overflow(0u, 1u, &ur) && ur == UINT_MAX); // want TRUE
	assert(__builtin_umul_overflow(65536u, 65536u, &ur)); // want TRUE
	unsigned long long ua = 1ull << 32, ub = 1ull << 32, uc;
	assert(__builtin_umulll_overflow(ua, ub, &uc)); // want TRUE
	int x = __VERIFIER_nondet_int();
	assert(!__builtin_add_overflow(x, 1, &r)); // want FALSE
	return 0;
}
