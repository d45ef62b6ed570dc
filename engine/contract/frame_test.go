package contract

import (
	"fmt"
	"testing"
)

// TestAssignedParams: the pointer parameters whose objects an assigns
// clause names, through a project's aliases; a by-value parameter's own
// copy is no write of the caller's; a global, an object behind a pointer
// member, an expression the clause computes, or no assigns clause at all
// give no answer.
func TestAssignedParams(t *testing.T) {
	al := FindAliases(`#define assigns(...) __CPROVER_assigns(__VA_ARGS__)
#define memory_slice(p, n) __CPROVER_object_upto(p, n)
#define object_whole(...) __CPROVER_object_whole(__VA_ARGS__)
`)
	for _, c := range []struct {
		params, assigns, want string
	}{
		{"int *x, int n", "*x", "[0] true"},
		{"int n, int *x", "x[n - 1]", "[1] true"},
		{"struct s *p, int *q", "p->m[2].f, *q", "[0 1] true"},
		{"char *r, const char *a", "memory_slice(r, 16)", "[0] true"},
		{"char *r, char *b", "object_whole((char *)b), r[0]", "[1 0] true"},
		{"int n, int *x", "n, *x", "[1] true"},          // n: the callee's copy
		{"struct s v, int *x", "v.m, x[1]", "[1] true"}, // v.m: the callee's copy
		{"int *x", "", "[] true"},                       // assigns nothing
		{"int *x", "g", "[] false"},                     // a global
		{"struct s *p", "p->q->f", "[] false"},          // behind a pointer member
		{"struct s *p", "*p->q", "[] false"},
		{"int *x", "*(x + 1)", "[] false"},
		{"struct s *p", "object_whole(p->buf)", "[] false"},
	} {
		f := &Func{Name: "f", Params: c.params, Clauses: []Clause{{Kind: Assigns, Text: c.assigns}}}
		pos, ok := AssignedParams(f, al)
		if pos == nil {
			pos = []int{}
		}
		if got := fmt.Sprint(pos, " ", ok); got != c.want {
			t.Errorf("(%s) assigns(%s): %s, want %s", c.params, c.assigns, got, c.want)
		}
	}
	if _, ok := AssignedParams(&Func{Name: "f", Params: "int *x"}, al); ok {
		t.Error("no assigns clause: want no answer")
	}
	// a macro that drops a parameter: positions count the kept ones
	f := &Func{Name: "f", Params: "int *ctx, int *x", Real: "f_impl", Kept: []string{"x"}, Clauses: []Clause{{Kind: Assigns, Text: "*x"}}}
	if pos, ok := AssignedParams(f, al); !ok || fmt.Sprint(pos) != "[0]" {
		t.Errorf("kept parameters: %v %v, want [0] true", pos, ok)
	}
}
