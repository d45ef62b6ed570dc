package cfa

import "testing"

// TestInputCall: which calls InputCall and StdinCall model, and which
// stay unmodelled because their declaration or arguments do not fit.
func TestInputCall(t *testing.T) {
	long := IntType(64, true)
	for _, tc := range []struct {
		name  string
		res   *Type
		nargs int
		want  bool
	}{
		{"rand", IntT, 0, true},
		{"random", long, 0, true},
		{"random", IntType(32, true), 0, true}, // ILP32's long
		{"time", long, 1, true},
		{"clock", long, 0, true},
		{"rand", CharType, 0, false},  // narrower than the values
		{"rand", nil, 0, false},       // no result declared
		{"rand", IntT, 1, false},      // not rand's signature
		{"time", long, 0, false},      // no pointer argument
		{"srand", VoidType, 1, false}, // no effect (Extern), no input
		{"getenv", PointerTo(CharType, 64), 1, false},
	} {
		m, ok := InputCall(tc.name, tc.res, tc.nargs)
		if ok != tc.want {
			t.Errorf("InputCall(%s, %v, %d) = %v, want %v", tc.name, tc.res, tc.nargs, ok, tc.want)
		}
		if ok && (m.Name != tc.name || !IsInputFunc(tc.name)) {
			t.Errorf("InputCall(%s): model %+v", tc.name, m)
		}
	}
	if m, _ := InputCall("rand", IntT, 0); !m.Ranged || m.Lo != 0 || m.Hi != RandMax {
		t.Errorf("rand's range: %+v", m)
	}
	for _, tc := range []struct {
		name                   string
		nargs                  int
		onStdin, sizeOne, want bool
	}{
		{"fgets", 3, true, false, true},
		{"fgets", 3, false, false, false}, // another stream
		{"fread", 4, true, true, true},
		{"fread", 4, true, false, false}, // element size not 1
		{"fread_unlocked", 4, true, true, true},
		{"read", 3, false, false, false},
	} {
		if got := StdinCall(tc.name, tc.nargs, tc.onStdin, tc.sizeOne); got != tc.want {
			t.Errorf("StdinCall(%s, %d, %v, %v) = %v", tc.name, tc.nargs, tc.onStdin, tc.sizeOne, got)
		}
	}
	for _, src := range []string{"getchar", "fgetc", "fgets", "fread"} {
		if !IsStdinRead(src) {
			t.Errorf("IsStdinRead(%s) = false", src)
		}
	}
	if IsStdinRead("rand") || IsStdinRead("__VERIFIER_nondet_int") {
		t.Error("IsStdinRead of another source")
	}
}
