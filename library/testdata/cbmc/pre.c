/* CBMC's preconditions in library mode: an API function's own
 * __CPROVER_precondition is a check on its callers outside the sources
 * (needs a precondition); a helper's is checked in its callers' contexts
 * (TRUE when they establish it, FALSE when an API call breaks it). */
#include <assert.h>

static int scale(int x)
{
	__CPROVER_precondition(x >= 0 && x < 100, "scale: x in range"); // want TRUE
	int y = x * 3;
	return y;
}

static int shift(int x)
{
	__CPROVER_precondition(x != 0, "shift: nonzero"); // want FALSE
	int y = x - 1;
	return y;
}

int api_scale(int x)
{
	__CPROVER_precondition(x >= 0, "api: x nonnegative"); // want UNKNOWN
	if (x >= 100)
		return -1;
	return scale(x);
}

int api_shift(int x)
{
	int r = shift(x);
	assert(r != 5 || x == 6); // want TRUE
	return r;
}
