package csem

import (
	"math"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

func TestSignedOverflow(t *testing.T) {
	tests := []struct {
		name string
		op   cfa.BinaryOp
		x, y int64
		t    *cfa.Type
		want bool
	}{
		{"INT_MAX+1", cfa.Add, math.MaxInt32, 1, sint, true},
		{"INT_MAX+0", cfa.Add, math.MaxInt32, 0, sint, false},
		{"INT_MIN+-1", cfa.Add, math.MinInt32, -1, sint, true},
		{"INT_MIN-1", cfa.Sub, math.MinInt32, 1, sint, true},
		{"-1-INT_MAX", cfa.Sub, -1, math.MaxInt32, sint, false},
		{"0-INT_MIN", cfa.Sub, 0, math.MinInt32, sint, true},
		{"65536*65536", cfa.Mul, 65536, 65536, sint, true},
		{"46340*46340", cfa.Mul, 46340, 46340, sint, false},
		{"46341*46341", cfa.Mul, 46341, 46341, sint, true},
		{"-1*INT_MIN", cfa.Mul, -1, math.MinInt32, sint, true},
		{"LLONG_MAX+1", cfa.Add, math.MaxInt64, 1, ll, true},
		{"LLONG_MIN*1", cfa.Mul, math.MinInt64, 1, ll, false},
		{"LLONG_MIN*-1", cfa.Mul, math.MinInt64, -1, ll, true},
		{"UINT_MAX+1 (unsigned wraps)", cfa.Add, -1, 1, uint_, false},
		{"0U-1U", cfa.Sub, 0, 1, uint_, false},
		{"INT_MAX/1 (not + - *)", cfa.Div, math.MaxInt32, 1, sint, false},
		{"INT_MAX<<1 (shifts are not checked)", cfa.Shl, math.MaxInt32, 1, sint, false},
	}
	for _, tt := range tests {
		got := SignedOverflow(tt.op, u(tt.x), u(tt.y), tt.t, tt.t, tt.t)
		if got != tt.want {
			t.Errorf("%s: SignedOverflow = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestNegOverflow(t *testing.T) {
	tests := []struct {
		x    int64
		t    *cfa.Type
		want bool
	}{
		{math.MinInt32, sint, true},
		{math.MinInt32 + 1, sint, false},
		{0, sint, false},
		{math.MinInt64, ll, true},
		{math.MinInt32, uint_, false}, // unsigned negation wraps
	}
	for _, tt := range tests {
		if got := NegOverflow(u(tt.x), tt.t, tt.t); got != tt.want {
			t.Errorf("-(%s)%d: NegOverflow = %v, want %v", tt.t, tt.x, got, tt.want)
		}
	}
}
