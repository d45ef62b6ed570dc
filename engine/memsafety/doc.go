// Package memsafety decides memory-safety properties (valid-deref,
// valid-free, valid-memtrack, valid-memcleanup; per access site as
// spec.MemorySites enumerates them, or for the whole program) as one
// group step of a configuration's plan (Step, a strategy.Group).
//
// A group is decided by a sequence of runs under the limits of one
// property (memorySequence, strategy.GroupSequence): the value analysis
// in memory mode (value.MemChecks: objects with sizes and validity,
// seed 001, sections 3.9–3.10) with list abstraction (analysis/smg) and
// without it, under a state cap; symbolic execution over the same
// memory model for the checks it left undecided; the value analysis
// without the cap for the properties whose checks were all decided. A
// FALSE is confirmed twice: the path to the violating step is feasible
// under the bit-precise encoding and replays concretely
// (cexcheck.CheckPathOpts), and the interpreter fed with the model's
// inputs hits the same violation at the last step
// (interp.ReplayMemoryHeap). The checks the value analysis leaves
// undecided because it lost a value (value.Undecided) are probed with
// the encoding for a violation before the run's verdict (probeUndecided).
// TRUE needs a fixed point in which every check of the property holds.
//
// Results have Config ConfigValue or ConfigSymex; an UNKNOWN carries
// its cause as data where a limit or the entry's parameters end it
// (strategy.Result.SetUnknown).
package memsafety
