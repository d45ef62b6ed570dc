#define LIB_MODE 3
int use(void);
static int lib_hits; /* a header's global, written in lib.c */
