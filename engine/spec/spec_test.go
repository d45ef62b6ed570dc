package spec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/spec"
)

const svHeader = `
void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
extern int __VERIFIER_nondet_int(void);
`

const assertHeader = `
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, "t.c", __LINE__, __func__))
`

func TestProperties(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "ID line reachable"
	}{
		{
			name: "wrapper calls",
			src: svHeader + `
int main(void) {
	int x = __VERIFIER_nondet_int();
	__VERIFIER_assert(x != 3);
	__VERIFIER_assert(x  !=  3);
	__VERIFIER_assert(x > 0);
	return 0;
}`,
			want: []string{"main:x!=3 9 true", "main:x!=3#2 10 true", "main:x>0 11 true"},
		},
		{
			name: "assert macro and unreachable function",
			src: assertHeader + `
int g;
void unused(void) { assert(g == 1); }
int main(void) {
	assert(g == 0);
	return 0;
}`,
			want: []string{"unused:g==1 6 false", "main:g==0 8 true"},
		},
		{
			name: "direct reach_error under a branch",
			src: `void reach_error(void);
int main(void) {
	int x = 5;
	if (x > 10) reach_error();
	return 0;
}`,
			want: []string{"main:!(x>10) 4 true"},
		},
		{
			name: "no assertion",
			src:  `int main(void) { return 0; }`,
			want: nil,
		},
		{
			// main guarded only by its parameters looks like a wrapper
			// (the property vanished)
			name: "assertion on the entry's parameters",
			src:  assertHeader + "int main(int argc, char **argv) { assert(argc == 5); return 0; }",
			want: []string{"main:argc==5 4 true"},
		},
		{
			name: "wrapper-like functions: uncalled, called through a pointer, unused __VERIFIER_assert",
			src: svHeader + assertHeader + `
void check(int x) { assert(x > 0); }
void via(int x) { assert(x != 7); }
void (*fp)(int) = via;
int main(void) {
	fp(3);
	return 0;
}`,
			want: []string{"check:x>0 10 false", "via:x!=7 11 true"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: tt.src}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, prop := range spec.Properties(p, "main") {
				got = append(got, fmt.Sprintf("%s %d %v", prop.ID, prop.Pos.Line, prop.Reachable))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("properties:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestUnreachCall(t *testing.T) {
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: svHeader + `
int main(void) {
	__VERIFIER_assert(__VERIFIER_nondet_int() > 0);
	if (__VERIFIER_nondet_int()) reach_error();
	return 0;
}`}})
	if err != nil {
		t.Fatal(err)
	}
	prop := spec.UnreachCall(p, "main")
	if prop.ID != spec.UnreachCallID || len(prop.ErrorEdges) != 2 || prop.Via != nil {
		t.Errorf("UnreachCall = %s with %d error edges, via %v; want 2 error edges (wrapper and main), no via", prop.ID, len(prop.ErrorEdges), prop.Via)
	}
}

func TestParsePRP(t *testing.T) {
	tests := []struct {
		text, entry, err string
	}{
		{"CHECK( init(main()), LTL(G ! call(reach_error())) )\n", "main", ""},
		{"CHECK( init(start()), LTL(G ! call(__VERIFIER_error())) )", "start", ""},
		{"CHECK( init(main()), LTL(G valid-free) )", "", "unsupported property"},
		{"", "", "no property"},
	}
	for _, tt := range tests {
		entry, err := spec.ParsePRP(tt.text)
		if entry != tt.entry || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("ParsePRP(%q) = %q, %v; want %q, error containing %q", tt.text, entry, err, tt.entry, tt.err)
		}
	}
}
