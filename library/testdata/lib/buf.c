/* buf.c: byte arrays passed as (pointer, length) and a byte buffer with a
 * capacity. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include "ml_buf.h"

size_t buf_sum(const uint8_t *p, size_t len)
{
	size_t total = 0;
	size_t i;

	for (i = 0; i < len; i++)
		total += p[i];
	assert(total <= 255 * len); // want TRUE
	return total;
}

/* buf_find returns the index of the first byte equal to byte, or -1. */
int buf_find(const uint8_t *p, size_t len, uint8_t byte)
{
	int at = -1;
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] == byte) {
			at = (int)i;
			break;
		}
	}
	assert(at < (int)len); // want TRUE
	return at;
}

void buf_fill(uint8_t *dst, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = v;
	assert(n == 0 || dst[n - 1] == v); // want TRUE
}

/* buf_copy copies as many bytes as both buffers hold. */
size_t buf_copy(uint8_t *dst, size_t dst_len, const uint8_t *src, size_t src_len)
{
	size_t k = src_len < dst_len ? src_len : dst_len;
	size_t i;

	for (i = 0; i < k; i++)
		dst[i] = src[i];
	assert(k <= dst_len && k <= src_len); // want TRUE
	return k;
}

/* buf_read_be16 reads a big-endian 16-bit value at off, 0 when out of
 * range. The range check is off by one: off == len - 1 passes it. */
uint16_t buf_read_be16(const uint8_t *p, size_t len, size_t off)
{
	uint16_t v;

	if (off >= len)
		return 0;
	assert(off + 1 < len); // want FALSE
	v = (uint16_t)(p[off] << 8 | p[off + 1]);
	return v;
}

/* bb_put_at stores v at index i; both callers check i < capacity. */
static void bb_put_at(struct bytebuf *b, size_t i, uint8_t v)
{
	assert(i < b->capacity); // want TRUE
	b->data[i] = v;
}

/* bb_get_at reads index i; bb_get checks i, bb_sum_prefix does not. */
static uint8_t bb_get_at(const struct bytebuf *b, size_t i)
{
	uint8_t v;

	assert(i < b->capacity); // want FALSE
	v = b->data[i];
	return v;
}

int bb_push(struct bytebuf *b, uint8_t v)
{
	if (b->data == NULL || b->used >= b->capacity)
		return -1;
	bb_put_at(b, b->used, v);
	b->used++;
	assert(b->used <= b->capacity); // want TRUE
	return 0;
}

int bb_set(struct bytebuf *b, size_t i, uint8_t v)
{
	if (b->data == NULL || i >= b->capacity)
		return -1;
	bb_put_at(b, i, v);
	if (i >= b->used)
		b->used = i + 1;
	return 0;
}

int bb_get(const struct bytebuf *b, size_t i, uint8_t *out)
{
	if (b->data == NULL || i >= b->used || b->used > b->capacity)
		return -1;
	*out = bb_get_at(b, i);
	return 0;
}

/* bb_sum_prefix sums the first upto bytes (at most 4) without checking
 * upto against the capacity. */
unsigned bb_sum_prefix(const struct bytebuf *b, size_t upto)
{
	unsigned s = 0;
	size_t j;

	if (b->data == NULL)
		return 0;
	for (j = 0; j < upto && j < 4; j++)
		s += bb_get_at(b, j);
	return s;
}

/* bb_last trusts used: a buffer whose used exceeds its capacity breaks
 * it. */
uint8_t bb_last(const struct bytebuf *b)
{
	size_t i;

	if (b->data == NULL || b->used == 0)
		return 0;
	i = b->used - 1;
	assert(i < b->capacity); // want FALSE
	return b->data[i];
}

/* check_span is an assert wrapper: its assertion is a property of each
 * call site. */
static void check_span(size_t off, size_t span, size_t total)
{
	assert(off <= total && span <= total - off);
}

size_t bb_append(struct bytebuf *b, const uint8_t *src, size_t len)
{
	size_t i;

	if (b->data == NULL || b->used > b->capacity || len > b->capacity - b->used)
		return 0;
	check_span(b->used, len, b->capacity); // want TRUE
	for (i = 0; i < len; i++)
		b->data[b->used + i] = src[i];
	b->used += len;
	return len;
}

/* bb_consume drops amount bytes from the front without checking amount
 * against used. */
size_t bb_consume(struct bytebuf *b, size_t amount)
{
	check_span(0, amount, b->used); // want FALSE
	b->used -= amount;
	return b->used;
}

void bb_clear(struct bytebuf *b)
{
	b->used = 0;
}

/* stats_merge adds src's totals into dst. With dst == src the assertion
 * would fail (src->total doubles); the most general context assumes that
 * pointer parameters designate distinct objects (the stated no-alias
 * assumption), so it is TRUE. */
void stats_merge(struct stats *dst, const struct stats *src)
{
	unsigned long before = src->total;

	dst->total += src->total;
	dst->events += src->events;
	assert(src->total == before); // want TRUE
}
