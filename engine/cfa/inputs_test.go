package cfa

import (
	"strconv"
	"strings"
	"testing"
)

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

// TestScanfCall: which scanf formats and arguments ScanfCall models, and
// the conversions it reads; everything else stays an unmodelled call.
func TestScanfCall(t *testing.T) {
	p := func(bits int, signed bool) *Type { return PointerTo(IntType(bits, signed), 64) }
	for _, tc := range []struct {
		name, format string
		lit          bool
		stdin        bool // fscanf's stream is stdin
		args         []*Type
		dm           DataModel
		want         string // the conversions' specs and widths; "" when not modelled
	}{
		{"scanf", "%d", true, false, []*Type{p(32, true)}, LP64, "%d/32"},
		{"__isoc99_scanf", " %d %u\n", true, false, []*Type{p(32, true), p(32, false)}, LP64, "%d/32 %u/32"},
		{"scanf", "%hhu%hd%lx%llo%i%X", true, false, []*Type{p(8, false), p(16, true), p(64, false), p(64, false), p(32, true), p(32, false)}, LP64, "%hhu/8 %hd/16 %lx/64 %llo/64 %i/32 %X/32"},
		{"scanf", "%ld %zu", true, false, []*Type{p(32, true), p(32, false)}, ILP32, "%ld/32 %zu/32"},
		{"scanf", "%ld", true, false, []*Type{p(32, true)}, LP64, ""},            // long is 64 bits
		{"scanf", "%d", true, false, []*Type{p(16, true)}, LP64, ""},             // a short for %d
		{"scanf", "%d", true, false, []*Type{PointerTo(BoolType, 64)}, LP64, ""}, // not an integer of its width
		{"scanf", "%d", true, false, []*Type{IntT}, LP64, ""},                    // not a pointer
		{"scanf", "%d", false, false, []*Type{p(32, true)}, LP64, ""},            // not a literal
		{"scanf", "%d,%d", true, false, []*Type{p(32, true), p(32, true)}, LP64, ""},
		{"scanf", "%3d", true, false, []*Type{p(32, true)}, LP64, ""},
		{"scanf", "%*d %d", true, false, []*Type{p(32, true)}, LP64, ""},
		{"scanf", "%c", true, false, []*Type{p(8, true)}, LP64, ""},
		{"scanf", "%s", true, false, []*Type{PointerTo(CharType, 64)}, LP64, ""},
		{"scanf", "%d%%", true, false, []*Type{p(32, true)}, LP64, ""},
		{"scanf", "%d %d", true, false, []*Type{p(32, true)}, LP64, ""}, // too few arguments
		{"scanf", " ", true, false, nil, LP64, ""},
		{"fscanf", "%d", true, true, []*Type{p(32, true)}, LP64, "%d/32"},
		{"__isoc99_fscanf", "%hd %d", true, true, []*Type{p(16, true), p(32, true)}, LP64, "%hd/16 %d/32"},
		{"fscanf", "%d", true, false, []*Type{p(32, true)}, LP64, ""}, // another stream
		{"sscanf", "%d", true, true, []*Type{p(32, true)}, LP64, ""},
		{"scanf", "%d", true, true, []*Type{p(32, true)}, LP64, "%d/32"}, // scanf has no stream to ask about
	} {
		convs, ok := ScanfCall(tc.name, tc.stdin, tc.format, tc.lit, tc.args, tc.dm)
		var got []string
		for _, c := range convs {
			got = append(got, c.Spec+"/"+strconv.Itoa(c.Bits))
		}
		if g := strings.Join(got, " "); g != tc.want || ok != (tc.want != "") {
			t.Errorf("ScanfCall(%s, %q) = %q, %v; want %q", tc.name, tc.format, g, ok, tc.want)
		}
	}
	for _, src := range []string{"scanf", "scanf %d", "scanf %hhx", "scanf end"} {
		if !IsScanf(src) || IsStdinRead(src) || IsInputFunc(src) {
			t.Errorf("%q: IsScanf %v, IsStdinRead %v, IsInputFunc %v", src, IsScanf(src), IsStdinRead(src), IsInputFunc(src))
		}
	}
}
