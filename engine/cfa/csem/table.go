package csem

import "github.com/reverify/reverify/engine/cfa"

// BinaryCase is one row of the C binary-operator reference table.
type BinaryCase struct {
	Name       string
	Op         cfa.BinaryOp
	X, Y       int64
	XT, YT, RT *cfa.Type
	Want       int64
	UB         UB
}

// BinaryTable returns the reference table of C binary operations (gcc -O0
// -fwrapv on x86 with the UB rules of this package). It is exported so
// that the symbolic encoding (engine/smt) is tested against the very same
// expectations. Operands are given as signed values of their types; Want
// is the result as a value of RT.
func BinaryTable() []BinaryCase {
	i, ui := cfa.IntT, cfa.UIntType
	l, ul := cfa.LLType, cfa.ULLType
	const intMin, intMax = -2147483648, 2147483647
	return []BinaryCase{
		{"-7/2", cfa.Div, -7, 2, i, i, i, -3, NoUB},
		{"-7%2", cfa.Rem, -7, 2, i, i, i, -1, NoUB},
		{"7%-2", cfa.Rem, 7, -2, i, i, i, 1, NoUB},
		{"7/-2", cfa.Div, 7, -2, i, i, i, -3, NoUB},
		{"-7/-2", cfa.Div, -7, -2, i, i, i, 3, NoUB},
		{"-7%-2", cfa.Rem, -7, -2, i, i, i, -1, NoUB},
		{"7U/2U", cfa.Div, 7, 2, ui, ui, ui, 3, NoUB},
		{"(unsigned)-7/2U", cfa.Div, -7, 2, ui, ui, ui, 2147483644, NoUB},
		{"(unsigned)-7%2U", cfa.Rem, -7, 2, ui, ui, ui, 1, NoUB},
		{"INT_MAX+1", cfa.Add, intMax, 1, i, i, i, intMin, NoUB},
		{"INT_MIN-1", cfa.Sub, intMin, 1, i, i, i, intMax, NoUB},
		{"INT_MAX*2", cfa.Mul, intMax, 2, i, i, i, -2, NoUB},
		{"65536*65536", cfa.Mul, 65536, 65536, i, i, i, 0, NoUB},
		{"0U-1U", cfa.Sub, 0, 1, ui, ui, ui, 4294967295, NoUB},
		{"LLONG_MAX+1", cfa.Add, 9223372036854775807, 1, l, l, l, -9223372036854775808, NoUB},
		{"(unsigned)-1>>31", cfa.Shr, -1, 31, ui, i, ui, 1, NoUB},
		{"-8>>1", cfa.Shr, -8, 1, i, i, i, -4, NoUB},
		{"-1>>31", cfa.Shr, -1, 31, i, i, i, -1, NoUB},
		{"1<<31", cfa.Shl, 1, 31, i, i, i, intMin, NoUB},
		{"-1<<1", cfa.Shl, -1, 1, i, i, i, -2, NoUB},
		{"3<<30", cfa.Shl, 3, 30, i, i, i, intMin + (1 << 30), NoUB},
		{"1LL<<63", cfa.Shl, 1, 63, l, i, l, -9223372036854775808, NoUB},
		{"1ULL<<40 (unsigned count)", cfa.Shl, 1, 40, ul, ui, ul, 1 << 40, NoUB},
		{"1<<32", cfa.Shl, 1, 32, i, i, i, 0, ShiftCount},
		{"1<<-1", cfa.Shl, 1, -1, i, i, i, 0, ShiftCount},
		{"1>>32U", cfa.Shr, 1, 32, i, ui, i, 0, ShiftCount},
		{"1LL<<64", cfa.Shl, 1, 64, l, i, l, 0, ShiftCount},
		{"x/0", cfa.Div, 5, 0, i, i, i, 0, DivByZero},
		{"x%0", cfa.Rem, 5, 0, i, i, i, 0, DivByZero},
		{"xU/0U", cfa.Div, 5, 0, ui, ui, ui, 0, DivByZero},
		{"INT_MIN/-1", cfa.Div, intMin, -1, i, i, i, 0, DivOverflow},
		{"INT_MIN%-1", cfa.Rem, intMin, -1, i, i, i, 0, DivOverflow},
		{"LLONG_MIN/-1", cfa.Div, -9223372036854775808, -1, l, l, l, 0, DivOverflow},
		{"(unsigned)INT_MIN/(unsigned)-1", cfa.Div, intMin, -1, ui, ui, ui, 0, NoUB},
		{"INT_MIN/1", cfa.Div, intMin, 1, i, i, i, intMin, NoUB},
		{"-1 < 0", cfa.Lt, -1, 0, i, i, i, 1, NoUB},
		{"(unsigned)-1 < 0U", cfa.Lt, -1, 0, ui, ui, i, 0, NoUB},
		{"-1 >= 1", cfa.Ge, -1, 1, i, i, i, 0, NoUB},
		{"(unsigned)-1 > 1U", cfa.Gt, -1, 1, ui, ui, i, 1, NoUB},
		{"3 <= 3", cfa.Le, 3, 3, i, i, i, 1, NoUB},
		{"3 == 3", cfa.Eq, 3, 3, i, i, i, 1, NoUB},
		{"3 != 3", cfa.Ne, 3, 3, i, i, i, 0, NoUB},
		{"0xf0 & 0x3c", cfa.And, 0xf0, 0x3c, i, i, i, 0x30, NoUB},
		{"0xf0 | 0x0f", cfa.Or, 0xf0, 0x0f, i, i, i, 0xff, NoUB},
		{"-1 ^ 1", cfa.Xor, -1, 1, i, i, i, -2, NoUB},
		// unsigned char arithmetic after promotion to int
		{"(int)(uchar)250 + (int)(uchar)10", cfa.Add, 250, 10, i, i, i, 260, NoUB},
		{"(int)(uchar)255 + 1 == 0", cfa.Eq, 256, 0, i, i, i, 0, NoUB},
		{"(int)(uchar)0 - (int)(uchar)1", cfa.Sub, 0, 1, i, i, i, -1, NoUB},
		{"(int)(uchar)200 * (int)(uchar)200", cfa.Mul, 200, 200, i, i, i, 40000, NoUB},
	}
}
