#ifndef ML_STR_H
#define ML_STR_H

#include <stddef.h>

#define TAG_MAX 8
/* Parentheses nest at most NEST_MAX deep. */
#define NEST_MAX 2

/* A short name in a fixed buffer, NUL-terminated; used is its length. */
struct name_tag {
	char text[TAG_MAX];
	unsigned char used;
};

/* An immutable counted string, laid out as aws-c-common's aws_string:
 * its members are const, so a unit test can fill one only through its
 * bytes. */
struct fixed_str {
	const size_t len;
	const char *const bytes;
};

size_t str_len(const char *s);
int str_cmp(const char *a, const char *b);
int str_eq(const char *a, const char *b);
int str_copy(char *dst, size_t dst_size, const char *src);
size_t str_copy_trunc(char *dst, size_t cap, const char *src);
int str_hex_byte(char *out, size_t out_len, unsigned char b);
int str_balanced(const char *s);

char fixed_first(const struct fixed_str *s);
size_t fixed_count(const struct fixed_str *s, char c);

int tag_set(struct name_tag *t, const char *name);
int tag_append(struct name_tag *t, char c);

/* The pad width, defined in str.c and set by str_set_pad; str_pad in
 * state.c reads it. */
extern int str_pad_width;
void str_set_pad(int w);
int str_pad(int len);

#endif
