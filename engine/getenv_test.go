package engine_test

import (
	"reflect"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/results"
)

// TestEnvName: getenv of a string literal is modelled (cfa.EnvName);
// a name computed at run time, the empty name, a name with '=' and any
// call in a program that names environ (which may set the environment
// itself) are not, and stay unmodelled calls.
func TestEnvName(t *testing.T) {
	names := func(src string) []string {
		t.Helper()
		prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range prog.Funcs {
			for _, l := range f.Locs {
				for _, e := range l.Out {
					if c, ok := e.Op.(*cfa.Call); ok && c.Fn == "getenv" {
						n, ok := cfa.EnvName(prog, c)
						if !ok {
							n = "-"
						}
						out = append(out, n)
					}
				}
			}
		}
		return out
	}
	got := names(`#include <stdlib.h>
int main(void) {
	char n[2] = {'A', 0};
	return !getenv("HOME") + !getenv(n) + !getenv("") + !getenv("A=B") + !(const char *)getenv("PATH");
}`)
	if want := []string{"HOME", "-", "-", "-", "PATH"}; !reflect.DeepEqual(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	got = names(`#include <stdlib.h>
extern char **environ;
int main(void) { environ = 0; return !getenv("HOME"); }`)
	if want := []string{"-"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with environ: %q, want %q", got, want)
	}
}

// TestEnvUnread: of getenv's inputs the readable forms show whether a
// name is set and, when it is, its length and the bytes before it.
func TestEnvUnread(t *testing.T) {
	srcs := []string{"getenv A", "getenv A length", "getenv A[0]", "getenv A[1]",
		"getenv B", "getenv B length", "getenv B[0]", "__VERIFIER_nondet_int"}
	vals := []int64{1, 1, 'y', 7, 0, 9, 3, 5}
	got := results.EnvUnread(srcs, vals)
	want := []bool{false, false, false, true, false, true, true, false}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("EnvUnread = %v, want %v", got, want)
	}
}
