package smt

// ArrayValue is the value of an array variable in a model: Default at
// every index but the keys of Entries. Values and indexes are the low
// and high 64 bits of a bit-vector.
type ArrayValue struct {
	Default [2]uint64
	Entries map[[2]uint64][2]uint64
}

// EvalModel is Eval under a model that also gives array variables their
// values: arrays(v) for an array variable v (ok false: an error, as
// env's). It is the Model of a solver whose answer arrives as text
// (package solverproc).
func EvalModel(t *Term, env Assignment, arrays func(v *Term) (ArrayValue, bool)) (lo, hi uint64, err error) {
	e := evaluator{env: env, arrEnv: arrays, memo: map[*Term]bv{}, arrs: map[*Term]*arrayVal{}}
	return e.run(t)
}
