package bench

import (
	"strings"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want uint64
	}{{"4GiB", 4 << 30}, {"512MiB", 512 << 20}, {"2G", 2 << 30}, {"1000000", 1000000}, {"1.5GiB", 3 << 29}} {
		if got, err := ParseBytes(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	if _, err := ParseBytes("-1M"); err == nil {
		t.Error("ParseBytes(-1M): no error")
	}
}

func TestEvaVerdict(t *testing.T) {
	summary := "[eva] done for function main\n[eva:summary] ====== ANALYSIS SUMMARY ======\n"
	tests := []struct {
		exit   int
		out    string
		want   string
		reason string
	}{
		{0, "[eva:final-states] Values at end of function main:\n" + summary, VerdictTrue, "unreachable"},
		{0, "[eva:final-states] Values at end of function reach_error:\n  NON TERMINATING FUNCTION\n" + summary, VerdictUnknown, "cannot prove"},
		{0, "[eva] using specification for function __VERIFIER_error\n" + summary, VerdictUnknown, "cannot prove"},
		{0, "[eva] r.c:4: User Error: \n  Recursive call to f without a specification.\n" + summary, VerdictUnknown, "recursive functions"},
		{1, "[eva] r.c:4: User Error: \n  Recursive call to f without a specification.\n[kernel] Plug-in eva aborted: invalid user input.\n", VerdictUnknown, "recursive functions"},
		{0, "[eva] a.c:4: User Error: \n  something else\n" + summary, VerdictUnknown, "something else"},
		{0, "[eva:alarm] a.c:3: Warning: assertion got status invalid.\n" + summary, VerdictUnknown, "invalid"},
		{1, "[kernel] Plug-in eva aborted: invalid user input.\n", VerdictUnknown, "aborted"},
		{0, "[kernel] Parsing a.c\n", VerdictUnknown, "no result"},
	}
	for i, tt := range tests {
		v, reason := evaVerdict(tt.exit, tt.out, "")
		if v != tt.want || !strings.Contains(reason, tt.reason) {
			t.Errorf("case %d: %s (%s), want %s (%q)", i, v, reason, tt.want, tt.reason)
		}
	}
}

func TestEvaStub(t *testing.T) {
	src := "extern int __VERIFIER_nondet_int(void);\nunsigned char __VERIFIER_nondet_uchar(void) { return 0; }\n" +
		"x = __VERIFIER_nondet_int(); y = __VERIFIER_nondet_uchar(); z = __VERIFIER_nondet_weird();"
	stub := evaStub(src)
	if !strings.Contains(stub, "int __VERIFIER_nondet_int(void) { return __reverify_nondet_int; }") {
		t.Errorf("stub lacks nondet_int:\n%s", stub)
	}
	if strings.Contains(stub, "__VERIFIER_nondet_uchar") || strings.Contains(stub, "weird") {
		t.Errorf("stub redefines a task's function or guesses a type:\n%s", stub)
	}
}
