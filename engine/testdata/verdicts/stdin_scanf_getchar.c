// configs: value predicate-cegar bmc default
// A byte read after scanf: which bytes scanf left unread (the character
// after a number's last digit, a whitespace, or one a conversion failed
// on) is not modelled, so what the read reaches is UNKNOWN, not a FALSE
// the real input could not produce (a digit right after a number: scanf
// would have read it).
#include "../sv.h"
extern int scanf(const char *, ...);
extern int getchar(void);

int main(void) {
	int a = 0;
	if (scanf("%d", &a) != 1)
		return 0;
	int g = getchar();
	assert(!(a == 1 && g == '2')); // want UNKNOWN
	return 0;
}
