// configs: value value-cegar symex symex-cegar default
// Library functions proof harnesses call: htonl, ntohl, htons, ntohs and
// __builtin_bswap* reverse the bytes (x86 is little-endian), and fprintf
// writes no variable and calls back no function (cfa.ExternNoEffect), so
// an escaped function does not make the assertion after it UNKNOWN.
#include <stdio.h>
#include <stdint.h>
#include <arpa/inet.h>

unsigned nondet_uint(void);
int g;
static void cb(void) { g = 1; }
void (*hook)(void) = cb;

int main(void) {
	uint32_t v = nondet_uint();
	__CPROVER_assert(ntohl(htonl(v)) == v, "round trip"); // want TRUE
	__CPROVER_assert(htonl(0x01020304u) == 0x04030201u, "bytes reversed"); // want TRUE
	__CPROVER_assert(ntohs(0x1234) == 0x3412, "short bytes reversed"); // want TRUE
	__CPROVER_assert(htonl(v) == v, "not the identity"); // want FALSE
	__CPROVER_assert(__builtin_bswap64(0x0102030405060708ull) == 0x0807060504030201ull, "bswap64"); // want TRUE
	g = 0;
	fprintf(stderr, "%u\n", v);
	__CPROVER_assert(g == 0, "fprintf writes no variable"); // want TRUE
	return 0;
}
