// Package callstack is the call-stack CPA (seed 000_f76fde50ed4a4828.txt,
// section 2.3: the composite of location, call stack and data analysis):
// a persistent linked stack of the Call edges of the active calls.
//
// Invariants:
//   - stacks are interned per CPA, so equal stacks are the same pointer:
//     LessOrEqual, Join and the partition key are pointer comparisons;
//   - the depth is bounded (DefaultMaxDepth = 64 unless configured).
//     Entering a function beyond the bound yields an overflow state that
//     is cpa.Truncated with the reason "recursion depth N exceeded" and
//     has no successors, so the algorithm ends Incomplete with that reason
//     instead of silently dropping the path;
//   - Leave succeeds only to the call edge on top of the stack.
//
// A stack prints outermost call first, callee at call-site location:
//
//	[]
//	[f@L2 g@L7]
//	[f@L2 … ] overflow
package callstack
