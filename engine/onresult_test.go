package engine_test

import (
	"context"
	"testing"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// TestOnResult: Config.OnResult sees each property's result once, the
// same one Verify returns, one call at a time.
func TestOnResult(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: `#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 3;
  assert(y == 3);
  assert(x != 7);
  assert(y > 0);
  return 0;
}`}})
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	seen := map[*engine.Result]int{}
	inCall := false
	results, err := engine.Verify(context.Background(), prog, props, engine.Config{MemoryLimit: testMemory, Name: "value", Solver: z3.Factory, Workers: 3,
		OnResult: func(r *engine.Result) {
			if inCall {
				t.Error("OnResult called concurrently")
			}
			inCall = true
			seen[r]++
			inCall = false
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(props) != 3 || len(seen) != 3 {
		t.Fatalf("%d properties, %d results seen, want 3 and 3", len(props), len(seen))
	}
	for _, r := range results {
		if seen[r] != 1 {
			t.Errorf("%s (%s) seen %d times, want once", r.Property.ID, r.Verdict, seen[r])
		}
	}
}
