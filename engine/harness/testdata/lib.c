#include <stddef.h>
#include "lib.h"

struct buf { size_t len; unsigned char *data; size_t capacity; };
struct node { int v; struct node *next; };
typedef int (*cmp_fn)(const void *, const void *);

static int calls;          /* written: any value */
static const int limit = 8; /* never written: stays 8 */
int mode = LIB_MODE;        /* written by set_mode */

static int by_value(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

void set_mode(int m) { mode = m; }
int sum(const int *xs, size_t n) { int s = 0; for (size_t i = 0; i < n; i++) s += xs[i]; calls++; return s + limit; }
int push(struct buf *b, unsigned char c) { if (b->len >= b->capacity) return -1; b->data[b->len++] = c; return 0; }
int count(const struct node *n) { int k = 0; while (n && k < 8) { n = n->next; k++; } return k; }
size_t length(const char *s) { size_t k = 0; while (s[k]) k++; return k; }
int first(const int v[static 4], void *ctx) { return v[0] + (ctx != 0); }
int search(const int *xs, size_t count, cmp_fn cmp) { return count > 0 ? cmp(&xs[0], &xs[0]) : 0; }
int use(void) { int a[2] = {1, 2}; return search(a, 2, by_value); }
struct pair { int a, b; };
int by_struct(struct pair p) { return p.a + p.b; }
int knr(a, b) int a; int b; { return a + b; }
struct transport { int (*send)(void *ctx, const char *data, size_t n); void *ctx; };
int transmit(struct transport *t) { return t->send(t->ctx, "x", 1); }
void hit(void) { lib_hits++; }
struct sink { void (*put)(int); };
int drain(struct sink *s) { s->put(1); return 0; }
static const unsigned char table[4] = {1, 2, 3, 4};
const unsigned char *lookup(void) { return table; }
struct label { const unsigned len; const char *const text; struct sink *const owner; };
int label(const struct label *s) { return s->len ? s->text[0] : 0; }
