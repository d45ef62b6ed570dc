// memcpy of a symbolic length into a buffer at a symbolic offset, as
// aws_byte_buf_write does (memcpy(buf->buffer + buf->len, src, n)): with
// the capacity check the copy stays inside the block (TRUE); without it
// the copy may run past the end (FALSE, replayed).
// memory: sites
// memory: valid-memsafety FALSE "out-of-bounds access by memcpy"
#include <stdlib.h>
#include <string.h>
extern unsigned long __VERIFIER_nondet_ulong(void);
extern void __VERIFIER_assume(int);

struct byte_buf {
  unsigned long len;
  unsigned char *buffer;
  unsigned long capacity;
};

int write_checked(struct byte_buf *buf, const unsigned char *src, unsigned long n) {
  if (buf->capacity - buf->len < n) // site: valid-deref TRUE
    return 0;
  memcpy(buf->buffer + buf->len, src, n); // site: valid-deref TRUE
  buf->len += n; // site: valid-deref TRUE
  return 1;
}

void write_unchecked(struct byte_buf *buf, const unsigned char *src, unsigned long n) {
  memcpy(buf->buffer + buf->len, src, n); // site: valid-deref FALSE "out-of-bounds access by memcpy" // violation
  buf->len += n; // site: valid-deref TRUE
}

int main(void) {
  struct byte_buf buf;
  buf.capacity = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(buf.capacity >= 1 && buf.capacity <= 32);
  buf.buffer = malloc(buf.capacity);
  if (!buf.buffer)
    return 0;
  buf.len = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(buf.len <= buf.capacity);
  unsigned char src[8] = {1, 2, 3, 4, 5, 6, 7, 8}; // site: valid-deref TRUE
  unsigned long n = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(n <= 8);
  write_checked(&buf, src, n);
  if (__VERIFIER_nondet_ulong())
    write_unchecked(&buf, src, n);
  free(buf.buffer); // site: valid-free TRUE
  return 0;
}
