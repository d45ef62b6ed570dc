package difftest

import (
	"fmt"
	"math/rand"
	"strings"
)

// Options select the constructs a generated program may contain.
type Options struct {
	// Nondet lets the program read __VERIFIER_nondet_* inputs.
	Nondet bool
	// Extern lets main call functions without a body (declared extern;
	// a benign and an adversarial body are linked only in gcc's runs).
	Extern bool
	// BitFields gives struct S two bit-fields (which the SMT encoding
	// does not support yet: they make FALSE verdicts rare).
	BitFields bool

	// The options below draw random numbers only when they are on, so
	// that a program generated without them is the one it always was.

	// Layout adds struct L, whose layout is not the default one: packed
	// (`__attribute__((packed))`, GCC manual "Common Type Attributes"),
	// completed under `#pragma pack(N)`, N in 1, 2, 4 ("Structure-Layout
	// Pragmas"), or with a member `__attribute__((aligned(8|16)))`
	// ("Common Variable Attributes"), or packed or packed to N with such
	// a member. Its members are read and written (gl, main's copy ll;
	// never through pointers), and checkpoints take `sizeof`,
	// `offsetof` (C11 7.19), `_Alignof` (C11 6.5.3.4) and member bytes
	// of its object representation (memcpy into an unsigned char array,
	// C11 6.2.6.1p4).
	Layout bool
	// WideShift adds shifts of 64-bit operands by counts 0..63 and of
	// 32-bit ones by 0..31 (C11 6.5.7: defined while the count is below
	// the promoted left operand's width; left shifts stay unsigned).
	WideShift bool
	// WideBits gives struct S two bit-fields of long long type, b2
	// (unsigned long long, 20 to 63 bits) and b3 (long long, 8 to 63
	// bits): a GCC extension (C11 6.7.2.1p5, "implementation-defined
	// type"); gcc computes with a field wider than int in its own width
	// (`s.b2 + 1` wraps at 2^w) and promotes a narrower one to int.
	WideBits bool
	// Startup adds functions that run before and after main: one or two
	// `__attribute__((constructor))` functions (some with a priority in
	// 101..65535, GCC manual "Common Function Attributes") that write
	// globals, and one or two functions registered with atexit (C11
	// 7.22.4.2) that write a global and hold a checkpoint of their own;
	// main then ends with exit(0), so that its locals, whose addresses
	// the program takes, still live while they run (C11 7.22.4.4).
	Startup bool
	// Volatile adds volatile globals without an initialiser that main
	// reads and never writes: reverify reads any value there (an input,
	// which a reproducer supplies), gcc's runs read 0.
	Volatile bool
	// ExternObj adds objects declared extern that the program does not
	// define (`extern int cfg_value3;`), read by main and the helpers:
	// inputs for reverify; gcc's runs link a benign definition (0) and an
	// adversarial one (nonzero) with the bodies of the external
	// functions. The definitions are weak, so that a reproducer, built
	// with the benign bodies, links its own (the counterexample's
	// values) over them.
	ExternObj bool
	// Stdin lets statements read an int from standard input with
	// `scanf("%d", &rv_in)` and store it when the call converts it
	// (C11 7.21.6.4): inputs for reverify (engine/cfa's scanf model),
	// the input vector's numbers as text on gcc's standard input.
	Stdin bool
	// Convert adds statements that convert a string literal to an
	// integer with atoi, strtol or strtoul (base 10), or read one with
	// sscanf("%d"), and store the result (C11 7.22.1.2, 7.22.1.4,
	// 7.21.6.7): digits, signs, white space, letters and numbers beyond
	// the types' ranges (engine/frontend/cmodel's models; gcc's runs
	// call glibc).
	Convert bool
	// Env lets statements read an environment variable RV_ENV0..RV_ENV2
	// with getenv (C11 7.22.4.6) and store what it holds:
	// `{ const char *rv_e = getenv("RV_ENV1"); x = rv_e ? (rv_e[0] ?
	// rv_e[0] + (int)strlen(rv_e) : -1) : -2; }` (engine/cfa's getenv
	// model: inputs for reverify); gcc's runs get variables that the
	// input vector sets or leaves unset (inputEnv).
	Env bool
}

// OptionsFor derives the options of a seed: the four combinations of
// Nondet and Extern in turn, so that any run of consecutive seeds covers
// them all, and BitFields in every third group of four. The later
// options change with the group of four q = seed/4: Layout in odd
// groups, WideShift when q%3 != 0, WideBits when q%4 == 3, Startup when
// q%3 == 1, Volatile when q%5 is 1 or 3, ExternObj when q%5 >= 3, so
// Convert when q%7 == 2, so that any 420 consecutive groups meet every pattern these
// formulas allow, each under every combination of Nondet and Extern (not
// every pair of options: WideBits implies Layout, Startup and BitFields
// imply WideShift and exclude each other).
func OptionsFor(seed int64) Options {
	if seed < 0 {
		seed = -seed
	}
	m, q := seed%4, seed/4
	return Options{Nondet: m&1 != 0, Extern: m&2 != 0, BitFields: q%3 == 2,
		Layout: q%2 == 1, WideShift: q%3 != 0, WideBits: q%4 == 3, Startup: q%3 == 1,
		Volatile: q%5 == 1 || q%5 == 3, ExternObj: q%5 >= 3, Convert: q%7 == 2}
}

// cType is a C integer type the generator uses.
type cType struct {
	name   string // C spelling
	signed bool
	nondet string // suffix of its __VERIFIER_nondet_ function
}

var types = []*cType{
	{"signed char", true, "char"}, {"unsigned char", false, "uchar"},
	{"short", true, "short"}, {"unsigned short", false, "ushort"},
	{"int", true, "int"}, {"unsigned int", false, "uint"},
	{"long", true, "long"}, {"unsigned long", false, "ulong"},
	{"long long", true, "longlong"}, {"unsigned long long", false, "ulonglong"},
	{"_Bool", false, "bool"},
}

// The types of struct S's bit-fields b0 (unsigned int : 5) and b1
// (signed int : 3): what their values print as.
var (
	bitU = &cType{"unsigned int", false, "uint"}
	bitS = &cType{"int", true, "int"}
)

// nondetRet is the declared result type of each nondet function.
var nondetRet = map[string]string{
	"char": "char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
	"int": "int", "uint": "unsigned int", "long": "long", "ulong": "unsigned long",
	"longlong": "long long", "ulonglong": "unsigned long long", "bool": "_Bool",
}

// lvalue is an object the program may read and write; addressable ones
// live as long as main (globals, main's top-level locals, their array
// elements and struct fields).
type lvalue struct {
	text string
	t    *cType
}

type variable struct {
	name  string
	t     *cType
	array int  // > 0: an array of this many elements (a power of two)
	ro    bool // a loop counter: read only
}

type param struct {
	name string
	t    *cType
	ptr  bool // T *name: the function writes through it
}

type function struct {
	name   string
	ret    *cType
	params []param
}

// extern is a function without a body in the verified program.
type extern struct {
	name string
	kind byte   // 'r': T f(void); 'p': void f(T *); 'v': void f(void)
	t    *cType // the result type ('r') or pointee type ('p')
}

// check is a checkpoint in main: the value of an lvalue at that point.
type check struct {
	lv lvalue
}

// piece is a fragment of the program text: text, or a checkpoint.
type piece struct {
	text  string
	check int // -1: text
}

// Generated is a generated program before its values are known: source
// text with checkpoints, and the bodies of its external functions.
type Generated struct {
	Seed    int64
	Options Options
	pieces  []piece
	checks  []check
	// Benign and Adversarial define the external functions (empty
	// without Options.Extern): Benign does nothing and returns 0;
	// Adversarial writes every global, through every pointer it was
	// given (kept in static storage, so later calls write it again) and
	// returns a nonzero value.
	Benign, Adversarial string
	nondet              []string // suffixes used
	// exitChecks counts the checkpoints in the functions registered with
	// atexit: the last ones of checks, reached after main's.
	exitChecks int
}

type scope struct {
	vars    []*variable // visible variables, innermost last
	ptrs    []string    // pointer variables or parameters, by name
	ptrT    []*cType
	structs []string // struct accesses: "gs.", "ps->"
}

type gen struct {
	r       *rand.Rand
	opt     Options
	out     []piece
	ind     int
	globals []*variable
	fields  []*cType // of struct S
	funcs   []*function
	externs []*extern
	nondet  map[string]bool
	scanf   bool // a statement reads standard input (Options.Stdin)
	convert bool // a statement converts a string (Options.Convert)
	getenv  bool // a statement reads an environment variable (Options.Env)
	checks  []check
	loop    int // loop nesting
	depth   int // statement nesting
	uniq    int
	inMain  bool
	sc      *scope
	addrs   []lvalue // main: objects whose address may be taken
	gptr    string   // a global pointer, set at main's start
	gptrT   *cType
	rec     string // a recursive function T rec(int n, T acc)
	recT    *cType
	sfun    string // struct S sfun(struct S s, int k)

	// Options.WideBits: the widths of S's b2 and b3.
	w2, w3 int
	// Options.Layout: struct L's member types; main has declared its
	// copy ll.
	lfields []*cType
	llReady bool
	// Options.Volatile, Options.ExternObj: volatile globals and extern
	// objects without a definition, read only.
	volatiles, externObjs []*variable
	// Options.Startup: the functions registered with atexit.
	handlers []string
}

// specials emits a recursive function (at most 4 calls deep) and a
// function taking and returning struct S by value.
func (g *gen) specials() {
	g.rec, g.recT = g.name("rec"), g.typ()
	glob := g.globals[g.r.Intn(len(g.globals)-1)] // a scalar: the array is last
	g.emit("%s %s(int n, %s acc) {", g.recT.name, g.rec, g.recT.name)
	g.emit("\tif (n <= 0)\n\t\treturn acc;")
	g.emit("\treturn %s(n - 1, (%s)(acc * %d + %s));", g.rec, g.recT.name, 1+g.r.Intn(5), glob.name)
	g.emit("}")
	g.sfun = g.name("sf")
	g.emit("struct S %s(struct S s, int k) {", g.sfun)
	g.emit("\ts.f0 += k;\n\ts.f2 ^= s.f1;\n\tgs.f1 = s.f0;\n\treturn s;")
	g.emit("}")
}

// Generate returns the program of seed under opt; equal arguments give
// equal programs.
func Generate(seed int64, opt Options) *Generated {
	g := &gen{r: rand.New(rand.NewSource(seed)), opt: opt, nondet: map[string]bool{}}
	g.program()
	gp := &Generated{Seed: seed, Options: opt, pieces: g.out, checks: g.checks, exitChecks: len(g.handlers)}
	for s := range g.nondet {
		gp.nondet = append(gp.nondet, s)
	}
	sortStrings(gp.nondet)
	if opt.Extern {
		gp.Benign, gp.Adversarial = g.bodies()
	}
	for i, v := range g.externObjs {
		if gp.Benign == "" {
			gp.Benign = "/* Benign definitions: 0. */\n"
			gp.Adversarial = "/* Adversarial definitions: nonzero. */\n"
		}
		gp.Benign += fmt.Sprintf("__attribute__((weak)) %s %s = 0;\n", v.t.name, v.name)
		gp.Adversarial += fmt.Sprintf("__attribute__((weak)) %s %s = %s;\n", v.t.name, v.name, []string{"42", "-3"}[i%2])
	}
	return gp
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (g *gen) emit(format string, a ...any) {
	g.out = append(g.out, piece{text: strings.Repeat("\t", g.ind) + fmt.Sprintf(format, a...) + "\n", check: -1})
}

func (g *gen) name(prefix string) string {
	g.uniq++
	return fmt.Sprintf("%s%d", prefix, g.uniq)
}

func (g *gen) typ() *cType { return types[g.r.Intn(len(types))] }

func (g *gen) program() {
	if g.opt.Layout {
		g.emit("#include <stddef.h>\n#include <string.h>")
	}
	if g.opt.Startup {
		g.emit("#include <stdlib.h>")
	}
	// Globals: scalars, an array, a struct.
	for i, n := 0, 2+g.r.Intn(3); i < n; i++ {
		v := &variable{name: g.name("g"), t: g.typ()}
		g.globals = append(g.globals, v)
		g.emit("%s %s = %s;", v.t.name, v.name, g.constant())
	}
	arr := &variable{name: g.name("ga"), t: g.typ(), array: 4}
	g.globals = append(g.globals, arr)
	g.emit("%s %s[4] = {%s, %s, %s};", arr.t.name, arr.name, g.constant(), g.constant(), g.constant())
	for i := 0; i < 3; i++ {
		g.fields = append(g.fields, g.typ())
	}
	if g.opt.WideBits {
		g.w2 = []int{20, 31, 32, 33, 40, 48, 63}[g.r.Intn(7)]
		g.w3 = []int{8, 32, 33, 40, 63}[g.r.Intn(5)]
	}
	g.emit("%s", g.structDecl())
	init := []string{g.constant(), g.constant(), g.constant()}
	if g.opt.BitFields {
		init = append(init, g.constant(), g.constant())
	}
	if g.opt.WideBits {
		init = append(init, g.constant(), g.constant())
	}
	g.emit("struct S gs = {%s};", strings.Join(init, ", "))
	if g.opt.Layout {
		g.layoutDecl()
	}
	if g.opt.Volatile {
		for i, n := 0, 1+g.r.Intn(2); i < n; i++ {
			v := &variable{name: g.name("vol"), t: g.typ()}
			g.volatiles = append(g.volatiles, v)
			g.emit("volatile %s %s; /* read only: an input for reverify, 0 for gcc */", v.t.name, v.name)
		}
	}
	if g.opt.ExternObj {
		for i, n := 0, 1+g.r.Intn(2); i < n; i++ {
			v := &variable{name: g.name("cfg_value"), t: g.typ()}
			g.externObjs = append(g.externObjs, v)
			g.emit("extern %s %s; /* defined by benign.c and adversarial.c */", v.t.name, v.name)
		}
	}
	g.gptr, g.gptrT = g.name("gp"), g.typ()
	g.emit("%s *%s = 0; /* set first thing in main */", g.gptrT.name, g.gptr)
	if g.opt.Extern {
		for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
			e := &extern{name: g.name("ext"), kind: "rpv"[g.r.Intn(3)], t: g.typ()}
			g.externs = append(g.externs, e)
			switch e.kind {
			case 'r':
				g.emit("extern %s %s(void);", e.t.name, e.name)
			case 'p':
				g.emit("extern void %s(%s *p);", e.name, e.t.name)
			case 'v':
				g.emit("extern void %s(void);", e.name)
			}
		}
	}
	nondetAt := len(g.out)
	g.out = append(g.out, piece{check: -1}) // the nondet declarations, filled in at the end
	for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
		g.function()
	}
	g.specials()
	if g.opt.Startup {
		g.constructors()
		for i, n := 0, 1+g.r.Intn(2); i < n; i++ {
			h := g.name("at_exit")
			g.handlers = append(g.handlers, h)
			g.emit("static void %s(void);", h)
		}
	}
	g.mainFunc()
	for _, h := range g.handlers {
		g.handler(h)
	}
	var decl strings.Builder
	if g.scanf {
		decl.WriteString("extern int scanf(const char *, ...);\n")
	}
	if g.getenv {
		decl.WriteString("extern char *getenv(const char *);\nextern __SIZE_TYPE__ strlen(const char *);\n")
	}
	if g.convert {
		decl.WriteString("extern int atoi(const char *);\nextern long strtol(const char *, char **, int);\n" +
			"extern unsigned long strtoul(const char *, char **, int);\nextern int sscanf(const char *, const char *, ...);\n")
	}
	for _, s := range sortedKeys(g.nondet) {
		fmt.Fprintf(&decl, "extern %s __VERIFIER_nondet_%s(void);\n", nondetRet[s], s)
	}
	g.out[nondetAt].text = decl.String()
}

func sortedKeys(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sortStrings(s)
	return s
}

func (g *gen) globalScope() *scope {
	sc := &scope{structs: []string{"gs."}}
	sc.vars = append(sc.vars, g.globals...)
	if !g.inMain { // main sets it after its declarations
		sc.ptrs = append(sc.ptrs, g.gptr)
		sc.ptrT = append(sc.ptrT, g.gptrT)
	}
	return sc
}

// function generates a helper with a body: scalar and pointer
// parameters, locals, statements, a return.
func (g *gen) function() {
	f := &function{name: g.name("f"), ret: g.typ()}
	g.sc = g.globalScope()
	var ps []string
	for i, n := 0, g.r.Intn(4); i < n; i++ {
		p := param{name: g.name("a"), t: g.typ(), ptr: g.r.Intn(3) == 0}
		f.params = append(f.params, p)
		if p.ptr {
			ps = append(ps, fmt.Sprintf("%s *%s", p.t.name, p.name))
			g.sc.ptrs = append(g.sc.ptrs, p.name)
			g.sc.ptrT = append(g.sc.ptrT, p.t)
		} else {
			ps = append(ps, fmt.Sprintf("%s %s", p.t.name, p.name))
			g.sc.vars = append(g.sc.vars, &variable{name: p.name, t: p.t})
		}
	}
	if len(ps) == 0 {
		ps = []string{"void"}
	}
	g.emit("%s %s(%s) {", f.ret.name, f.name, strings.Join(ps, ", "))
	g.ind++
	for i, n := 0, g.r.Intn(3); i < n; i++ {
		v := &variable{name: g.name("l"), t: g.typ()}
		g.emit("%s %s = %s;", v.t.name, v.name, g.expr(2))
		g.sc.vars = append(g.sc.vars, v)
	}
	for i, n := 0, 1+g.r.Intn(4); i < n; i++ {
		g.stmt()
	}
	g.emit("return %s;", g.expr(2))
	g.ind--
	g.emit("}")
	g.funcs = append(g.funcs, f)
}

func (g *gen) mainFunc() {
	g.inMain = true
	g.sc = g.globalScope()
	g.emit("int main(void) {")
	g.ind++
	for _, v := range g.globals {
		if v.array > 0 {
			for i := 0; i < v.array; i++ {
				g.addrs = append(g.addrs, lvalue{fmt.Sprintf("%s[%d]", v.name, i), v.t})
			}
			continue
		}
		g.addrs = append(g.addrs, lvalue{v.name, v.t})
	}
	for i := range g.fields {
		g.addrs = append(g.addrs, lvalue{fmt.Sprintf("gs.f%d", i), g.fields[i]})
	}
	for i, n := 0, 2+g.r.Intn(4); i < n; i++ {
		v := &variable{name: g.name("x"), t: g.typ()}
		g.emit("%s %s = %s;", v.t.name, v.name, g.expr(2))
		g.sc.vars = append(g.sc.vars, v)
		g.addrs = append(g.addrs, lvalue{v.name, v.t})
	}
	if g.r.Intn(2) == 0 {
		v := &variable{name: g.name("la"), t: g.typ(), array: 4}
		g.emit("%s %s[4] = {%s, %s};", v.t.name, v.name, g.expr(1), g.expr(1))
		g.sc.vars = append(g.sc.vars, v)
		for i := 0; i < v.array; i++ {
			g.addrs = append(g.addrs, lvalue{fmt.Sprintf("%s[%d]", v.name, i), v.t})
		}
	}
	g.emit("struct S ls = gs;")
	if g.opt.Layout {
		g.emit("struct L ll = gl;")
		g.llReady = true
		// Not lb[sizeof(struct L)]: an array length from a layout that
		// is not cc/v4's own is unsupported (doc/semantics.md).
		g.emit("unsigned char lb[64]; /* >= sizeof(struct L) */")
	}
	for _, h := range g.handlers {
		g.emit("atexit(%s);", h)
	}
	g.sc.structs = append(g.sc.structs, "ls.", "ps->")
	g.emit("struct S *ps = &%s;", []string{"gs", "ls"}[g.r.Intn(2)])
	for i := range g.fields {
		g.addrs = append(g.addrs, lvalue{fmt.Sprintf("ls.f%d", i), g.fields[i]})
	}
	g.emit("%s = &%s;", g.gptr, g.sameType(g.gptrT))
	g.sc.ptrs = append(g.sc.ptrs, g.gptr)
	g.sc.ptrT = append(g.sc.ptrT, g.gptrT)
	for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
		target := g.addrs[g.r.Intn(len(g.addrs))]
		p := g.name("p")
		g.emit("%s *%s = &%s;", target.t.name, p, target.text)
		g.sc.ptrs = append(g.sc.ptrs, p)
		g.sc.ptrT = append(g.sc.ptrT, target.t)
	}
	for i, n := 0, 3+g.r.Intn(6); i < n; i++ {
		for j, m := 0, 1+g.r.Intn(3); j < m; j++ {
			g.stmt()
		}
		g.checkpoint()
	}
	g.checkpoint()
	if len(g.handlers) > 0 {
		g.emit("exit(0);")
	} else {
		g.emit("return 0;")
	}
	g.ind--
	g.emit("}")
	g.inMain = false
}

// sameType returns an object of main's lifetime of type t, declaring a
// local one when there is none.
func (g *gen) sameType(t *cType) string {
	var same []string
	for _, a := range g.addrs {
		if a.t == t {
			same = append(same, a.text)
		}
	}
	if len(same) > 0 {
		return same[g.r.Intn(len(same))]
	}
	v := &variable{name: g.name("x"), t: t}
	g.emit("%s %s = %s;", t.name, v.name, g.expr(1))
	g.sc.vars = append(g.sc.vars, v)
	g.addrs = append(g.addrs, lvalue{v.name, t})
	return v.name
}

// twoPlain returns two distinct writable scalar variables (not reached
// through pointers, so that they cannot alias).
func (g *gen) twoPlain() (string, string, bool) {
	var plain []*variable
	for _, v := range g.sc.vars {
		if !v.ro && v.array == 0 {
			plain = append(plain, v)
		}
	}
	if len(plain) < 2 {
		return "", "", false
	}
	i := g.r.Intn(len(plain))
	j := (i + 1 + g.r.Intn(len(plain)-1)) % len(plain)
	return plain[i].name, plain[j].name, true
}

// structDecl declares struct S: three fields of random types and two
// bit-fields.
func (g *gen) structDecl() string {
	bits := ""
	if g.opt.BitFields {
		bits = " unsigned int b0 : 5; signed int b1 : 3;"
	}
	if g.opt.WideBits {
		bits += fmt.Sprintf(" unsigned long long b2 : %d; long long b3 : %d;", g.w2, g.w3)
	}
	return fmt.Sprintf("struct S { %s f0; %s f1; %s f2;%s };", g.fields[0].name, g.fields[1].name, g.fields[2].name, bits)
}

// field returns a struct member access: a field or a bit-field.
func (g *gen) field() string {
	if g.opt.Layout && g.r.Intn(5) == 0 {
		return g.layoutField()
	}
	p := g.sc.structs[g.r.Intn(len(g.sc.structs))]
	if g.opt.WideBits && g.r.Intn(3) == 0 {
		return fmt.Sprintf("%sb%d", p, 2+g.r.Intn(2))
	}
	if g.opt.BitFields && g.r.Intn(3) == 0 {
		return fmt.Sprintf("%sb%d", p, g.r.Intn(2))
	}
	return fmt.Sprintf("%sf%d", p, g.r.Intn(len(g.fields)))
}

// checkpoint records the value of a random object at this point of main.
func (g *gen) checkpoint() {
	if g.opt.Layout && g.r.Intn(3) == 0 {
		g.layoutCheckpoint()
		return
	}
	lv := g.addrs[g.r.Intn(len(g.addrs))]
	if g.opt.WideBits && g.r.Intn(5) == 0 {
		s := []string{"gs.", "ls."}[g.r.Intn(2)]
		lv = lvalue{s + "b2", types[9]}
		if g.r.Intn(2) == 0 {
			lv = lvalue{s + "b3", types[8]}
		}
	}
	if g.opt.BitFields && g.r.Intn(6) == 0 {
		s := []string{"gs.", "ls."}[g.r.Intn(2)]
		lv = lvalue{s + "b0", bitU}
		if g.r.Intn(2) == 0 {
			lv = lvalue{s + "b1", bitS}
		}
	}
	if g.r.Intn(3) == 0 {
		for i, p := range g.sc.ptrs {
			if g.r.Intn(2) == 0 {
				lv = lvalue{"*" + p, g.sc.ptrT[i]}
				break
			}
		}
	}
	g.addCheck(lv)
}

// addCheck records a checkpoint on lv here.
func (g *gen) addCheck(lv lvalue) {
	g.checks = append(g.checks, check{lv})
	g.out = append(g.out, piece{text: strings.Repeat("\t", g.ind), check: len(g.checks) - 1})
}

// constant returns an integer literal, often a boundary value.
// numberText is the text of a string literal for Options.Convert: a
// number with white space and a sign around it, at times beyond every
// type's range, or other characters.
func (g *gen) numberText() string {
	var b strings.Builder
	for i, n := 0, g.r.Intn(3); i < n; i++ {
		b.WriteString([]string{" ", "\\t", "\\n"}[g.r.Intn(3)])
	}
	b.WriteString([]string{"", "", "-", "+", "+-", "x"}[g.r.Intn(6)])
	digits := g.r.Intn(12)
	if g.r.Intn(5) == 0 {
		digits = 19 + g.r.Intn(3)
	}
	for i := 0; i < digits; i++ {
		b.WriteByte(byte('0' + g.r.Intn(10)))
	}
	if g.r.Intn(3) == 0 {
		b.WriteString([]string{" 7", "x", "-3", "."}[g.r.Intn(4)])
	}
	return b.String()
}

func (g *gen) constant() string {
	edges := []string{"0", "1", "2", "-1", "3", "7", "-8", "100", "127", "128", "-128", "255", "256",
		"32767", "-32768", "65535", "0x7fffffff", "0x80000000U", "0xffffffffU", "-2147483647 - 1",
		"4294967296LL", "0x7fffffffffffffffLL", "0xffffffffffffffffULL", "10U", "1000L", "-5L"}
	switch g.r.Intn(3) {
	case 0:
		return edges[g.r.Intn(len(edges))]
	case 1:
		return fmt.Sprint(g.r.Intn(200) - 100)
	}
	return fmt.Sprintf("(%s)%d", g.typ().name, g.r.Int63n(1<<40)-(1<<39))
}

// read returns an rvalue naming an object in scope.
func (g *gen) read(depth int) string {
	sc := g.sc
	if len(g.volatiles) > 0 && g.inMain && g.r.Intn(8) == 0 {
		return g.volatiles[g.r.Intn(len(g.volatiles))].name
	}
	if len(g.externObjs) > 0 && g.r.Intn(8) == 0 {
		return g.externObjs[g.r.Intn(len(g.externObjs))].name
	}
	switch g.r.Intn(6) {
	case 0:
		if len(sc.ptrs) > 0 {
			return "*" + sc.ptrs[g.r.Intn(len(sc.ptrs))]
		}
	case 1:
		return g.field()
	}
	v := sc.vars[g.r.Intn(len(sc.vars))]
	if v.array > 0 {
		return fmt.Sprintf("%s[%s]", v.name, g.index(v.array, depth))
	}
	return v.name
}

// index returns an in-bounds index into an array of n elements (a power
// of two).
func (g *gen) index(n, depth int) string {
	if depth <= 0 || g.r.Intn(2) == 0 {
		return fmt.Sprint(g.r.Intn(n))
	}
	return fmt.Sprintf("(%s) & %d", g.expr(depth-1), n-1)
}

// expr returns a side-effect-free expression without undefined
// behaviour under gcc -fwrapv: divisors are never 0 or -1, shift counts
// are below 16 and left shifts are unsigned.
func (g *gen) expr(depth int) string {
	if depth <= 0 || g.r.Intn(4) == 0 {
		if g.r.Intn(3) == 0 {
			return g.constant()
		}
		return g.read(depth)
	}
	if g.opt.WideShift && g.r.Intn(6) == 0 {
		return g.wideShift(depth)
	}
	a, b := g.expr(depth-1), g.expr(depth-1)
	switch k := g.r.Intn(14); {
	case k < 5:
		return fmt.Sprintf("(%s %s %s)", a, []string{"+", "-", "*", "&", "|"}[k], b)
	case k == 5:
		return fmt.Sprintf("(%s ^ %s)", a, b)
	case k == 6:
		return fmt.Sprintf("(%s %s %s)", a, []string{"<", "<=", ">", ">=", "==", "!="}[g.r.Intn(6)], b)
	case k == 7:
		return fmt.Sprintf("(%s %s %s)", a, []string{"&&", "||"}[g.r.Intn(2)], b)
	case k == 8:
		return fmt.Sprintf("(%s(%s))", []string{"-", "~", "!"}[g.r.Intn(3)], a)
	case k == 9:
		return fmt.Sprintf("((%s)%s)", g.typ().name, a)
	case k == 10:
		op := []string{"/", "%"}[g.r.Intn(2)]
		return fmt.Sprintf("(%s %s ((%s) == 0 || (%s) == -1 ? 3 : (%s)))", a, op, b, b, b)
	case k == 11:
		if g.r.Intn(2) == 0 {
			return fmt.Sprintf("(%s >> ((%s) & 15))", a, b)
		}
		return fmt.Sprintf("((unsigned)(%s) << ((%s) & 15))", a, b)
	case k == 12:
		return fmt.Sprintf("(%s ? %s : %s)", g.expr(depth-1), a, b)
	}
	return a
}

// target returns an lvalue to assign: a writable variable, an array
// element, a struct field or a pointer's target.
func (g *gen) target() string {
	sc := g.sc
	switch g.r.Intn(5) {
	case 0:
		if len(sc.ptrs) > 0 {
			return "*" + sc.ptrs[g.r.Intn(len(sc.ptrs))]
		}
	case 1:
		return g.field()
	}
	for {
		v := sc.vars[g.r.Intn(len(sc.vars))]
		if v.ro {
			continue
		}
		if v.array > 0 {
			return fmt.Sprintf("%s[%s]", v.name, g.index(v.array, 1))
		}
		return v.name
	}
}

func (g *gen) block() {
	g.ind++
	g.depth++
	n := len(g.sc.vars)
	for i, m := 0, 1+g.r.Intn(3); i < m; i++ {
		g.stmt()
	}
	g.sc.vars = g.sc.vars[:n]
	g.depth--
	g.ind--
}

// stmt emits one statement.
func (g *gen) stmt() {
	k := g.r.Intn(20)
	if g.depth >= 2 && k >= 8 && k < 14 {
		k = 0
	}
	switch {
	case k < 5:
		g.emit("%s = %s;", g.target(), g.expr(3))
	case k < 8:
		g.emit("%s %s= %s;", g.target(), []string{"+", "-", "*", "&", "|", "^"}[g.r.Intn(6)], g.expr(2))
	case k < 9 && g.inMain && len(g.sc.ptrs) > 0:
		i := g.r.Intn(len(g.sc.ptrs))
		var same []lvalue
		for _, a := range g.addrs {
			if a.t == g.sc.ptrT[i] {
				same = append(same, a)
			}
		}
		if len(same) > 0 {
			g.emit("%s = &%s;", g.sc.ptrs[i], same[g.r.Intn(len(same))].text)
			return
		}
		g.emit("%s = %s;", g.target(), g.expr(2))
	case k < 10 && g.r.Intn(3) == 0:
		if g.inMain && g.r.Intn(3) == 0 {
			g.emit("%s", []string{"ls = gs;", "gs = ls;", "ls = *ps;", "*ps = ls;"}[g.r.Intn(4)])
			return
		}
		if g.r.Intn(3) == 0 {
			if x, y, ok := g.twoPlain(); ok {
				g.emit("%s = %s = %s;", x, y, g.expr(2))
				return
			}
		}
		if g.inMain && g.r.Intn(2) == 0 {
			g.emit("ps = &%s;", []string{"gs", "ls"}[g.r.Intn(2)])
			return
		}
		g.emit("(%s)%s;", g.target(), []string{"++", "--"}[g.r.Intn(2)])
	case k < 12 && g.r.Intn(4) == 0 && g.depth < 2:
		g.emit("switch ((%s) & 3) {", g.expr(2))
		g.emit("case 0:")
		g.block()
		g.emit("\tbreak;")
		g.emit("case 1:")
		g.block()
		g.emit("\t/* fall through */")
		g.emit("case 2:")
		g.block()
		g.emit("\tbreak;")
		g.emit("default:")
		g.block()
		g.emit("}")
	case k < 12 && g.r.Intn(4) == 0:
		// A side effect in the right operand of && or ||.
		if x, y, ok := g.twoPlain(); ok {
			g.emit("if (%s %s (%s = %s)) {", g.expr(1), []string{"&&", "||"}[g.r.Intn(2)], x, g.expr(2))
			g.block()
			g.emit("}")
			_ = y
			return
		}
		g.emit("%s = %s;", g.target(), g.expr(2))
	case k < 12:
		g.emit("if (%s) {", g.expr(2))
		g.block()
		if g.r.Intn(2) == 0 {
			g.emit("} else {")
			g.block()
		}
		g.emit("}")
	case k < 14:
		i := g.name("i")
		bound := 1 + g.r.Intn(4)
		if g.loop > 0 {
			bound = 1 + g.r.Intn(2)
		}
		while := g.r.Intn(3) == 0
		if while {
			g.emit("{ int %s = %d; while (%s-- > 0) {", i, bound, i)
		} else {
			g.emit("for (int %s = 0; %s < %d; %s++) {", i, i, bound, i)
		}
		g.sc.vars = append(g.sc.vars, &variable{name: i, t: types[4], ro: true})
		g.loop++
		if g.r.Intn(5) == 0 {
			g.ind++
			g.emit("if (%s) continue;", g.expr(1))
			g.ind--
		}
		g.block()
		if g.r.Intn(4) == 0 {
			g.ind++
			g.emit("if (%s) break;", g.expr(1))
			g.ind--
		}
		g.loop--
		g.sc.vars = g.sc.vars[:len(g.sc.vars)-1]
		if while {
			g.emit("} }")
		} else {
			g.emit("}")
		}
	case k < 16 && g.inMain && g.r.Intn(4) == 0:
		if g.r.Intn(2) == 0 {
			g.emit("%s = %s(%d, %s);", g.target(), g.rec, g.r.Intn(5), g.expr(2))
		} else {
			g.emit("%s = %s(%s, %s);", []string{"ls", "gs", "*ps"}[g.r.Intn(3)], g.sfun, []string{"ls", "gs", "*ps"}[g.r.Intn(3)], g.expr(1))
		}
	case k < 16 && g.r.Intn(5) == 0:
		if x, y, ok := g.twoPlain(); ok {
			g.emit("%s = (%s = %s, %s);", x, y, g.expr(2), g.expr(2))
			return
		}
		g.emit("%s = %s;", g.target(), g.expr(2))
	case k < 16 && len(g.funcs) > 0:
		g.call()
	case k < 17 && g.opt.Stdin && g.r.Intn(2) == 0:
		g.scanf = true
		g.emit("{ int rv_in; if (scanf(\"%%d\", &rv_in) == 1) %s = rv_in; }", g.target())
	case k < 17 && g.opt.Env && g.r.Intn(2) == 0:
		g.getenv = true
		g.emit("{ const char *rv_e = getenv(\"RV_ENV%d\"); %s = rv_e ? (rv_e[0] ? rv_e[0] + (int)strlen(rv_e) : -1) : -2; }", g.r.Intn(3), g.target())
	case k < 17 && g.opt.Convert && g.r.Intn(2) == 0:
		g.convert = true
		lit := g.numberText()
		switch g.r.Intn(4) {
		case 0:
			g.emit("%s = atoi(\"%s\");", g.target(), lit)
		case 1:
			g.emit("%s = strtol(\"%s\", 0, 10);", g.target(), lit)
		case 2:
			g.emit("%s = strtoul(\"%s\", 0, 10);", g.target(), lit)
		default:
			g.emit("{ int rv_cv = %d; int rv_n = sscanf(\"%s\", \"%%d\", &rv_cv); %s = rv_n == 1 ? rv_cv : rv_n; }", g.r.Intn(9), lit, g.target())
		}
	case k < 17 && g.opt.Nondet:
		t := g.typ()
		g.nondet[t.nondet] = true
		g.emit("%s = __VERIFIER_nondet_%s();", g.target(), t.nondet)
	case k < 19 && g.opt.Extern && g.inMain && g.loop == 0:
		e := g.externs[g.r.Intn(len(g.externs))]
		switch e.kind {
		case 'r':
			g.emit("%s = %s();", g.target(), e.name)
		case 'p':
			var same []lvalue
			for _, a := range g.addrs {
				if a.t == e.t {
					same = append(same, a)
				}
			}
			if len(same) == 0 {
				g.emit("%s = %s;", g.target(), g.expr(2))
				return
			}
			g.emit("%s(&%s);", e.name, same[g.r.Intn(len(same))].text)
		case 'v':
			g.emit("%s();", e.name)
		}
	default:
		g.emit("%s = %s;", g.target(), g.expr(2))
	}
}

// call emits a call of an earlier function; pointer arguments are
// addresses of objects that outlive the call.
func (g *gen) call() {
	f := g.funcs[g.r.Intn(len(g.funcs))]
	var args []string
	hasPtr := false
	for _, p := range f.params {
		if !p.ptr {
			args = append(args, g.expr(2))
			continue
		}
		hasPtr = true
		var cands []string
		if g.inMain {
			for _, a := range g.addrs {
				if a.t == p.t {
					cands = append(cands, "&"+a.text)
				}
			}
		} else {
			for _, v := range g.globals {
				if v.t == p.t && v.array == 0 {
					cands = append(cands, "&"+v.name)
				}
			}
		}
		for i, q := range g.sc.ptrs {
			if g.sc.ptrT[i] == p.t {
				cands = append(cands, q)
			}
		}
		if len(cands) == 0 {
			// No object of the parameter's type to point to.
			g.emit("%s = %s;", g.target(), g.expr(2))
			return
		}
		args = append(args, cands[g.r.Intn(len(cands))])
	}
	call := fmt.Sprintf("%s(%s)", f.name, strings.Join(args, ", "))
	if hasPtr || g.r.Intn(4) == 0 {
		g.emit("%s;", call)
		return
	}
	g.emit("%s = %s;", g.target(), call)
}

// bodies returns the benign and adversarial definitions of the external
// functions.
func (g *gen) bodies() (benign, adversarial string) {
	var decl strings.Builder
	for _, v := range g.globals {
		if v.array > 0 {
			fmt.Fprintf(&decl, "extern %s %s[%d];\n", v.t.name, v.name, v.array)
		} else {
			fmt.Fprintf(&decl, "extern %s %s;\n", v.t.name, v.name)
		}
	}
	fmt.Fprintf(&decl, "%s\nextern struct S gs;\nextern %s *%s;\n", g.structDecl(), g.gptrT.name, g.gptr)
	var b, a strings.Builder
	b.WriteString("/* Benign bodies: no effect, result 0. */\n")
	a.WriteString("/* Adversarial bodies: write every global and every pointer ever passed. */\n")
	a.WriteString(decl.String())
	for _, e := range g.externs {
		if e.kind == 'p' {
			fmt.Fprintf(&a, "static %s *kept_%s;\n", e.t.name, e.name)
		}
	}
	a.WriteString("static void havoc(void) {\n")
	for _, v := range g.globals {
		if v.array > 0 {
			fmt.Fprintf(&a, "\t%s[1] += 3;\n", v.name)
		} else {
			fmt.Fprintf(&a, "\t%s += 5;\n", v.name)
		}
	}
	a.WriteString("\tgs.f0 ^= 9;\n\tgs.f2 -= 1;\n")
	fmt.Fprintf(&a, "\tif (%s) *%s += 13;\n", g.gptr, g.gptr)
	for _, e := range g.externs {
		if e.kind == 'p' {
			fmt.Fprintf(&a, "\tif (kept_%s) *kept_%s += 11;\n", e.name, e.name)
		}
	}
	a.WriteString("}\n")
	for _, e := range g.externs {
		switch e.kind {
		case 'r':
			fmt.Fprintf(&b, "%s %s(void) { return 0; }\n", e.t.name, e.name)
			fmt.Fprintf(&a, "%s %s(void) { havoc(); return 42; }\n", e.t.name, e.name)
		case 'p':
			fmt.Fprintf(&b, "void %s(%s *p) { (void)p; }\n", e.name, e.t.name)
			fmt.Fprintf(&a, "void %s(%s *p) { havoc(); *p = *p * 3 + 1; kept_%s = p; }\n", e.name, e.t.name, e.name)
		case 'v':
			fmt.Fprintf(&b, "void %s(void) { }\n", e.name)
			fmt.Fprintf(&a, "void %s(void) { havoc(); }\n", e.name)
		}
	}
	return b.String(), a.String()
}

// layoutDecl declares struct L, with three or four members of random
// types, in one of six layouts, and its global gl, e.g.
//
//	#pragma pack(push, 2)
//	struct L { signed char m0; long long m1 __attribute__((aligned(8))); short m2; };
//	#pragma pack(pop)
//	struct L gl = {1, -8, 127};
func (g *gen) layoutDecl() {
	for i, n := 0, 3+g.r.Intn(2); i < n; i++ {
		g.lfields = append(g.lfields, g.typ())
	}
	kind := g.r.Intn(6)
	aligned := -1 // the member with aligned(A)
	if kind >= 3 {
		aligned = g.r.Intn(len(g.lfields))
	}
	var m []string
	for i, t := range g.lfields {
		attr := ""
		if i == aligned {
			attr = fmt.Sprintf(" __attribute__((aligned(%d)))", []int{8, 16}[g.r.Intn(2)])
		}
		m = append(m, fmt.Sprintf("%s m%d%s;", t.name, i, attr))
	}
	members := strings.Join(m, " ")
	pack := []int{1, 2, 4}[g.r.Intn(3)]
	switch kind {
	case 0, 5: // packed, with an aligned member in 5
		g.emit("struct __attribute__((packed)) L { %s };", members)
	case 1:
		g.emit("struct L { %s } __attribute__((packed));", members)
	case 2, 4: // pack(N), with an aligned member (capped at N) in 4
		if g.r.Intn(2) == 0 {
			g.emit("#pragma pack(push, %d)\nstruct L { %s };\n#pragma pack(pop)", pack, members)
		} else {
			g.emit("#pragma pack(%d)\nstruct L { %s };\n#pragma pack()", pack, members)
		}
	case 3:
		g.emit("struct L { %s };", members)
	}
	var init []string
	for range g.lfields {
		init = append(init, g.constant())
	}
	g.emit("struct L gl = {%s};", strings.Join(init, ", "))
}

// layoutField returns a member of gl or, in main once it is declared,
// of its copy ll.
func (g *gen) layoutField() string {
	s := "gl"
	if g.inMain && g.llReady && g.r.Intn(2) == 0 {
		s = "ll"
	}
	return fmt.Sprintf("%s.m%d", s, g.r.Intn(len(g.lfields)))
}

// minSize is the size of t in both data models (long: 4 in ILP32).
func minSize(t *cType) int {
	switch t.name {
	case "signed char", "unsigned char", "_Bool":
		return 1
	case "short", "unsigned short":
		return 2
	case "long long", "unsigned long long":
		return 8
	}
	return 4
}

// layoutCheckpoint records sizeof(struct L), _Alignof(struct L), the
// offsetof of a member, or a byte of a member's representation in gl or
// ll, copied with memcpy just before:
//
//	memcpy(lb, &ll, sizeof(struct L));
//	assert(lb[offsetof(struct L, m2) + 1] == (unsigned char)255ULL);
func (g *gen) layoutCheckpoint() {
	size := types[7] // unsigned long: size_t's value fits in both data models
	k := g.r.Intn(len(g.lfields))
	switch g.r.Intn(5) {
	case 0:
		g.addCheck(lvalue{"sizeof(struct L)", size})
	case 1:
		g.addCheck(lvalue{"_Alignof(struct L)", size})
	case 2:
		g.addCheck(lvalue{fmt.Sprintf("offsetof(struct L, m%d)", k), size})
	default:
		// A byte inside a member, never padding (whose value C leaves
		// unspecified).
		g.emit("memcpy(lb, &%s, sizeof(struct L));", []string{"gl", "ll"}[g.r.Intn(2)])
		j := g.r.Intn(minSize(g.lfields[k]))
		g.addCheck(lvalue{fmt.Sprintf("lb[offsetof(struct L, m%d) + %d]", k, j), types[1]})
	}
}

// wideShift returns a shift of a 64-bit operand by 0..63 or of a 32-bit
// one by 0..31, a masked count or a constant one; left shifts are
// unsigned:
//
//	((unsigned long long)(x3) << ((g1) & 63))
//	((int)(ga2[1]) >> 31)
func (g *gen) wideShift(depth int) string {
	a := g.expr(depth - 1)
	var t string
	bits := 64
	left := g.r.Intn(2) == 0
	switch g.r.Intn(3) {
	case 0:
		t = "unsigned long long"
	case 1:
		t = "long long"
		if left {
			t = "unsigned long long"
		}
	default:
		bits = 32
		t = []string{"unsigned", "int"}[g.r.Intn(2)]
		if left {
			t = "unsigned"
		}
	}
	var count string
	if g.r.Intn(3) == 0 {
		count = fmt.Sprint([]int{0, 1, bits/2 - 1, bits / 2, bits/2 + 1, bits - 1}[g.r.Intn(6)])
	} else {
		count = fmt.Sprintf("((%s) & %d)", g.expr(depth-1), bits-1)
	}
	op := ">>"
	if left {
		op = "<<"
	}
	return fmt.Sprintf("((%s)(%s) %s %s)", t, a, op, count)
}

// startupScope is the scope of the functions that run before and after
// main: the globals, without the global pointer (0 before main).
func (g *gen) startupScope() *scope {
	sc := &scope{structs: []string{"gs."}}
	sc.vars = append(sc.vars, g.globals...)
	return sc
}

// constructors emits one or two constructors that write globals, some
// with a priority (lowest first, those without one last), e.g.
//
//	__attribute__((constructor(300))) static void ctor7(void) {
//		g2 = (g1 + 3);
//	}
func (g *gen) constructors() {
	for i, n := 0, 1+g.r.Intn(2); i < n; i++ {
		g.sc = g.startupScope()
		attr := "constructor"
		if g.r.Intn(2) == 0 {
			attr = fmt.Sprintf("constructor(%d)", []int{101, 102, 200, 1000, 65535}[g.r.Intn(5)])
		}
		g.emit("__attribute__((%s)) static void %s(void) {", attr, g.name("ctor"))
		g.ind++
		for j, m := 0, 1+g.r.Intn(3); j < m; j++ {
			g.emit("%s = %s;", g.target(), g.expr(2))
		}
		g.ind--
		g.emit("}")
	}
}

// handler emits the definition of a function registered with atexit:
// it writes a global and holds a checkpoint on a global object.
func (g *gen) handler(name string) {
	g.sc = g.startupScope()
	g.emit("static void %s(void) {", name)
	g.ind++
	for j, m := 0, 1+g.r.Intn(2); j < m; j++ {
		g.emit("%s %s= %s;", g.target(), []string{"", "+", "^"}[g.r.Intn(3)], g.expr(2))
	}
	var objs []lvalue
	for _, a := range g.addrs {
		if strings.HasPrefix(a.text, "g") { // g, ga, gs: a global, not one of main's locals
			objs = append(objs, a)
		}
	}
	g.addCheck(objs[g.r.Intn(len(objs))])
	g.ind--
	g.emit("}")
}
