package harness

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
)

// Options bound the objects a context builds.
type Options struct {
	// Depth is how many levels of pointers below a parameter or global
	// point to fresh objects; a pointer deeper down is NULL. 0 selects 2.
	Depth int
	// Bound is the largest number of elements of an array whose length is
	// a parameter or a field (a (pointer, length) pair) and the largest
	// length of a string. 0 selects 4.
	Bound int
}

func (o Options) depth() int {
	if o.Depth <= 0 {
		return 2
	}
	return o.Depth
}

func (o Options) bound() int {
	if o.Bound <= 0 {
		return 4
	}
	return o.Bound
}

// EntryPrefix starts the name of every context function.
const EntryPrefix = cfa.ContextPrefix

// Context is the most general calling context of one function.
type Context struct {
	Func  string // the function under verification (its cfa name)
	Entry string // the context function to verify from
	File  string // the source file the context is appended to
	// Text is the C text of the context function; empty when Limitation
	// is set.
	Text string
	// Assumptions are what the context assumes beyond the C semantics, one
	// sentence each, for every verdict decided in it.
	Assumptions []string
	// Limitation, when not empty, is why the function has no context
	// ("parameter s is a struct passed by value").
	Limitation string
}

// Prelude is the C text appended to a file before its contexts: the
// store into an object (cfa.ContextSet; a copy of bytes under
// ReproducerMacro), the nondeterministic choices and the allocator the
// contexts call, and the
// length choice 0…bound as a branch per value (so explicit-value
// analyses see each length as a constant).
func Prelude(opts Options) string {
	var b strings.Builder
	b.WriteString("\n/* reverify: most general contexts (engine/harness) */\n")
	// a build may define static away (mlkem-native's proofs: -Dstatic=);
	// the contexts' helpers stay local to their unit
	b.WriteString("#ifdef static\n#undef static\n#endif\n")
	fmt.Fprintf(&b, "#ifndef %[1]s\n#ifdef %[2]s\n#define %[1]s(lv, v) do { __typeof__(lv) __rv_set = (v); __builtin_memcpy((void *)&(lv), (const void *)&__rv_set, sizeof __rv_set); } while (0)\n#else\n#define %[1]s(lv, v) ((lv) = (v))\n#endif\n#endif\n", cfa.ContextSet, ReproducerMacro)
	b.WriteString("extern int __VERIFIER_nondet_int(void);\n")
	b.WriteString("extern unsigned long long __VERIFIER_nondet_ulonglong(void);\n")
	b.WriteString("extern double __VERIFIER_nondet_double(void);\n")
	b.WriteString("extern void *malloc(__SIZE_TYPE__);\n")
	b.WriteString("static __SIZE_TYPE__ __reverify_length(void) {\n")
	for i := 0; i < opts.bound(); i++ {
		fmt.Fprintf(&b, "\tif (__VERIFIER_nondet_int()) return %d;\n", i)
	}
	fmt.Fprintf(&b, "\treturn %d;\n}\n", opts.bound())
	return b.String()
}

// ReproducerMacro is the macro a program that gcc compiles (a
// reproducer) defines (-D) to have the contexts' stores (cfa.ContextSet)
// copy the value's bytes: gcc refuses the assignment, which the analyses
// read, where a context fills a const member.
const ReproducerMacro = "__reverify_reproducer"

// SourceName is the name a function of the program has in its source:
// its cfa name without the suffix that tells apart static functions of
// the same name in different files ("h.s2" is h).
func SourceName(f *cfa.Function) string {
	name, _, _ := strings.Cut(f.Name, ".")
	if g, ok := strings.CutPrefix(name, contract.CheckPrefix); ok {
		return "the contract check of " + g
	}
	if g, ok := strings.CutPrefix(name, contract.UsePrefix); ok {
		return "the contract of " + g
	}
	return name
}

// Build returns the most general context of f, whose source text is src
// (the whole file f.Pos.Start.File), named EntryPrefix and f's name (a
// name that stays when other functions come and go). The context
// first calls globals, the functions that give the written globals of
// each file their arbitrary values (Globals, one per file: a global
// another file writes may hold anything too).
//
// Parameters: integers, enumerations and floating-point values are
// arbitrary; a pointer followed by an integer parameter that names a
// length (len, size, count, n, …) points to that many elements, the
// length chosen from 0…Bound; a char pointer otherwise is a
// NUL-terminated string of 0…Bound characters; any other pointer points
// to one fresh object. Pointer parameters are not NULL; pointers inside
// the objects are NULL or filled the same way, up to Depth; a function pointer is one of the program's functions of
// its type whose address is taken. Pointer parameters designate distinct
// fresh objects. A struct or union passed by value, a K&R definition or
// a parameter list produced by a macro is a Limitation.
func Build(p *cfa.Program, f *cfa.Function, src string, globals []string, opts Options) *Context {
	c := &Context{Func: f.Name, Entry: EntryPrefix + ident(f.Name), File: f.Pos.Start.File}
	decls, elems, err := paramDecls(f, src)
	if err != nil {
		c.Limitation = err.Error()
		return c
	}
	g := &gen{p: p, opts: opts, file: c.File, scope: ident(f.Name), assumed: map[string]bool{}}
	for _, v := range f.Params {
		if v.T.Kind == cfa.Struct || v.T.Kind == cfa.Union {
			c.Limitation = fmt.Sprintf("parameter %s is a %s passed by value", v.Orig, v.T)
			return c
		}
	}
	var body strings.Builder
	g.b = &body
	g.indent = "\t"
	for _, name := range globals {
		g.line("%s();", name)
	}
	for i, v := range f.Params {
		name := v.Orig
		switch {
		case isLength(f, i):
			// set with its pointer, which comes first
		case v.T.IsInteger():
			g.line("%s = __VERIFIER_nondet_ulonglong();", name)
		case v.T.Kind == cfa.Float:
			g.line("%s = __VERIFIER_nondet_double();", name)
		case v.T.Kind == cfa.Pointer:
			if l := lengthParam(f, i); l != nil {
				g.line("%s = __reverify_length();", l.Orig)
				g.assume(fmt.Sprintf("%s points to %s elements, at most %d", name, l.Orig, opts.bound()))
				g.pointer(name, v.T, 0, l.Orig, true)
				continue
			}
			if n := elems[i]; n > 0 {
				g.line("%s = malloc(sizeof(*%s) * %d);", name, name, n)
				g.line("if (!%s) return; /* malloc failed: no call */", name)
				g.open("for (__SIZE_TYPE__ __rv_k = 0; __rv_k < %d; __rv_k++)", n)
				g.object(name+"[__rv_k]", v.T.Elem, 1, true)
				g.close()
				g.assume("an array parameter [N] or [static N] has N elements")
				continue
			}
			g.pointer(name, v.T, 0, "", true)
		default:
			c.Limitation = fmt.Sprintf("parameter %s of type %s", name, v.T)
			return c
		}
	}
	if pointerParams(f) > 0 {
		g.assume("pointer parameters are not NULL; pointers inside objects and globals are NULL or point to fresh objects")
	}
	if n := pointerParams(f); n > 1 {
		g.assume("pointer parameters designate distinct objects, none of them a global")
	} else if n == 1 {
		g.assume("the pointer parameter designates no global")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "void %s(void) {\n", c.Entry)
	for _, d := range decls {
		fmt.Fprintf(&b, "\t%s;\n", d)
	}
	b.WriteString(body.String())
	args := make([]string, len(f.Params))
	for i, v := range f.Params {
		args[i] = v.Orig
	}
	fmt.Fprintf(&b, "\t%s(%s);\n}\n", SourceName(f), strings.Join(args, ", "))
	c.Text = b.String()
	c.Assumptions = g.assumptions
	return c
}

// ident makes s an identifier: characters other than letters, digits
// and '_' become '_' ("h.s2", a static h of file s2, is h_s2).
func ident(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !identByte(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

func pointerParams(f *cfa.Function) int {
	n := 0
	for _, v := range f.Params {
		if v.T.Kind == cfa.Pointer && v.T.Elem.Kind != cfa.Func {
			n++
		}
	}
	return n
}

// lengthNames are the parameter and field names read as the length of
// the pointer before them (lengthName).
var lengthNames = []string{"len", "length", "size", "count", "n", "num", "cap", "capacity", "nbytes", "nmemb", "nelems", "sz", "bytes"}

// lengthName reports whether name names a length: one of lengthNames,
// or ending in _len, _size, _count, len, size or count.
func lengthName(name string) bool {
	l := strings.ToLower(name)
	for _, n := range lengthNames {
		if l == n {
			return true
		}
	}
	for _, s := range []string{"len", "size", "count", "_n"} {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// lengthParam returns the parameter after the pointer parameter i that
// is its length, or nil.
func lengthParam(f *cfa.Function, i int) *cfa.Var {
	if i+1 >= len(f.Params) {
		return nil
	}
	v, l := f.Params[i], f.Params[i+1]
	if v.T.Elem.Kind == cfa.Func || !l.T.IsInteger() || !lengthName(l.Orig) {
		return nil
	}
	return l
}

// isLength reports whether parameter i is the length of the pointer
// parameter before it.
func isLength(f *cfa.Function, i int) bool {
	return i > 0 && f.Params[i-1].T.Kind == cfa.Pointer && lengthParam(f, i-1) == f.Params[i]
}

// gen writes the statements that fill one context.
type gen struct {
	p      *cfa.Program
	opts   Options
	file   string
	b      *strings.Builder
	indent string
	tmp    int
	// scope names the generated function in the names of what its
	// text declares at file scope (a callback outside the sources is an
	// extern declaration: two contexts of one unit must not declare one
	// name with two types)
	scope       string
	assumptions []string
	assumed     map[string]bool
}

func (g *gen) line(format string, a ...any) {
	g.b.WriteString(g.indent)
	fmt.Fprintf(g.b, format, a...)
	g.b.WriteString("\n")
}

// set stores value into the lvalue lv: a variable of the context
// (a parameter's copy, which it declares without const) by assignment, a
// part of an object the context fills through cfa.ContextSet (it may be a
// const member). Never a bit-field, whose address a reproducer cannot
// take.
func (g *gen) set(lv, value string) {
	if isIdent(lv) {
		g.line("%s = %s;", lv, value)
		return
	}
	g.line("%s(%s, %s);", cfa.ContextSet, lv, value)
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return s != ""
}

func (g *gen) assume(s string) {
	if !g.assumed[s] {
		g.assumed[s] = true
		g.assumptions = append(g.assumptions, s)
	}
}

func (g *gen) fresh(prefix string) string {
	g.tmp++
	return fmt.Sprintf("__rv_%s%d", prefix, g.tmp)
}

// open and close wrap the statements between them in a block under cond.
func (g *gen) open(format string, a ...any) {
	g.line(format+" {", a...)
	g.indent += "\t"
}

func (g *gen) close() {
	g.indent = g.indent[:len(g.indent)-1]
	g.line("}")
}

// pointer makes the pointer lvalue lv of pointer type t NULL or point to
// fresh memory: length elements when length is not "" (an expression
// already set), a string for plain char, one object otherwise; depth
// counts the pointers above lv.
func (g *gen) pointer(lv string, t *cfa.Type, depth int, length string, nonNull bool) {
	null := "__VERIFIER_nondet_int() ? 0 : "
	if nonNull {
		null = ""
	}
	elem := t.Elem
	if elem.Kind == cfa.Func {
		g.function(lv, t)
		return
	}
	if depth >= g.opts.depth() {
		g.set(lv, "0")
		g.assume(fmt.Sprintf("pointers more than %d levels below a parameter or global are NULL", g.opts.depth()))
		return
	}
	switch {
	case length != "":
		size := length
		if elem.Kind != cfa.Void {
			size = fmt.Sprintf("sizeof(*%s) * %s", lv, length)
		}
		g.set(lv, null+"malloc("+size+")")
		g.notNull(lv, nonNull)
		if elem.Kind != cfa.Void {
			i := g.fresh("i")
			g.open("if (%s) for (__SIZE_TYPE__ %s = 0; %s < %s; %s++)", lv, i, i, length, i)
			g.object(fmt.Sprintf("%s[%s]", lv, i), elem, depth+1, true)
			g.close()
		} else {
			g.bytes(lv, length)
		}
	case elem.Kind == cfa.Int && elem.Size == 1 && elem.Name == "char":
		n, s := g.fresh("n"), g.fresh("s")
		g.line("__SIZE_TYPE__ %s = __reverify_length();", n)
		g.line("char *%s = malloc(%s + 1);", s, n)
		g.open("if (%s)", s)
		i := g.fresh("i")
		g.line("for (__SIZE_TYPE__ %s = 0; %s < %s; %s++) %s[%s] = __VERIFIER_nondet_ulonglong();", i, i, n, i, s, i)
		g.line("%s[%s] = 0;", s, n)
		g.close()
		g.set(lv, null+s)
		g.notNull(lv, nonNull)
		g.assume(fmt.Sprintf("a char pointer without a length is a string of at most %d characters", g.opts.bound()))
	case elem.Kind == cfa.Void || (elem.Kind == cfa.Struct || elem.Kind == cfa.Union) && elem.Size == 0:
		// void, or a struct the sources declare but never define (an
		// opaque handle): bytes without a type
		g.set(lv, fmt.Sprintf("%smalloc(%d)", null, 8*g.opts.bound()))
		g.notNull(lv, nonNull)
		g.bytes(lv, fmt.Sprint(8*g.opts.bound()))
		g.assume(fmt.Sprintf("a void pointer without a length, or a pointer to an undefined struct, points to %d bytes", 8*g.opts.bound()))
	default:
		g.set(lv, fmt.Sprintf("%smalloc(sizeof(*%s))", null, lv))
		g.notNull(lv, nonNull)
		g.open("if (%s)", lv)
		g.object("(*"+lv+")", elem, depth+1, true)
		g.close()
		g.assume("any other pointer points to one object")
	}
}

// notNull ends the context when the allocation of a parameter's object
// failed (malloc may fail in CBMC's dialect): a pointer parameter is
// never NULL.
func (g *gen) notNull(lv string, nonNull bool) {
	if nonNull {
		g.line("if (!%s) return; /* malloc failed: no call */", lv)
	}
}

// function makes the function pointer lvalue lv of type t one of the
// functions of its type whose address the program takes and this file
// can name (static functions of other files it cannot).
func (g *gen) function(lv string, t *cfa.Type) {
	var names []string
	for _, n := range g.p.AddressTaken() {
		f := g.p.Func(n)
		if f == nil || !cfa.Same(f.T, t.Elem) {
			continue
		}
		if f.Static && f.Pos.Start.File != g.file {
			continue
		}
		names = append(names, SourceName(f))
	}
	sort.Strings(names)
	if len(names) == 0 {
		// a function outside the sources: declared, never defined, so
		// the analyses take a call of it as one of a function without a
		// body (it may write whatever escapes and return anything)
		fn := g.fresh("callback_" + g.scope + "_")
		g.line("extern __typeof__(*(%s)) %s;", lv, fn)
		g.set(lv, fn)
		g.assume("a function pointer of a type no function of the sources has is a function outside them, without a body")
		return
	}
	g.set(lv, names[len(names)-1])
	for _, n := range names[:len(names)-1] {
		g.open("if (__VERIFIER_nondet_int())")
		g.set(lv, n)
		g.close()
	}
	g.assume(fmt.Sprintf("%s is one of %s", lv, strings.Join(names, ", ")))
}

// bytes gives the n bytes at the pointer lv arbitrary values (a
// reproducer supplies them as it supplies every nondeterministic value;
// malloc's indeterminate bytes it could not).
func (g *gen) bytes(lv, n string) {
	i := g.fresh("i")
	g.line("if (%s) for (__SIZE_TYPE__ %s = 0; %s < %s; %s++) ((unsigned char *)%s)[%s] = __VERIFIER_nondet_ulonglong();", lv, i, i, n, i, lv, i)
}

// object fills the object lvalue lv of type t: its pointers as pointer
// does, and with scalars its integers and floating-point values
// arbitrary (explicitly, also in fresh memory, so that a reproducer
// supplies them).
func (g *gen) object(lv string, t *cfa.Type, depth int, scalars bool) {
	switch t.Kind {
	case cfa.Int, cfa.Bool:
		if scalars {
			g.set(lv, "__VERIFIER_nondet_ulonglong()")
		}
	case cfa.Float:
		if scalars {
			g.set(lv, "__VERIFIER_nondet_double()")
		}
	case cfa.Pointer:
		g.pointer(lv, t, depth, "", false)
	case cfa.Struct:
		for i, fl := range t.Fields {
			if fl.Name == "" || fl.BitWidth > 0 && !scalars {
				continue
			}
			flv := lv + "." + fl.Name
			if fl.Type.Kind == cfa.Pointer && fl.Type.Elem.Kind != cfa.Func {
				if l := lengthField(t, i); l != "" {
					g.set(lv+"."+l, "__reverify_length()")
					g.assume(fmt.Sprintf("a pointer field with a length field (%s) points to that many elements, at most %d", l, g.opts.bound()))
					g.pointer(flv, fl.Type, depth, lv+"."+l, false)
					continue
				}
			}
			if fl.BitWidth > 0 {
				g.line("%s = __VERIFIER_nondet_ulonglong();", flv)
				continue
			}
			if lengthOf(t, i) {
				continue // set with the pointer field it measures
			}
			g.object(flv, fl.Type, depth, scalars)
		}
	case cfa.Union:
		if hasPointers(t) {
			g.assume("pointers inside unions are arbitrary values, not objects")
		}
		if scalars && len(t.Fields) > 0 {
			// the largest member covers the union's bytes
			big := t.Fields[0]
			for _, fl := range t.Fields {
				if fl.Type.Size > big.Type.Size {
					big = fl
				}
			}
			if !hasPointers(big.Type) && big.Name != "" {
				g.object(lv+"."+big.Name, big.Type, depth, scalars)
			}
		}
	case cfa.Array:
		if t.Len <= 0 || !scalars && !hasPointers(t.Elem) {
			return
		}
		i := g.fresh("i")
		g.open("for (__SIZE_TYPE__ %s = 0; %s < %d; %s++)", i, i, t.Len, i)
		g.object(fmt.Sprintf("%s[%s]", lv, i), t.Elem, depth, scalars)
		g.close()
	}
}

// lengthField returns the name of the integer field of struct t that is
// the length of its pointer field i (capacity before size before len),
// or "".
func lengthField(t *cfa.Type, i int) string {
	best, rank := "", 99
	for _, fl := range t.Fields {
		if !fl.Type.IsInteger() || fl.BitWidth > 0 || !lengthName(fl.Name) {
			continue
		}
		r := 50
		for k, n := range []string{"capacity", "cap", "size", "len", "length", "count"} {
			if strings.ToLower(fl.Name) == n {
				r = k
			}
		}
		if r < rank {
			best, rank = fl.Name, r
		}
	}
	if best == "" {
		return ""
	}
	// one length field measures one pointer: the first pointer field to
	// scalars
	for k, fl := range t.Fields {
		if fl.Type.Kind == cfa.Pointer && fl.Type.Elem.Kind != cfa.Func && fl.Type.Elem.Kind != cfa.Struct {
			if k == i {
				return best
			}
			return ""
		}
	}
	return ""
}

// lengthOf reports whether field i of struct t is the length field of one
// of its pointer fields.
func lengthOf(t *cfa.Type, i int) bool {
	for k, fl := range t.Fields {
		if fl.Type.Kind == cfa.Pointer {
			if l := lengthField(t, k); l != "" && l == t.Fields[i].Name {
				return true
			}
		}
	}
	return false
}

// hasPointers reports whether an object of type t holds a pointer.
func hasPointers(t *cfa.Type) bool {
	return hasPointersDepth(t, 0)
}

func hasPointersDepth(t *cfa.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch t.Kind {
	case cfa.Pointer:
		return true
	case cfa.Array:
		return hasPointersDepth(t.Elem, depth+1)
	case cfa.Struct, cfa.Union:
		for _, f := range t.Fields {
			if hasPointersDepth(f.Type, depth+1) {
				return true
			}
		}
	}
	return false
}
