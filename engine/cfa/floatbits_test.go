package cfa

import (
	"math"
	"testing"
)

// TestFloatEqConst checks the shapes FloatEqConst builds: a comparison of
// the bit pattern for a finite constant, a mask of the sign for zero, a
// constant for a NaN, and nothing for a variable not reached through a
// pointer or constants of another width.
func TestFloatEqConst(t *testing.T) {
	dbl := &Type{Kind: Float, Bits: 64, Size: 8, Align: 8}
	flt := &Type{Kind: Float, Bits: 32, Size: 4, Align: 4}
	p := &Var{Name: "p", T: PointerTo(dbl, 64)}
	d := &Var{Name: "d", T: dbl}
	at := &Deref{X: &VarRef{Var: p}, T: dbl}
	for _, tc := range []struct {
		name string
		op   BinaryOp
		x, y Expr
		want string // "" for not lowered
	}{
		{"0.95", Eq, at, &FloatConst{T: dbl, V: 0.95}, "(*((unsigned long long *)(&(*p)))) == 4606732058837280358U"},
		{"reversed", Ne, &FloatConst{T: dbl, V: 0.5}, at, "(*((unsigned long long *)(&(*p)))) != 4602678819172646912U"},
		{"zero", Eq, at, &FloatConst{T: dbl, V: math.Copysign(0, -1)}, "((*((unsigned long long *)(&(*p)))) & 9223372036854775807U) == 0U"},
		{"NaN", Eq, at, &FloatConst{T: dbl, V: math.NaN()}, "0"},
		{"NaN !=", Ne, at, &FloatConst{T: dbl, V: math.NaN()}, "1"},
		{"register variable", Eq, &VarRef{Var: d}, &FloatConst{T: dbl, V: 0.95}, ""},
		{"float constant against a double", Eq, at, &FloatConst{T: flt, V: 0.5}, ""},
		{"ordering", Lt, at, &FloatConst{T: dbl, V: 0.95}, ""},
	} {
		e, ok := FloatEqConst(tc.op, tc.x, tc.y, 64)
		switch {
		case ok != (tc.want != ""):
			t.Errorf("%s: lowered %v, want %v", tc.name, ok, tc.want != "")
		case ok && e.String() != tc.want:
			t.Errorf("%s: %s, want %s", tc.name, e, tc.want)
		}
	}
}
