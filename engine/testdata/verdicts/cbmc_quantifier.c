// configs: value value-cegar symex symex-cegar default
// CBMC's bounded quantifier __CPROVER_forall { int i; (i >= 0 && i < H)
// ==> B }, as aws-c-common's AWS_IS_ZEROED writes it, is evaluated exactly
// by a loop over [0, H) (engine/frontend, lowerQuantifier): as an
// assertion it is checked, as an assumption it constrains; B is read only
// where the premise holds.
#include <string.h>
#include <stdint.h>

unsigned char nondet_uchar(void);
char nondet_char(void);

/* clang-format off */
#define IS_ZEROED(object)                                                  \
	__CPROVER_forall {                                                     \
		int i;                                                             \
		(i >= 0 && i < sizeof(object)) ==> ((const uint8_t *)&object)[i] == 0 \
	}
/* clang-format on */

struct s {
	int a;
	char b[6];
};

int main(void) {
	struct s x;
	memset(&x, 0, sizeof x);
	__CPROVER_assert(IS_ZEROED(x), "zeroed"); // want TRUE
	x.b[5] = nondet_char();
	__CPROVER_assert(IS_ZEROED(x), "last byte may be set"); // want FALSE
	unsigned char arr[8];
	memset(arr, nondet_uchar(), sizeof arr);
	arr[6] = nondet_uchar();
	__CPROVER_assume(__CPROVER_forall { int i; (i >= 0 && i < 6) ==> arr[i] == 7 });
	__CPROVER_assert(arr[5] == 7, "assumed below 6"); // want TRUE
	__CPROVER_assert(arr[6] == 7, "not assumed at 6"); // want FALSE
	return 0;
}
