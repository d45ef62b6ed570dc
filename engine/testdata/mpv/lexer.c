/* A harness over a small tokenizer of a JSON-like buffer: four
 * nondeterministic characters from { } 7 : , and space go through a lexer
 * that skips blanks, reads numbers digit by digit and tracks the nesting
 * of braces; 31 assertions state what its callers rely on. Used to measure
 * multi-property verification against per-property runs (mpv_test.go,
 * README "Multi-property verification"). Some assertions are FALSE. */
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

#define N 4

enum { T_NONE, T_LBRACE, T_RBRACE, T_NUM, T_COLON, T_COMMA, T_ERR };

struct lexer {
	const char *buf;
	int pos, len;
	int depth, maxdepth;
	int ntok, err;
};

struct token {
	int kind, value, start, len;
};

static char pick(unsigned char k) {
	return k == 0 ? '{' : k == 1 ? '}' : k == 2 ? '7' : k == 3 ? ':' : k == 4 ? ',' : ' ';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int next(struct lexer *lx, struct token *t) {
	while (lx->pos < lx->len && lx->buf[lx->pos] == ' ')
		lx->pos++;
	assert(lx->pos <= lx->len);
	t->start = lx->pos;
	t->len = 0;
	t->value = 0;
	if (lx->pos == lx->len) {
		t->kind = T_NONE;
		return 0;
	}
	char c = lx->buf[lx->pos];
	if (is_digit(c)) {
		int v = 0;
		while (lx->pos < lx->len && is_digit(lx->buf[lx->pos])) {
			v = v * 10 + (lx->buf[lx->pos] - '0');
			lx->pos++;
			t->len++;
		}
		assert(t->len >= 1);
		assert(v >= 7);
		t->kind = T_NUM;
		t->value = v;
		return 1;
	}
	lx->pos++;
	t->len = 1;
	switch (c) {
	case '{':
		t->kind = T_LBRACE;
		lx->depth++;
		if (lx->depth > lx->maxdepth)
			lx->maxdepth = lx->depth;
		break;
	case '}':
		if (lx->depth == 0) {
			t->kind = T_ERR;
			lx->err = 1;
		} else {
			t->kind = T_RBRACE;
			lx->depth--;
		}
		break;
	case ':':
		t->kind = T_COLON;
		break;
	case ',':
		t->kind = T_COMMA;
		break;
	default:
		t->kind = T_ERR;
		lx->err = 1;
	}
	assert(lx->depth >= 0);
	assert(lx->depth <= lx->maxdepth);
	return 1;
}

/* checksum over the buffer, as a frame trailer would carry it */
static unsigned int checksum(const char *b, int n) {
	unsigned int s = 0;
	for (int i = 0; i < n; i++)
		s = (s << 1) + (unsigned char)b[i];
	return s;
}

int main(void) {
	char buf[N];
	for (int i = 0; i < N; i++)
		buf[i] = pick(__VERIFIER_nondet_uchar());
	struct lexer lx = {buf, 0, N, 0, 0, 0, 0};
	struct token t;
	int prev = T_NONE, nums = 0, sum = 0;
	int counts[7] = {0, 0, 0, 0, 0, 0, 0};
	while (next(&lx, &t)) {
		assert(t.kind >= T_LBRACE && t.kind <= T_ERR);
		assert(t.start + t.len <= N);
		assert(t.len >= 1);
		assert(lx.ntok < N);
		lx.ntok++;
		counts[t.kind]++;
		if (t.kind == T_NUM) {
			nums++;
			sum += t.value;
			assert(t.value <= 7777);
			assert(t.value % 10 == 7);
			assert(t.value < 777);                /* FALSE: "7777" */
		}
		if (t.kind == T_COLON)
			assert(prev == T_NUM);                /* FALSE: a colon after anything */
		if (t.kind == T_RBRACE)
			assert(lx.maxdepth >= 1);
		prev = t.kind;
	}
	assert(t.kind == T_NONE);
	assert(lx.pos == N);
	assert(lx.ntok <= N);
	assert(lx.maxdepth <= N);
	assert(lx.maxdepth < 3);                      /* FALSE: "{{{" */
	assert(counts[T_LBRACE] - counts[T_RBRACE] == lx.depth);
	assert(counts[T_LBRACE] >= lx.maxdepth);
	assert(nums <= 2);
	assert(nums <= 1);                            /* FALSE: "7,7" */
	assert(sum >= 0 && sum <= 7777);
	assert(!lx.err || counts[T_ERR] > 0);
	assert(counts[T_ERR] == 0);                   /* FALSE: "}" first */
	assert(counts[T_NONE] == 0);
	assert(counts[T_COMMA] + counts[T_COLON] <= N);
	unsigned int cs = checksum(buf, N);
	assert(cs >= 32u * 15u);
	assert(cs != 0);
	assert(lx.depth == 0);                        /* FALSE: "{" */
	return 0;
}
