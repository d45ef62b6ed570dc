package interp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/interp"
)

// TestFailureValues: the operands of the failing condition, read where
// the path fails it: a member through a pointer set by a callee (the
// short-circuit && fails on its first conjunct, so only that one's
// operands), then a signed local and a global (bit patterns, truncated
// to the type), never a pointer.
func TestFailureValues(t *testing.T) {
	p := translate(t, cHeader+`
struct hdr { unsigned len; };
unsigned clamp_len(unsigned n) { if (n > 192) return 193; return n; }
int main(void) {
  struct hdr h; struct hdr *q = &h;
  int k = -5;
  q->len = clamp_len(__VERIFIER_nondet_int());
  if (!(q->len <= 192 && k < 0 && q != 0)) reach_error();
  return 0;
}`)
	tr := errorTrace(t, p, []uint64{0, 500})
	in := repeat(500, tr.InputsUsed)
	vs, err := interp.FailureValues(context.Background(), p, tr.Steps, in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, fmt.Sprintf("%s=%d:%s", v.Expr, v.Bits, v.Type))
	}
	if s := strings.Join(got, " "); s != "q->len=193:unsigned int" {
		t.Errorf("values %q", s)
	}
}

func TestFailureValuesSigned(t *testing.T) {
	p := translate(t, cHeader+`
unsigned char g = 7;
int main(void) {
  int k = __VERIFIER_nondet_int();
  int *q = &k;
  if (!(q == 0 || k + g > 0)) reach_error();
  return 0;
}`)
	tr := errorTrace(t, p, []uint64{0, 0xfffffff0})
	vs, err := interp.FailureValues(context.Background(), p, tr.Steps, repeat(0xfffffff0, tr.InputsUsed))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, fmt.Sprintf("%s=%#x", v.Expr, v.Bits))
	}
	if s := strings.Join(got, " "); s != "k=0xfffffff0 g=0x7" {
		t.Errorf("values %q", s)
	}
}
