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
}

// OptionsFor derives the options of a seed: the four combinations of
// Nondet and Extern in turn, so that any run of consecutive seeds covers
// them all, and BitFields in every third group of four.
func OptionsFor(seed int64) Options {
	if seed < 0 {
		seed = -seed
	}
	m := seed % 4
	return Options{Nondet: m&1 != 0, Extern: m&2 != 0, BitFields: seed/4%3 == 2}
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
	gp := &Generated{Seed: seed, Options: opt, pieces: g.out, checks: g.checks}
	for s := range g.nondet {
		gp.nondet = append(gp.nondet, s)
	}
	sortStrings(gp.nondet)
	if opt.Extern {
		gp.Benign, gp.Adversarial = g.bodies()
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
	g.emit("%s", g.structDecl())
	init := []string{g.constant(), g.constant(), g.constant()}
	if g.opt.BitFields {
		init = append(init, g.constant(), g.constant())
	}
	g.emit("struct S gs = {%s};", strings.Join(init, ", "))
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
	g.mainFunc()
	var decl strings.Builder
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
	g.emit("return 0;")
	g.ind--
	g.emit("}")
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
	return fmt.Sprintf("struct S { %s f0; %s f1; %s f2;%s };", g.fields[0].name, g.fields[1].name, g.fields[2].name, bits)
}

// field returns a struct member access: a field or a bit-field.
func (g *gen) field() string {
	p := g.sc.structs[g.r.Intn(len(g.sc.structs))]
	if g.opt.BitFields && g.r.Intn(3) == 0 {
		return fmt.Sprintf("%sb%d", p, g.r.Intn(2))
	}
	return fmt.Sprintf("%sf%d", p, g.r.Intn(len(g.fields)))
}

// checkpoint records the value of a random object at this point of main.
func (g *gen) checkpoint() {
	lv := g.addrs[g.r.Intn(len(g.addrs))]
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
	g.checks = append(g.checks, check{lv})
	g.out = append(g.out, piece{text: strings.Repeat("\t", g.ind), check: len(g.checks) - 1})
}

// constant returns an integer literal, often a boundary value.
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
