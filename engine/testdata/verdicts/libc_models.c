// configs: value value-cegar symex symex-cegar default
// The C library functions reverify models exactly (cfa.LibraryModels)
// keep TRUE and FALSE verdicts; where a model cannot be exact (a size
// that is not a constant) it forgets what the function may write.
// The adversary links the real C library (extern_test.go): with CASE=50
// every assertion holds, the FALSE ones fail under their case.
// adversary fails: 100 101 1
// adversary holds: 50
#include "../sv.h"

extern void *memcpy(void *, const void *, unsigned long);
extern void *memmove(void *, const void *, unsigned long);
extern void *memset(void *, int, unsigned long);
extern int memcmp(const void *, const void *, unsigned long);
extern unsigned long strlen(const char *);
extern int strcmp(const char *, const char *);
extern int strncmp(const char *, const char *, unsigned long);
extern char *strcpy(char *, const char *);
extern char *strncpy(char *, const char *, unsigned long);
extern char *strchr(const char *, int);
extern int abs(int);
extern int toupper(int);
extern int tolower(int);
extern int isdigit(int);
extern int isalpha(int);
extern int isspace(int);

int g;

int main(void) {
	char buf[8];
	char dst[8];
	g = 3;
	memset(buf, 0, sizeof buf);
	memcpy(buf, "abc", 4);
	assert(strlen(buf) == 3);              // want TRUE
	assert(g == 3);                        // want TRUE
	strcpy(dst, buf);
	assert(strcmp(dst, "abc") == 0);       // want TRUE symex-cegar:UNKNOWN "no progress"
	assert(dst[3] == 0);                   // want TRUE symex-cegar:UNKNOWN "no progress"
	strncpy(dst, "xy", 5);
	assert(dst[1] == 'y' && dst[4] == 0);  // want TRUE
	assert(strncmp(dst, "xyz", 2) == 0);   // want TRUE
	assert(memcmp(buf, "abc", 3) == 0);    // want TRUE
	assert(strchr(buf, 'b') == buf + 1);   // want TRUE
	assert(strchr(buf, 'z') == 0);         // want TRUE
	memset(buf, 'q', 2);
	assert(buf[1] == 'q' && buf[2] == 'c'); // want TRUE
	memmove(buf + 1, buf, 3);
	assert(buf[3] == 'c');                 // want TRUE
	assert(toupper('a') == 'A' && tolower('B') == 'b' && toupper('1') == '1'); // want TRUE
	assert(isdigit('7') && !isdigit('x') && isalpha('x') && isspace('\t')); // want TRUE
	assert(isdigit('7') == 1 && isalpha('x') == 1024 && toupper(-100) == 156); // want TRUE
	assert(abs(-5) == 5);                  // want TRUE
	int n = __VERIFIER_nondet_int();
	if (n == 100)
		assert(strlen(buf) == 3);          // want FALSE
	if (n == 101)
		assert(strcmp(buf, "qqqc") != 0);  // want FALSE
	if (n >= 0 && n <= 8) {
		buf[0] = 1;
		memset(buf, 0, n);                 /* not exact: buf is forgotten */
		assert(buf[0] == 1);               // want FALSE
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
*/
