#define LIB_MODE 3
int use(void);
