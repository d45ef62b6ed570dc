package pdg

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/reverify/reverify/engine/cfa"
)

// This file is a small test DSL for building CFAs by hand:
//
//	p := newTP(t)
//	p.globals("int g; int* gp")
//	m := p.fn("main", "int", "l2", "l19", "")
//	m.locals("int x y w")
//	m.e("l2 l3 x = ?")          // havoc
//	m.br("l5 l6 l9 x > 0")      // [x > 0] to l6, [!(x > 0)] to l9
//	m.e("l13 l19 call error()") // call (also: call r = f(a), call (*fp)(a))
//	m.e("l6 l5 x = x - 1 @7")   // "@7": source line 7
//	prog := p.done()
//
// Other operations: "decl x", "skip", "return e", "return",
// "unsupported asm", "*p = e", "a[i] = e", "s.f = e", "p->f = e".
// Expressions: integer literals, variables, functions (as pointers),
// + - * / % << >> & | ^ == != < <= > >= && || ! ~ unary - * &, a[i], s.f,
// p->f, casts (int*)x, and "string" literals. Types: int, char, long,
// unsigned, void, struct names declared with p.strct, with * and [N]
// suffixes.

type tp struct {
	t       testing.TB
	p       *cfa.Program
	fns     map[string]*tfn
	globs   map[string]*cfa.Var
	structs map[string]*cfa.Type
	line    int
}

type tfn struct {
	tp    *tp
	f     *cfa.Function
	locs  map[string]*cfa.Location
	names map[*cfa.Location]string
	vars  map[string]*cfa.Var
	edges []*cfa.Edge
}

func newTP(t testing.TB) *tp {
	return &tp{t: t, p: cfa.NewProgram(cfa.LP64), fns: map[string]*tfn{}, globs: map[string]*cfa.Var{}, structs: map[string]*cfa.Type{}}
}

// parseType parses "int", "int*", "int[10]", "node*", "unsigned", …
func (p *tp) parseType(s string) *cfa.Type {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "*") {
		return cfa.PointerTo(p.parseType(s[:len(s)-1]), 64)
	}
	if strings.HasSuffix(s, "]") {
		i := strings.LastIndex(s, "[")
		n, err := strconv.Atoi(s[i+1 : len(s)-1])
		if err != nil {
			p.t.Fatalf("bad array type %q", s)
		}
		return cfa.ArrayOf(p.parseType(s[:i]), int64(n))
	}
	switch s {
	case "int":
		return cfa.IntT
	case "char":
		return cfa.CharType
	case "long":
		return cfa.LLType
	case "unsigned":
		return cfa.UIntType
	case "short":
		return cfa.ShortType
	case "void":
		return cfa.VoidType
	}
	if t, ok := p.structs[s]; ok {
		return t
	}
	p.t.Fatalf("unknown type %q", s)
	return nil
}

// strct declares struct name with fields "int v; node* next". A field may
// refer to the struct itself.
func (p *tp) strct(name, fields string) *cfa.Type {
	t := &cfa.Type{Kind: cfa.Struct, Name: "struct " + name}
	p.structs[name] = t
	off := int64(0)
	for _, f := range strings.Split(fields, ";") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		i := strings.LastIndexByte(f, ' ')
		ft := p.parseType(f[:i])
		al := max(ft.Align, 1)
		off = (off + al - 1) / al * al
		t.Fields = append(t.Fields, cfa.Field{Name: f[i+1:], Type: ft, Offset: off})
		off += ft.Size
		t.Align = max(t.Align, al)
	}
	t.Size = (off + t.Align - 1) / t.Align * t.Align
	return t
}

// decls parses "int x y; int* p" into (type, name) pairs.
func (p *tp) decls(s string, fn func(t *cfa.Type, name string)) {
	for _, d := range strings.Split(s, ";") {
		fs := strings.Fields(d)
		if len(fs) < 2 {
			continue
		}
		t := p.parseType(fs[0])
		for _, n := range fs[1:] {
			fn(t, strings.TrimSuffix(n, ","))
		}
	}
}

func (p *tp) globals(s string) {
	p.decls(s, func(t *cfa.Type, name string) { p.globs[name] = p.p.NewVar(nil, name, t) })
}

// fn adds a function; params like "int a, int* q".
func (p *tp) fn(name, result, entry, exit, params string) *tfn {
	rt := p.parseType(result)
	ft := &cfa.Type{Kind: cfa.Func, Result: rt}
	var ps [][2]string
	for _, x := range strings.Split(params, ",") {
		x = strings.TrimSpace(x)
		if x == "" {
			continue
		}
		i := strings.LastIndexByte(x, ' ')
		ps = append(ps, [2]string{x[:i], x[i+1:]})
		ft.Params = append(ft.Params, p.parseType(x[:i]))
	}
	f := p.p.NewFunction(name, ft)
	tf := &tfn{tp: p, f: f, locs: map[string]*cfa.Location{}, names: map[*cfa.Location]string{}, vars: map[string]*cfa.Var{}}
	tf.locs[entry] = f.Entry
	tf.names[f.Entry] = entry
	tf.locs[exit] = f.Exit
	tf.names[f.Exit] = exit
	for _, pr := range ps {
		v := p.p.NewVar(f, pr[1], p.parseType(pr[0]))
		v.Param = true
		f.Params = append(f.Params, v)
		tf.vars[pr[1]] = v
	}
	if rt.Kind != cfa.Void {
		f.RetVar = p.p.NewVar(f, "__retval", rt)
		f.RetVar.Temp = true
	}
	p.fns[name] = tf
	return tf
}

func (f *tfn) locals(s string) {
	f.tp.decls(s, func(t *cfa.Type, name string) { f.vars[name] = f.tp.p.NewVar(f.f, name, t) })
}

func (f *tfn) loc(name string) *cfa.Location {
	if l, ok := f.locs[name]; ok {
		return l
	}
	l := f.tp.p.NewLocation(f.f)
	f.locs[name] = l
	f.names[l] = name
	return l
}

func (f *tfn) term(name string) { f.loc(name).Terminal = true }

func (f *tfn) add(from, to string, op cfa.Op, text string, line int) *cfa.Edge {
	if line == 0 {
		f.tp.line++
		line = f.tp.line
	}
	pos := cfa.Range{Start: cfa.Pos{File: "t.c", Line: line, Col: 1}, End: cfa.Pos{File: "t.c", Line: line, Col: 1 + len(text)}}
	e := f.tp.p.AddEdge(f.loc(from), f.loc(to), op, pos, text)
	f.edges = append(f.edges, e)
	return e
}

func splitLine(s string) (string, int) {
	if i := strings.LastIndex(s, " @"); i >= 0 {
		if n, err := strconv.Atoi(s[i+2:]); err == nil {
			return strings.TrimSpace(s[:i]), n
		}
	}
	return strings.TrimSpace(s), 0
}

// e adds the edge "FROM TO OP".
func (f *tfn) e(spec string) *cfa.Edge {
	spec, line := splitLine(spec)
	parts := strings.SplitN(spec, " ", 3)
	if len(parts) < 3 {
		f.tp.t.Fatalf("bad edge %q", spec)
	}
	op := f.op(parts[2])
	return f.add(parts[0], parts[1], op, parts[2], line)
}

// br adds the assume pair "FROM TRUE FALSE COND".
func (f *tfn) br(spec string) (t, e *cfa.Edge) {
	spec, line := splitLine(spec)
	parts := strings.SplitN(spec, " ", 4)
	cond := f.expr(parts[3])
	t = f.add(parts[0], parts[1], &cfa.Assume{Cond: cond, Truth: true}, parts[3], line)
	e = f.add(parts[0], parts[2], &cfa.Assume{Cond: cond, Truth: false}, parts[3], t.Pos.Start.Line)
	return t, e
}

func (f *tfn) op(s string) cfa.Op {
	s = strings.TrimSpace(s)
	switch {
	case s == "skip":
		return &cfa.Noop{Label: "skip"}
	case strings.HasPrefix(s, "decl "):
		return &cfa.Decl{Var: f.lookupVar(strings.TrimSpace(s[5:]))}
	case strings.HasPrefix(s, "unsupported"):
		return &cfa.Unsupported{Construct: strings.TrimSpace(s[len("unsupported"):])}
	case s == "return":
		return &cfa.Return{}
	case strings.HasPrefix(s, "return "):
		x := f.expr(s[7:])
		return &cfa.Return{X: f.convert(x, f.f.T.Result)}
	case strings.HasPrefix(s, "call "):
		return f.call(s[5:])
	}
	i := strings.Index(s, " = ")
	if i < 0 {
		f.tp.t.Fatalf("bad op %q", s)
	}
	lhs := f.expr(s[:i])
	rhs := strings.TrimSpace(s[i+3:])
	if rhs == "?" {
		return &cfa.Havoc{LHS: lhs, Source: "__VERIFIER_nondet_int"}
	}
	return &cfa.Assign{LHS: lhs, RHS: f.convert(f.expr(rhs), lhs.Type())}
}

func (f *tfn) call(s string) *cfa.Call {
	c := &cfa.Call{}
	if i := strings.Index(s, " = "); i >= 0 && !strings.Contains(s[:i], "(") {
		c.Result = f.expr(s[:i])
		s = strings.TrimSpace(s[i+3:])
	}
	open := strings.Index(s, "(")
	var pt []*cfa.Type
	if strings.HasPrefix(s, "(*") {
		close := strings.Index(s, ")")
		c.FnPtr = f.expr(s[2:close])
		s = s[close+1:]
		open = 0
		if ft := c.FnPtr.Type(); ft.Kind == cfa.Pointer && ft.Elem.Kind == cfa.Func {
			pt = ft.Elem.Params
		}
	} else {
		c.Fn = strings.TrimSpace(s[:open])
		if g, ok := f.tp.fns[c.Fn]; ok {
			pt = g.f.T.Params
		} else if g := f.tp.p.Func(c.Fn); g != nil {
			pt = g.T.Params
		} else if _, ok := f.tp.p.Externals[c.Fn]; !ok {
			f.tp.p.Externals[c.Fn] = &cfa.Type{Kind: cfa.Func, Result: cfa.IntT, Variadic: true}
		}
	}
	args := strings.TrimSpace(s[open:])
	args = strings.TrimSuffix(strings.TrimPrefix(args, "("), ")")
	if strings.TrimSpace(args) != "" {
		ps := &parser{f: f, toks: tokenize(args)}
		for {
			x := ps.expr(0)
			if len(c.Args) < len(pt) {
				x = f.convert(x, pt[len(c.Args)])
			}
			c.Args = append(c.Args, x)
			if !ps.accept(",") {
				break
			}
		}
		ps.end()
	}
	return c
}

func (f *tfn) lookupVar(name string) *cfa.Var {
	if v, ok := f.vars[name]; ok {
		return v
	}
	if v, ok := f.tp.globs[name]; ok {
		return v
	}
	f.tp.t.Fatalf("unknown variable %q in %s", name, f.f.Name)
	return nil
}

// convert casts x to t when their integer types differ, and turns the
// literal 0 into a null pointer.
func (f *tfn) convert(x cfa.Expr, t *cfa.Type) cfa.Expr {
	if t == nil || cfa.Same(x.Type(), t) {
		return x
	}
	if c, ok := x.(*cfa.Const); ok && t.Kind == cfa.Pointer && c.V == 0 {
		return &cfa.Const{T: t}
	}
	if t.Kind == cfa.Struct || t.Kind == cfa.Void {
		return x
	}
	return &cfa.Cast{X: x, T: t}
}

func (f *tfn) expr(s string) cfa.Expr {
	ps := &parser{f: f, toks: tokenize(s)}
	x := ps.expr(0)
	ps.end()
	return x
}

func tokenize(s string) []string {
	var toks []string
	ops := []string{"<<", ">>", "==", "!=", "<=", ">=", "&&", "||", "->"}
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				j++
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		case unicode.IsLetter(c) || c == '_' || unicode.IsDigit(c):
			j := i
			for j < len(s) && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j])) || s[j] == '_' || s[j] == ':' || s[j] == '.' && unicode.IsDigit(rune(s[i]))) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			op := string(c)
			for _, o := range ops {
				if strings.HasPrefix(s[i:], o) {
					op = o
				}
			}
			toks = append(toks, op)
			i += len(op)
		}
	}
	return toks
}

type parser struct {
	f    *tfn
	toks []string
	i    int
}

func (p *parser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *parser) accept(t string) bool {
	if p.peek() == t {
		p.i++
		return true
	}
	return false
}

func (p *parser) want(t string) {
	if !p.accept(t) {
		p.f.tp.t.Fatalf("expected %q at %q in %v", t, p.peek(), p.toks)
	}
}

func (p *parser) end() {
	if p.i != len(p.toks) {
		p.f.tp.t.Fatalf("trailing %v", p.toks[p.i:])
	}
}

var binPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, "<=": 7, ">": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

var binOps = map[string]cfa.BinaryOp{
	"||": cfa.LOr, "&&": cfa.LAnd, "|": cfa.Or, "^": cfa.Xor, "&": cfa.And, "==": cfa.Eq, "!=": cfa.Ne,
	"<": cfa.Lt, "<=": cfa.Le, ">": cfa.Gt, ">=": cfa.Ge, "<<": cfa.Shl, ">>": cfa.Shr, "+": cfa.Add,
	"-": cfa.Sub, "*": cfa.Mul, "/": cfa.Div, "%": cfa.Rem,
}

func (p *parser) expr(minPrec int) cfa.Expr {
	x := p.unary()
	for {
		op := p.peek()
		prec, ok := binPrec[op]
		if !ok || prec <= minPrec {
			return x
		}
		p.i++
		y := p.expr(prec)
		x = p.binary(binOps[op], x, y)
	}
}

func (p *parser) binary(op cfa.BinaryOp, x, y cfa.Expr) cfa.Expr {
	xt, yt := x.Type(), y.Type()
	switch {
	case op == cfa.LAnd || op == cfa.LOr:
		return &cfa.Binary{Op: op, X: x, Y: y, T: cfa.IntT}
	case xt.Kind == cfa.Pointer && yt.IsInteger() && (op == cfa.Add || op == cfa.Sub):
		return &cfa.Binary{Op: op, X: x, Y: p.f.convert(y, cfa.LLType), T: xt}
	case xt.Kind == cfa.Pointer || yt.Kind == cfa.Pointer:
		if xt.Kind != cfa.Pointer {
			x = p.f.convert(x, yt)
		}
		if yt.Kind != cfa.Pointer {
			y = p.f.convert(y, xt)
		}
		return &cfa.Binary{Op: op, X: x, Y: y, T: cfa.IntT}
	}
	t := cfa.IntT
	if xt.Bits > 32 || yt.Bits > 32 {
		t = cfa.LLType
	}
	if op == cfa.Shl || op == cfa.Shr {
		return &cfa.Binary{Op: op, X: p.f.convert(x, t), Y: p.f.convert(y, cfa.IntT), T: t}
	}
	x, y = p.f.convert(x, t), p.f.convert(y, t)
	rt := t
	if op.IsComparison() {
		rt = cfa.IntT
	}
	return &cfa.Binary{Op: op, X: x, Y: y, T: rt}
}

func (p *parser) isType(s string) bool {
	switch s {
	case "int", "char", "long", "unsigned", "void", "short":
		return true
	}
	_, ok := p.f.tp.structs[s]
	return ok
}

func (p *parser) unary() cfa.Expr {
	switch t := p.peek(); t {
	case "-", "~", "!":
		p.i++
		x := p.unary()
		ops := map[string]cfa.UnaryOp{"-": cfa.Neg, "~": cfa.BNot, "!": cfa.LNot}
		rt := x.Type()
		if t == "!" {
			rt = cfa.IntT
		}
		return &cfa.Unary{Op: ops[t], X: x, T: rt}
	case "*":
		p.i++
		x := p.decay(p.unary())
		return &cfa.Deref{X: x, T: x.Type().Elem}
	case "&":
		p.i++
		x := p.unary()
		if r, ok := x.(*cfa.FuncRef); ok {
			return &cfa.AddrOf{X: r, T: cfa.PointerTo(r.T, 64)}
		}
		return &cfa.AddrOf{X: x, T: cfa.PointerTo(x.Type(), 64)}
	case "(":
		if p.i+1 < len(p.toks) && p.isType(p.toks[p.i+1]) {
			p.i++
			ts := ""
			for p.peek() != ")" {
				ts += p.peek()
				p.i++
			}
			p.want(")")
			t := p.f.tp.parseType(ts)
			return &cfa.Cast{X: p.decay(p.unary()), T: t}
		}
	}
	return p.postfix(p.primary())
}

// decay turns arrays into pointers to their first element and functions
// into function pointers.
func (p *parser) decay(x cfa.Expr) cfa.Expr {
	switch t := x.Type(); t.Kind {
	case cfa.Array:
		return &cfa.AddrOf{X: &cfa.Index{X: x, I: cfa.NewConst(cfa.LLType, 0), T: t.Elem}, T: cfa.PointerTo(t.Elem, 64)}
	case cfa.Func:
		return &cfa.AddrOf{X: x, T: cfa.PointerTo(t, 64)}
	}
	return x
}

func (p *parser) primary() cfa.Expr {
	t := p.peek()
	p.i++
	switch {
	case t == "(":
		x := p.expr(0)
		p.want(")")
		return x
	case strings.HasPrefix(t, `"`):
		s := t[1 : len(t)-1]
		return &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, int64(len(s)+1)), Val: s}
	case t != "" && unicode.IsDigit(rune(t[0])):
		n, err := strconv.ParseInt(t, 0, 64)
		if err != nil {
			p.f.tp.t.Fatalf("bad number %q", t)
		}
		return cfa.NewConst(cfa.IntT, n)
	}
	if t == "NULL" {
		return &cfa.Const{T: cfa.PointerTo(cfa.VoidType, 64)}
	}
	if v, ok := p.f.vars[t]; ok {
		return &cfa.VarRef{Var: v}
	}
	if v, ok := p.f.tp.globs[t]; ok {
		return &cfa.VarRef{Var: v}
	}
	if g, ok := p.f.tp.fns[t]; ok {
		return &cfa.FuncRef{Name: t, T: g.f.T}
	}
	ft := &cfa.Type{Kind: cfa.Func, Result: cfa.IntT, Variadic: true}
	p.f.tp.p.Externals[t] = ft
	return &cfa.FuncRef{Name: t, T: ft}
}

func (p *parser) postfix(x cfa.Expr) cfa.Expr {
	for {
		switch p.peek() {
		case "[":
			p.i++
			i := p.expr(0)
			p.want("]")
			if x.Type().Kind == cfa.Array {
				x = &cfa.Index{X: x, I: p.f.convert(i, cfa.LLType), T: x.Type().Elem}
			} else {
				ptr := p.binary(cfa.Add, x, i)
				x = &cfa.Deref{X: ptr, T: x.Type().Elem}
			}
		case ".", "->":
			arrow := p.peek() == "->"
			p.i++
			name := p.peek()
			p.i++
			if arrow {
				x = &cfa.Deref{X: x, T: x.Type().Elem}
			}
			st := x.Type()
			idx := -1
			for k, fl := range st.Fields {
				if fl.Name == name {
					idx = k
				}
			}
			if idx < 0 {
				p.f.tp.t.Fatalf("no field %s in %s", name, st)
			}
			x = &cfa.Member{X: x, Field: idx, T: st.Fields[idx].Type}
		default:
			return x
		}
	}
}

// done finishes and checks the program.
func (p *tp) done() *cfa.Program {
	if in := p.p.Init; len(in.Entry.Out) == 0 {
		p.p.AddEdge(in.Entry, in.Exit, &cfa.Noop{Label: "skip"}, cfa.Range{}, "")
	}
	p.p.Finish()
	if err := p.p.Check(); err != nil {
		p.t.Fatalf("CFA check: %v", err)
	}
	return p.p
}

// name returns the DSL name of a location ("fn:l3" outside fn, "l3" with
// the function known).
func (p *tp) locName(l *cfa.Location) string {
	for _, f := range p.fns {
		if n, ok := f.names[l]; ok {
			return n
		}
	}
	return l.String()
}

// edge finds the edge "FROM TO" of f (and "FROM TO T"/"FROM TO F" for the
// two edges of an assume pair with the same target).
func (f *tfn) edge(spec string) *cfa.Edge {
	fs := strings.Fields(spec)
	var found []*cfa.Edge
	for _, e := range f.edges {
		if f.names[e.From] == fs[0] && f.names[e.To] == fs[1] {
			if len(fs) > 2 {
				a, ok := e.Op.(*cfa.Assume)
				if !ok || (fs[2] == "T") != a.Truth {
					continue
				}
			}
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		f.tp.t.Fatalf("edge %q of %s: %d matches", spec, f.f.Name, len(found))
	}
	return found[0]
}

// edgeNames renders edges as "fn:FROM->TO" (sorted), the names the
// expected sets in the tests use; assume edges get "+" (true) or "-".
func (p *tp) edgeNames(es []*cfa.Edge) []string {
	var out []string
	for _, e := range es {
		out = append(out, p.edgeName(e))
	}
	sort.Strings(out)
	return out
}

func (p *tp) edgeName(e *cfa.Edge) string {
	s := fmt.Sprintf("%s:%s->%s", e.From.Func.Name, p.locName(e.From), p.locName(e.To))
	if a, ok := e.Op.(*cfa.Assume); ok {
		if a.Truth {
			s += "+"
		} else {
			s += "-"
		}
	}
	return s
}
