package validate

import "github.com/reverify/reverify/engine/smt"

// SameUpToFresh exposes sameUpToFresh with empty renaming and memo.
func SameUpToFresh(a, b *smt.Term) bool {
	return sameUpToFresh(a, b, map[string]string{}, map[[2]int]bool{})
}
