package memory

import (
	"math"

	"github.com/reverify/reverify/engine/cfa"
)

// The concrete C integer semantics (wrap-around, truncating division,
// shifts, conversions, undefined behaviour) come from engine/cfa/csem;
// these are the bit helpers of the memory model.

// Mask is the mask of the low bits bits.
func Mask(bits int) uint64 {
	if bits >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(bits) - 1
}

// Sext interprets the low bits of v as a signed number.
func Sext(v uint64, bits int) int64 { return cfa.SignExtend(v, bits) }
