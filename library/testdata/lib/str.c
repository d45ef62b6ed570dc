/* str.c: NUL-terminated strings, fixed name buffers and a parser of
 * balanced parentheses. */
#include <assert.h>
#include <stddef.h>
#include "ml_str.h"

size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return n;
}

/* str_cmp compares as unsigned chars and returns -1, 0 or 1. */
int str_cmp(const char *a, const char *b)
{
	size_t i = 0;
	int r;

	while (a[i] != '\0' && a[i] == b[i])
		i++;
	r = ((unsigned char)a[i] > (unsigned char)b[i]) - ((unsigned char)a[i] < (unsigned char)b[i]);
	assert(r != 0 || (a[i] == '\0' && b[i] == '\0')); // want TRUE
	return r;
}

int str_eq(const char *a, const char *b)
{
	int r = str_cmp(a, b) == 0;

	return r;
}

/* str_copy copies src with its terminator into dst, or returns -1 when
 * dst is too small. */
int str_copy(char *dst, size_t dst_size, const char *src)
{
	size_t n = str_len(src);
	size_t i;

	if (n >= dst_size)
		return -1;
	for (i = 0; i < n; i++)
		dst[i] = src[i];
	dst[n] = '\0';
	assert(n == 0 || dst[n - 1] == src[n - 1]); // want TRUE
	return (int)n;
}

/* str_copy_trunc truncates src to fit dst, but its bound forgets the
 * terminator's byte: with cap == 0, or src at least cap long, the index
 * of the terminator is cap. */
size_t str_copy_trunc(char *dst, size_t cap, const char *src)
{
	size_t i = 0;

	while (src[i] != '\0' && i < cap) {
		dst[i] = src[i];
		i++;
	}
	assert(i < cap); // want FALSE
	dst[i] = '\0';
	return i;
}

/* hex_digit: both calls in str_hex_byte pass a nibble. */
static char hex_digit(unsigned v)
{
	char c;

	assert(v < 16); // want TRUE
	c = (char)(v < 10 ? '0' + v : 'a' + (v - 10));
	return c;
}

int str_hex_byte(char *out, size_t out_len, unsigned char b)
{
	if (out_len < 3)
		return -1;
	out[0] = hex_digit(b >> 4);
	out[1] = hex_digit(b & 0x0f);
	out[2] = '\0';
	return 2;
}

int tag_set(struct name_tag *t, const char *name)
{
	size_t n = str_len(name);
	size_t i;

	if (n >= sizeof t->text)
		return -1;
	for (i = 0; i <= n; i++)
		t->text[i] = name[i];
	t->used = (unsigned char)n;
	assert(t->text[t->used] == '\0'); // want TRUE
	return 0;
}

/* tag_append checks for room for c but not for the terminator after it:
 * with used == TAG_MAX - 1 the terminator would go past the buffer. */
int tag_append(struct name_tag *t, char c)
{
	if (t->used >= sizeof t->text)
		return -1;
	t->text[t->used] = c;
	t->used++;
	assert(t->used < sizeof t->text); // want FALSE
	t->text[t->used] = '\0';
	return 0;
}

/* parse_seq and parse_group are mutually recursive; str_balanced keeps
 * depth in 0..NEST_MAX, but parse_group's context (any depth) violates
 * parse_seq's assertion and its only caller is parse_seq: needs a
 * precondition. */
static int parse_group(const char *s, size_t *pos, int depth);

static int parse_seq(const char *s, size_t *pos, int depth)
{
	int groups = 0;

	assert(depth >= 0 && depth <= NEST_MAX); // want UNKNOWN
	while (s[*pos] == '(' && groups < 4) {
		if (parse_group(s, pos, depth + 1) < 0)
			return -1;
		groups++;
	}
	return groups;
}

static int parse_group(const char *s, size_t *pos, int depth)
{
	(*pos)++; /* the '(' */
	if (depth > NEST_MAX)
		return -1;
	if (parse_seq(s, pos, depth) < 0)
		return -1;
	if (s[*pos] != ')')
		return -1;
	(*pos)++;
	return 0;
}

int str_balanced(const char *s)
{
	size_t pos = 0;
	int r = parse_seq(s, &pos, 0);

	return r >= 0 && s[pos] == '\0';
}

int str_pad_width = 2;

void str_set_pad(int w)
{
	str_pad_width = w;
}

/* fixed_first asserts what its header does not state: the empty string
 * violates it. */
char fixed_first(const struct fixed_str *s)
{
	assert(s->len > 0); // want FALSE
	return s->bytes[0];
}

size_t fixed_count(const struct fixed_str *s, char c)
{
	size_t n = 0;

	for (size_t i = 0; i < s->len; i++)
		if (s->bytes[i] == c)
			n++;
	assert(n <= s->len); // want TRUE
	return n;
}
