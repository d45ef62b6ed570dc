extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

/* Adds a and b byte by byte with a carry, as multi-precision code does. */
static unsigned int add_bytes(unsigned int a, unsigned int b) {
  unsigned char r[4];
  unsigned int carry = 0;
  unsigned char i = 0;
  while (i < 4) {
    unsigned int s = ((a >> (8 * i)) & 0xffu) + ((b >> (8 * i)) & 0xffu) + carry;
    carry = s >> 8;
    r[i] = (unsigned char)s;
    i++;
  }
  return r[0] | (r[1] << 8) | (r[2] << 16) | ((unsigned int)r[3] << 24);
}

int main(void) {
  unsigned int b = __VERIFIER_nondet_uint();
  unsigned int r = add_bytes(234770789u, b);
  if (r != 234770789u + b)
    reach_error();
  return 0;
}
