/* Property scopes (engine/scope): the assertion depends on clamp_len and
   main only; parse_header, log_msg and checksum are explored but irrelevant. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int counter;
int parse_header(int raw) { return raw & 0xff; }
int clamp_len(int n) {
  if (n > 65)
    return 65;
  return n;
}
void log_msg(int code) { counter = counter + code; }
int checksum(int a, int b) { return a ^ b; }
int main(void) {
  int raw = __VERIFIER_nondet_int();
  int n = parse_header(raw);
  int len = clamp_len(n);
  log_msg(len);
  int c = checksum(raw, 3);
  log_msg(c);
  if (!(len <= 64))
    reach_error();
  return 0;
}
