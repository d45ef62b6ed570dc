#ifndef ML_BUF_H
#define ML_BUF_H

#include <stddef.h>
#include <stdint.h>

/* A byte buffer: data holds capacity bytes, the first used of them valid. */
struct bytebuf {
	uint8_t *data;
	size_t used;
	size_t capacity;
};

/* Running totals of a stream. */
struct stats {
	unsigned long total;
	unsigned long events;
};

size_t buf_sum(const uint8_t *p, size_t len);
int buf_find(const uint8_t *p, size_t len, uint8_t byte);
void buf_fill(uint8_t *dst, size_t n, uint8_t v);
size_t buf_copy(uint8_t *dst, size_t dst_len, const uint8_t *src, size_t src_len);
uint16_t buf_read_be16(const uint8_t *p, size_t len, size_t off);

int bb_push(struct bytebuf *b, uint8_t v);
int bb_set(struct bytebuf *b, size_t i, uint8_t v);
int bb_get(const struct bytebuf *b, size_t i, uint8_t *out);
unsigned bb_sum_prefix(const struct bytebuf *b, size_t upto);
uint8_t bb_last(const struct bytebuf *b);
size_t bb_append(struct bytebuf *b, const uint8_t *src, size_t len);
size_t bb_consume(struct bytebuf *b, size_t amount);
void bb_clear(struct bytebuf *b);

void stats_merge(struct stats *dst, const struct stats *src);

#endif
