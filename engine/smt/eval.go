package smt

import "fmt"

// Assignment gives concrete values to variables for Eval: the value of a
// bit-vector or Bool (0/1) variable as its low and high 64 bits.
type Assignment func(v *Term) (lo, hi uint64, ok bool)

type arrayVal struct {
	def bv
	m   map[bv]bv
}

// Eval evaluates t concretely under env, with exactly the semantics the
// Builder folds constants with (SMT-LIB). Bool results are 0 or 1.
// A variable of array sort is the constant array of the value env gives
// it; a variable env does not assign is an error.
func Eval(t *Term, env Assignment) (lo, hi uint64, err error) {
	e := evaluator{env: env, memo: map[*Term]bv{}, arrs: map[*Term]*arrayVal{}}
	return e.run(t)
}

// run evaluates t, turning an evalError into an error.
func (e *evaluator) run(t *Term) (lo, hi uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			if ee, ok := r.(evalError); ok {
				err = ee
				return
			}
			panic(r)
		}
	}()
	v := e.eval(t)
	return v.lo, v.hi, nil
}

type evalError struct{ msg string }

func (e evalError) Error() string { return e.msg }

type evaluator struct {
	env    Assignment
	arrEnv func(v *Term) (ArrayValue, bool) // nil: an array variable is a constant array of env's value
	memo   map[*Term]bv
	arrs   map[*Term]*arrayVal
}

func b2v(c bool) bv {
	if c {
		return bv{1, 0}
	}
	return bv{}
}

func (e *evaluator) array(t *Term) *arrayVal {
	if a, ok := e.arrs[t]; ok {
		return a
	}
	var a *arrayVal
	switch t.Op {
	case ConstArray:
		a = &arrayVal{def: e.eval(t.Args[0]), m: map[bv]bv{}}
	case Store:
		base := e.array(t.Args[0])
		a = &arrayVal{def: base.def, m: make(map[bv]bv, len(base.m)+1)}
		for k, v := range base.m {
			a.m[k] = v
		}
		a.m[e.eval(t.Args[1])] = e.eval(t.Args[2])
	case Var:
		if e.arrEnv != nil {
			v, ok := e.arrEnv(t)
			if !ok {
				panic(evalError{"smt.Eval: no value for " + t.Name})
			}
			a = &arrayVal{def: bv{v.Default[0], v.Default[1]}.trunc(t.Sort.Width), m: make(map[bv]bv, len(v.Entries))}
			for k, x := range v.Entries {
				a.m[bv{k[0], k[1]}.trunc(t.Sort.Index)] = bv{x[0], x[1]}.trunc(t.Sort.Width)
			}
			break
		}
		lo, hi, ok := e.env(t)
		if !ok {
			panic(evalError{"smt.Eval: no value for " + t.Name})
		}
		a = &arrayVal{def: bv{lo, hi}.trunc(t.Sort.Width), m: map[bv]bv{}}
	case Ite:
		if e.eval(t.Args[0]).lo == 1 {
			a = e.array(t.Args[1])
		} else {
			a = e.array(t.Args[2])
		}
	default:
		panic(evalError{fmt.Sprintf("smt.Eval: cannot evaluate array term %s", t.Describe())})
	}
	e.arrs[t] = a
	return a
}

func (e *evaluator) eval(t *Term) bv {
	if v, ok := e.memo[t]; ok {
		return v
	}
	var v bv
	w := t.Sort.Width
	arg := func(i int) bv { return e.eval(t.Args[i]) }
	switch t.Op {
	case True:
		v = bv{1, 0}
	case False:
	case BVConst:
		v = t.val()
	case Var:
		lo, hi, ok := e.env(t)
		if !ok {
			panic(evalError{"smt.Eval: no value for " + t.Name})
		}
		v = bv{lo, hi}
		if w > 0 {
			v = v.trunc(w)
		} else {
			v = b2v(lo != 0)
		}
	case Not:
		v = b2v(arg(0).lo == 0)
	case And:
		v = b2v(arg(0).lo == 1 && arg(1).lo == 1)
	case Or:
		v = b2v(arg(0).lo == 1 || arg(1).lo == 1)
	case Implies:
		v = b2v(arg(0).lo == 0 || arg(1).lo == 1)
	case Ite:
		if arg(0).lo == 1 {
			v = arg(1)
		} else {
			v = arg(2)
		}
	case Eq:
		v = b2v(arg(0) == arg(1))
	case Add, Sub, Mul, UDiv, SDiv, URem, SRem, Shl, LShr, AShr, BAnd, BOr, BXor:
		v = foldBin(t.Op, arg(0), arg(1), w)
	case BNot:
		a := arg(0)
		v = bv{^a.lo, ^a.hi}.trunc(w)
	case Neg:
		v = arg(0).neg(w)
	case Ult:
		v = b2v(arg(0).ult(arg(1)))
	case Ule:
		v = b2v(!arg(1).ult(arg(0)))
	case Slt:
		aw := t.Args[0].Sort.Width
		v = b2v(arg(0).slt(arg(1), aw))
	case Sle:
		aw := t.Args[0].Sort.Width
		v = b2v(!arg(1).slt(arg(0), aw))
	case ZeroExt:
		v = arg(0)
	case SignExt:
		v = arg(0).sext(t.Args[0].Sort.Width, w)
	case Extract:
		v = arg(0).extract(t.HiBit, t.Lo)
	case Concat:
		v = arg(0).concat(arg(1), t.Args[1].Sort.Width, w)
	case Select:
		a := e.array(t.Args[0])
		i := arg(1)
		var ok bool
		if v, ok = a.m[i]; !ok {
			v = a.def
		}
	default:
		panic(evalError{"smt.Eval: cannot evaluate " + t.Describe()})
	}
	e.memo[t] = v
	return v
}
