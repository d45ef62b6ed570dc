package validate_test

import (
	"bytes"
	"testing"

	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// BenchmarkFollowLongWitness validates the violation witness of a copy
// loop of 512 iterations (one branching waypoint per iteration):
// following the witness costs the steps of one path, not a re-encoding
// of the path at every waypoint the witness decides.
func BenchmarkFollowLongWitness(b *testing.B) {
	const file = "testdata/copy_loop.c"
	prog, props, res := verify(b, file, "value")
	var y bytes.Buffer
	for _, r := range res {
		if r.Verdict == results.False {
			if err := witness.WriteViolationYAML(&y, violation(prog, r, task(file, "value"))); err != nil {
				b.Fatal(err)
			}
		}
	}
	if y.Len() == 0 {
		b.Fatalf("no FALSE verdict: %v", res)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := validateYAML(b, prog, props, y.Bytes())
		if err != nil || !v.Confirmed {
			b.Fatalf("not confirmed: %v %s", err, v.Reason)
		}
	}
}
