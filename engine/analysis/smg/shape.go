package smg

import (
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// The shape precision: where the list abstraction merges which chains
// (seed 001_7a124141fc78263e.txt, sections 3.11 and 4.2.10: the shape of
// abstracted lists is refined on demand). A precision entry named
// ListsName(n) at a loop head makes the abstraction there merge only
// chains of at least n blocks (into segments of at least n blocks), and
// ListsOff switches it off there. Refinement raises a loop head one rung
// on the ladder at a time (NextListThreshold), so it terminates. Any
// threshold is sound: a segment of ≥ n blocks stands for every chain of
// at least n blocks.

// listsPrefix starts the names of shape entries.
const listsPrefix = "<lists>"

// ListsOff is the precision name that switches the list abstraction off
// where it holds.
const ListsOff = listsPrefix + "off"

// ListsName returns the precision name of list threshold n: "<lists>6".
func ListsName(n int) string { return listsPrefix + strconv.Itoa(n) }

// listLadder are the thresholds shape refinement climbs, then ListsOff.
var listLadder = []int{6, 12}

// IsShapeName reports whether name is a shape entry's name (ListsName
// or ListsOff).
func IsShapeName(name string) bool {
	if name == ListsOff {
		return true
	}
	if n, ok := strings.CutPrefix(name, listsPrefix); ok {
		_, err := strconv.Atoi(n)
		return err == nil
	}
	return false
}

// HasShapePrefix reports whether name starts like a shape entry's name.
func HasShapePrefix(name string) bool { return strings.HasPrefix(name, listsPrefix) }

// NextListThreshold returns the shape entry name of the rung above the
// threshold cur (0: the default) and true, or false when the
// abstraction is already off.
func NextListThreshold(cur int) (string, bool) {
	for _, n := range listLadder {
		if cur < n {
			return ListsName(n), true
		}
	}
	if cur < NoAbstraction {
		return ListsOff, true
	}
	return "", false
}

// ThresholdAt returns the threshold the shape entries that hold at a
// location give, holds reporting whether the entry of a name holds
// there: NoAbstraction where ListsOff holds, else the highest rung that
// holds, else 0 (the default, MinChain).
func ThresholdAt(holds func(name string) bool) int {
	if holds(ListsOff) {
		return NoAbstraction
	}
	for i := len(listLadder) - 1; i >= 0; i-- {
		if holds(ListsName(listLadder[i])) {
			return listLadder[i]
		}
	}
	return 0
}

// ShapePrecision is implemented by precisions that set the list
// abstraction per loop head.
type ShapePrecision interface {
	// ListThreshold is the minimum chain length (blocks) that the list
	// abstraction merges at l: 0 for the default (MinChain),
	// NoAbstraction when it is off there.
	ListThreshold(l *cfa.Location) int
}
