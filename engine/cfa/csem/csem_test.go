package csem

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

var (
	schar  = cfa.CharType
	uchar  = cfa.UCharType
	short  = cfa.ShortType
	ushort = cfa.IntType(16, false)
	sint   = cfa.IntT
	uint_  = cfa.UIntType
	ll     = cfa.LLType
	ull    = cfa.ULLType
	bool_  = cfa.BoolType
)

func u(v int64) uint64 { return uint64(v) }

func TestConvert(t *testing.T) {
	tests := []struct {
		name     string
		v        uint64
		from, to *cfa.Type
		want     int64 // as a signed or unsigned value of to
	}{
		{"(signed char)200", 200, sint, schar, -56},
		{"(unsigned char)260", 260, sint, uchar, 4},
		{"(short)70000", 70000, sint, short, 4464},
		{"(unsigned short)-1", u(-1), sint, ushort, 65535},
		{"(unsigned)-1", u(-1), sint, uint_, 4294967295},
		{"(long long)-1", u(-1) & 0xffffffff, sint, ll, -1},
		{"(unsigned long long)(int)-1", u(-1) & 0xffffffff, sint, ull, -1},
		{"(long long)(unsigned)-1", 0xffffffff, uint_, ll, 4294967295},
		{"(int)(signed char)-1", 0xff, schar, sint, -1},
		{"(int)(unsigned char)255", 0xff, uchar, sint, 255},
		{"(_Bool)256", 256, sint, bool_, 1},
		{"(_Bool)0", 0, sint, bool_, 0},
		{"(_Bool)(char)-128", 0x80, schar, bool_, 1},
		{"(int)4294967296LL", 1 << 32, ll, sint, 0},
	}
	for _, tc := range tests {
		got := Convert(tc.v, tc.from, tc.to)
		if g := Signed(got, tc.to); tc.to.IsSigned() && g != tc.want || !tc.to.IsSigned() && got != cfa.Truncate(uint64(tc.want), tc.to.Width()) {
			t.Errorf("%s = %d (%#x), want %d", tc.name, g, got, tc.want)
		}
	}
}

func TestBinary(t *testing.T) {
	for _, tc := range BinaryTable() {
		x, y := cfa.Truncate(uint64(tc.X), tc.XT.Width()), cfa.Truncate(uint64(tc.Y), tc.YT.Width())
		got, ub := Binary(tc.Op, x, y, tc.XT, tc.YT, tc.RT)
		if ub != tc.UB {
			t.Errorf("%s: UB %v, want %v", tc.Name, ub, tc.UB)
			continue
		}
		if ub != NoUB {
			continue
		}
		want := cfa.Truncate(uint64(tc.Want), tc.RT.Width())
		if got != want {
			t.Errorf("%s = %d (%#x), want %d", tc.Name, Signed(got, tc.RT), got, tc.Want)
		}
	}
}

func TestUnary(t *testing.T) {
	if got := Signed(Unary(cfa.Neg, 0x80000000, sint, sint), sint); got != -2147483648 {
		t.Errorf("-INT_MIN = %d", got)
	}
	if got := Unary(cfa.BNot, 0, uint_, uint_); got != 0xffffffff {
		t.Errorf("~0U = %#x", got)
	}
	if got := Unary(cfa.LNot, 0, sint, sint); got != 1 {
		t.Errorf("!0 = %d", got)
	}
	if got := Unary(cfa.LNot, 0x100000000, ll, sint); got != 0 {
		t.Errorf("!(1LL<<32) = %d", got)
	}
}
