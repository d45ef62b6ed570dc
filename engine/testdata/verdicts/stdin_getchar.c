// configs: value value-cegar symex-cegar predicate-cegar default
// getchar reads standard input (C11 7.21.7.6), as getc(stdin) and
// fgetc(stdin) do: it returns a byte as an unsigned char converted to
// int, or EOF; once it returned EOF the end-of-file indicator of stdin
// is set and it returns EOF again. A bug that input triggers is a FALSE
// with the bytes as its inputs.
#include "../sv.h"
#define EOF (-1)
extern int getchar(void);
typedef struct _IO_FILE FILE;
extern FILE *stdin;
extern int getc(FILE *);
extern int fgetc(FILE *);

int main(void) {
	int c = getchar();
	assert(c == EOF || (c >= 0 && c <= 255)); // want TRUE
	int d = getchar();
	assert(!(c == EOF && d != EOF));          // want TRUE
	int e = getc(stdin);
	int f = fgetc(stdin);
	assert(!(d == EOF && (e != EOF || f != EOF))); // want TRUE
	assert(f <= 255);                         // want TRUE
	int n = 0;
	while (c != EOF && n < 4) {
		if (c == 'x')
			n = 100;
		c = getchar();
		n++;
	}
	assert(n < 100);                          // want FALSE
	return 0;
}
