// fib(14) unrolled by value-cegar: hundreds of thousands of states, each
// call a new stack; under a small memory limit the property is UNKNOWN
// "memory limit", not an out-of-memory kill (issue 14).
#include <assert.h>
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int main(void) { int x = fib(14); assert(x == 377); return 0; }
