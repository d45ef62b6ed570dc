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
		{"read", 3, false, false, false}, // ReadCall's model, not stdin's
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
	if IsStdinRead("rand") || IsStdinRead("__VERIFIER_nondet_int") || IsStdinRead(ReadSource) {
		t.Error("IsStdinRead of another source")
	}
}

// TestReadCall: which declarations of read ReadCall models (POSIX
// ssize_t read(int, void *, size_t), under LP64 and ILP32), and which
// stay unmodelled.
func TestReadCall(t *testing.T) {
	for _, bits := range []int{64, 32} {
		ssize, size := IntType(bits, true), IntType(bits, false)
		vp := PointerTo(VoidType, bits)
		for _, tc := range []struct {
			name   string
			res    *Type
			params []*Type
			want   bool
		}{
			{"read", ssize, []*Type{IntT, vp, size}, true},
			{"read", IntType(16, true), []*Type{IntT, vp, size}, false}, // narrower than ssize_t
			{"read", ssize, []*Type{IntT, vp}, false},                   // not read's signature
			{"read", ssize, nil, false},                                 // no prototype
			{"read", ssize, []*Type{IntT, IntT, size}, false},           // the buffer not a pointer
			{"read", ssize, []*Type{IntT, vp, IntType(8, false)}, false},
			{"read", nil, []*Type{IntT, vp, size}, false},
			{"pread", ssize, []*Type{IntT, vp, size}, false},
		} {
			if got := ReadCall(tc.name, tc.res, tc.params); got != tc.want {
				t.Errorf("%d bits: ReadCall(%s, %v, %v) = %v", bits, tc.name, tc.res, tc.params, got)
			}
		}
	}
	if !IsInputFunc(ReadSource) {
		t.Error("read's values are not an input function's")
	}
}
