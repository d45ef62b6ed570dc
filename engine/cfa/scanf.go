package cfa

import "strings"

// The Sources of the Havocs of EmitScanf: the number a call of scanf
// returns (ScanfSource), each converted value (ScanfSource, a space and
// its conversion specification: "scanf %d", "scanf %lx"), and, when a
// call converts fewer values than its format asks for and at least
// one, how the next conversion fails (ScanfEndSource: 0, a character no
// numeric conversion accepts; 1, the end of the input).
const (
	ScanfSource    = "scanf"
	ScanfEndSource = "scanf end"
)

// IsScanf reports whether source, the Source of a Havoc, is one of
// EmitScanf's.
func IsScanf(source string) bool {
	return source == ScanfSource || source == ScanfEndSource || strings.HasPrefix(source, ScanfSource+" %")
}

// A ScanfConv is one conversion of a scanf format that EmitScanf
// models: a numeric conversion without assignment suppression or field
// width.
type ScanfConv struct {
	Spec string // the specification as written, ending in its verb: "%d", "%hhu", "%lx"
	Bits int    // the width of the integer it stores, by its length modifier
}

// ScanfStream reports whether name is fscanf (C11 7.21.6.2; glibc
// names it __isoc99_fscanf), whose first argument is the stream and
// whose format follows it, rather than scanf, whose format is the first.
func ScanfStream(name string) bool {
	return name == "fscanf" || name == "__isoc99_fscanf"
}

// ScanfCall reports whether a call of the function name without a body,
// with the format string literal format (ok: the format argument is
// one) and arguments of the types args (after the format), is a call of
// scanf (C11 7.21.6.4; glibc names it __isoc99_scanf), or of fscanf on
// stdin (onStdin: its stream argument is stdin; ScanfStream), which is
// scanf (C11 7.21.6.4: "equivalent to fscanf with the argument stdin"),
// that EmitScanf models, and returns the format's conversions: every
// directive is a whitespace or a numeric conversion (d, i, u, x, X, o)
// with an optional length modifier (hh, h, l, ll, j, z, t) and no field
// width or assignment suppression, there is at least one, and each
// argument points to an integer type (not _Bool) of the width its
// length modifier gives under dm. Formats with other directives (ordinary
// characters, %c, %s, %[, %n, %f, %%, widths) stay unmodelled calls,
// which is sound.
func ScanfCall(name string, onStdin bool, format string, ok bool, args []*Type, dm DataModel) ([]ScanfConv, bool) {
	isScanf := name == "scanf" || name == "__isoc99_scanf"
	if !ok || !isScanf && !(ScanfStream(name) && onStdin) {
		return nil, false
	}
	return scanfConvs(format, "diuxXo", args, dm)
}

// SscanfCall reports whether a call of sscanf (C11 7.21.6.7; glibc
// names it __isoc99_sscanf) without a body, with the format string
// literal format (ok: the format argument is one) and arguments of the
// types args (after the format), is one EmitSscanf models, and returns
// the format's conversions: as ScanfCall's, with the decimal
// conversions d and u only (x, o and i read prefixes).
func SscanfCall(name, format string, ok bool, args []*Type, dm DataModel) ([]ScanfConv, bool) {
	if !ok || name != "sscanf" && name != "__isoc99_sscanf" {
		return nil, false
	}
	return scanfConvs(format, "du", args, dm)
}

// scanfConvs parses format for ScanfCall and SscanfCall: whitespace and
// conversions with one of verbs.
func scanfConvs(format, verbs string, args []*Type, dm DataModel) ([]ScanfConv, bool) {
	var convs []ScanfConv
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == ' ' || c >= '\t' && c <= '\r' {
			continue
		}
		if c != '%' {
			return nil, false
		}
		j := i + 1
		bits := 32
		for _, m := range []struct {
			mod  string
			bits int
		}{{"hh", 8}, {"h", 16}, {"ll", 64}, {"l", dm.PointerBits()}, {"j", 64}, {"z", dm.PointerBits()}, {"t", dm.PointerBits()}} {
			if strings.HasPrefix(format[j:], m.mod) {
				j += len(m.mod)
				bits = m.bits
				break
			}
		}
		if j >= len(format) || !strings.ContainsRune(verbs, rune(format[j])) {
			return nil, false
		}
		convs = append(convs, ScanfConv{Spec: format[i : j+1], Bits: bits})
		i = j
	}
	if len(convs) == 0 || len(convs) != len(args) {
		return nil, false
	}
	for k, t := range args {
		if t == nil || t.Kind != Pointer || t.Elem == nil || t.Elem.Kind != Int || t.Elem.Bits != convs[k].Bits {
			return nil, false
		}
	}
	return convs, true
}

// EmitScanf emits, into b, the model of a call of scanf whose format
// has the conversions convs (ScanfCall), args the pointers after the
// format, its result stored into res (int). It follows glibc's
// vfscanf (C11 7.21.6.2): a numeric conversion skips whitespace, then
// reads a number; the call returns the number of values it stored, or
// EOF when the input ends before the first conversion.
//
// With the standard input's state (StdinState, shared with getchar and
// the other byte reads):
//   - StdinStuck (an earlier conversion failed on a character no
//     numeric conversion accepts, which stays unread): it stores nothing
//     and returns 0;
//   - StdinAtEOF: it returns EOF;
//   - else the result k is an input in [EOF, len(convs)]: EOF sets the
//     end-of-file state; otherwise the first k pointees get inputs of
//     their types (every value of the type is the value of some text:
//     its decimal, hexadecimal or octal digits) and the others keep
//     their values; when 0 < k < len(convs) the next conversion met
//     either a character it does not accept (StdinStuck) or the end of
//     the input (StdinAtEOF), an input (ScanfEndSource); when k = 0 only
//     the character (the end of the input before the first conversion
//     returns EOF); when every conversion stored, the state is
//     StdinScanned (what follows the last number is not modelled, so
//     that a later byte read is an unsupported construct: StdinRead).
//
// Every execution the model admits is one glibc's scanf has on some
// input, and the reproducer writes that input (engine/witness/reproduce:
// the values' digits separated by spaces, "?" where a conversion fails,
// nothing after the end): the values are read in order, and a stuck
// character fails every later numeric conversion.
func EmitScanf(b InputBuilder, res Expr, args []Expr, convs []ScanfConv) {
	st := b.StdinState()
	n := int64(len(convs))
	is := func(x Expr, v int64) Expr { return &Binary{Op: Eq, X: x, Y: NewConst(IntT, v), T: IntT} }
	set := func(v int64) { b.Op(&Assign{LHS: st, RHS: NewConst(IntT, v)}) }
	rt := res.Type()
	b.If(is(st, StdinStuck), func() {
		b.Op(&Assign{LHS: res, RHS: NewConst(rt, 0)})
	}, func() {
		b.If(is(st, StdinAtEOF), func() {
			b.Op(&Assign{LHS: res, RHS: NewConst(rt, -1)})
		}, func() {
			k := b.Temp(IntT)
			b.Op(&Havoc{LHS: k, Source: ScanfSource})
			b.Assume(&Binary{Op: LAnd,
				X: &Binary{Op: Ge, X: k, Y: NewConst(IntT, -1), T: IntT},
				Y: &Binary{Op: Le, X: k, Y: NewConst(IntT, n), T: IntT}, T: IntT})
			b.If(is(k, -1), func() { set(StdinAtEOF) }, func() {
				for j, c := range convs {
					p := args[j]
					b.If(&Binary{Op: Gt, X: k, Y: NewConst(IntT, int64(j)), T: IntT}, func() {
						v := b.Temp(p.Type().Elem)
						b.Op(&Havoc{LHS: v, Source: ScanfSource + " " + c.Spec})
						b.Op(&Assign{LHS: &Deref{X: p, T: p.Type().Elem}, RHS: v})
					}, nil)
				}
				b.If(is(k, n), func() { set(StdinScanned) }, func() {
					b.If(is(k, 0), func() { set(StdinStuck) }, func() {
						e := b.Temp(IntT)
						b.Op(&Havoc{LHS: e, Source: ScanfEndSource})
						b.If(&Binary{Op: Ne, X: e, Y: NewConst(IntT, 0), T: IntT}, func() { set(StdinAtEOF) }, func() { set(StdinStuck) })
					})
				})
			})
			b.Op(&Assign{LHS: res, RHS: convInt(k, rt)})
		})
	})
}

// The functions of the sscanf model's helpers (engine/frontend/cmodel,
// the unit of the decimal conversions) that EmitSscanf calls.
const (
	SscanfBegin = "__reverify_sscanf_begin" // (const char *s): the string to read
	SscanfNum   = "__reverify_sscanf_num"   // (int kind) int: one conversion
	SscanfValue = "__reverify_sscanf_value" // () unsigned long long: its value
)

// EmitSscanf emits, into b, the model of a call of sscanf(str, format,
// args...) whose format has the conversions convs (SscanfCall), its
// result stored into res (int), with call emitting a call of one of the
// helpers (SscanfBegin, SscanfNum, SscanfValue) with its arguments and
// result lvalue (nil: none). It follows glibc's vfscanf (C11 7.21.6.2):
// each conversion is SscanfNum's, with kind 0 (strtol), 1 (strtoll), 2
// (strtoul) or 3 (strtoull) by its signedness and width: a 64-bit
// conversion is converted by strtoll or strtoull, which is what glibc's
// vfscanf does where long is narrower (need_longlong) and the same as
// strtol's where it is not; the value's low bits are stored, as glibc's
// casts of the long result do. A conversion that fails ends the call:
// the result is the number of values stored, or EOF when the string
// ended before the first conversion. White space in the format is
// skipped before each numeric conversion anyway, so the format's white
// space has no effect of its own.
func EmitSscanf(b InputBuilder, res Expr, str Expr, args []Expr, convs []ScanfConv, call func(fn string, args []Expr, result Expr)) {
	call(SscanfBegin, []Expr{str}, nil)
	var step func(j int)
	step = func(j int) {
		kind := int64(0)
		if convs[j].Bits == 64 {
			kind = 1
		}
		if c := convs[j].Spec; c[len(c)-1] == 'u' {
			kind += 2
		}
		k := b.Temp(IntT)
		call(SscanfNum, []Expr{NewConst(IntT, kind)}, k)
		b.If(&Binary{Op: Eq, X: k, Y: NewConst(IntT, 1), T: IntT}, func() {
			v := b.Temp(IntType(64, false))
			call(SscanfValue, nil, v)
			p := args[j]
			b.Op(&Assign{LHS: &Deref{X: p, T: p.Type().Elem}, RHS: convInt(v, p.Type().Elem)})
			if j+1 < len(convs) {
				step(j + 1)
			} else {
				b.Op(&Assign{LHS: res, RHS: NewConst(res.Type(), int64(len(convs)))})
			}
		}, func() {
			if j == 0 {
				b.Op(&Assign{LHS: res, RHS: convInt(k, res.Type())}) // -1 (EOF) or 0
			} else {
				b.Op(&Assign{LHS: res, RHS: NewConst(res.Type(), int64(j))})
			}
		})
	}
	step(0)
}
