package validate_test

import "testing"

// BenchmarkFollowLongWitness validates the violation witness of a copy
// loop of 512 iterations (one branching waypoint per iteration):
// following the witness costs the steps of one path, not a re-encoding
// of the path at every waypoint the witness decides.
func BenchmarkFollowLongWitness(b *testing.B) {
	const file = "testdata/copy_loop.c"
	prog, props, y := violationYAML(b, file, "value")
	if len(y) == 0 {
		b.Fatal("no FALSE verdict")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := validateYAML(b, prog, props, y)
		if err != nil || !v.Confirmed {
			b.Fatalf("not confirmed: %v %s", err, v.Reason)
		}
	}
}
