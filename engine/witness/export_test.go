package witness

import (
	"testing"

	"github.com/reverify/reverify/engine/smt"
)

// Golden lets the black-box tests (package witness_test) share golden
// and the -update flag.
func Golden(t *testing.T, name string, got []byte) { golden(t, name, got) }

// SameUpToFresh exposes sameUpToFresh with empty renaming and memo.
func SameUpToFresh(a, b *smt.Term) bool {
	return sameUpToFresh(a, b, map[string]string{}, map[[2]int]bool{})
}
