package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
)

// contractWords are the names whose presence makes the front end look
// for contracts (CBMC 6's contract clauses).
var contractWords = []string{"__CPROVER_requires", "__CPROVER_ensures", "__CPROVER_assigns", "__CPROVER_loop_invariant", "__CPROVER_decreases", "__CPROVER_frees"}

var strDefineRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+("[^"\n]*"|<[^>\n]*>)[ \t]*$`)

var includeMacroRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]+([A-Za-z_]\w*)`)

var includeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]`)

// contracts holds what prepareContracts made of the sources: each unit's
// text with its clauses blanked and the generated checks and uses
// appended.
type contracts struct {
	units   map[string]string           // source name → text with the clauses blanked
	cands   map[string][]*contract.Func // source name → the contracts it may declare
	al      contract.Aliases
	emitted map[*contract.Func]bool
}

// prepareContracts finds the contracts of the sources and of the headers
// they include (package contract: CBMC's clauses after a declarator or a
// loop header, and the macros a project writes them with), serves the
// headers with their clauses blanked through mem, and returns each
// unit's text with the generated functions of the contracts it declares
// or includes (a header's in the first unit that includes it). It
// returns nil when no source or header names a contract.
func prepareContracts(cfg Options, srcs []Source, mem memFS) (*contracts, error) {
	read := func(name string) (string, bool) {
		if s, ok := mem[filepath.Clean(name)]; ok {
			return s, true
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	// every header the units include, by raw scan (conditionals not
	// evaluated)
	closure := map[string][]string{} // unit → files in include order, itself first
	strDefs := map[string]string{}   // #define NAME "file" of the files read
	all := map[string]string{}
	for _, s := range srcs {
		if isHeader(s.Name) {
			continue
		}
		seen := map[string]bool{}
		var order []string
		var walk func(name, text string)
		walk = func(name, text string) {
			name = filepath.Clean(name)
			if seen[name] {
				return
			}
			seen[name] = true
			order = append(order, name)
			all[name] = text
			for _, d := range strDefineRE.FindAllStringSubmatch(text, -1) {
				strDefs[d[1]] = d[2]
			}
			incs := includeRE.FindAllStringSubmatch(text, -1)
			// #include MACRO, the macro a -D option (mlkem-native's
			// MLK_CONFIG_FILE) or a #define of the text gives a name
			for _, m := range includeMacroRE.FindAllStringSubmatch(text, -1) {
				v, ok := cfg.Defines[m[1]]
				if !ok {
					v, ok = strDefs[m[1]]
				}
				v = strings.TrimSpace(v)
				if ok && len(v) > 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '<' && v[len(v)-1] == '>') {
					incs = append(incs, []string{"", v[:1], v[1 : len(v)-1]})
				}
			}
			for _, m := range incs {
				var dirs []string
				if m[1] == `"` {
					dirs = append(dirs, filepath.Dir(name))
				}
				dirs = append(dirs, cfg.IncludeDirs...)
				for _, d := range dirs {
					p := filepath.Join(d, m[2])
					if t, ok := read(p); ok {
						walk(p, t)
						break
					}
				}
			}
		}
		walk(s.Name, s.Content)
		// again, with the names every file's #defines give includes
		seen, order = map[string]bool{}, nil
		walk(s.Name, s.Content)
		closure[s.Name] = order
	}
	found := false
	texts := make([]string, 0, len(all))
	names := make([]string, 0, len(all))
	for n, t := range all {
		names = append(names, n)
		for _, w := range contractWords {
			found = found || strings.Contains(t, w)
		}
	}
	if !found {
		return nil, nil
	}
	sort.Strings(names)
	for _, n := range names {
		texts = append(texts, all[n])
	}
	al := contract.FindAliases(texts...)
	fns := map[string][]*contract.Func{}
	rewritten := map[string]string{}
	for _, n := range names {
		out, fs, err := contract.Rewrite(n, blankQuantifiers(all[n]), al)
		if err != nil {
			return nil, err
		}
		rewritten[n] = out
		fns[n] = fs
		if isHeader(n) || !isSource(srcs, n) {
			mem[n] = out
		}
	}
	c := &contracts{units: map[string]string{}, cands: map[string][]*contract.Func{}, al: al, emitted: map[*contract.Func]bool{}}
	for _, s := range srcs {
		if isHeader(s.Name) {
			continue
		}
		seen := map[*contract.Func]bool{}
		for _, f := range closure[s.Name] {
			for _, fn := range fns[f] {
				if !seen[fn] {
					seen[fn] = true
					c.cands[s.Name] = append(c.cands[s.Name], fn)
				}
			}
		}
		c.units[s.Name] = rewritten[filepath.Clean(s.Name)]
	}
	return c, nil
}

// generate returns the text to append to unit: the checks and uses of
// the contracts among its candidates whose declarations the
// preprocessor kept (declared: "file:line" of every declarator the unit's
// first parse met) and that no earlier unit generated. A contract on a
// declaration and the definition's are one contract.
func (c *contracts) generate(unit string, decls map[string]declared) (string, error) {
	var mine []*contract.Func
	byName := map[string]*contract.Func{}
	for _, fn := range c.cands[unit] {
		d, ok := decls[fmt.Sprintf("%s:%d", filepath.Clean(fn.File), fn.Line)]
		if c.emitted[fn] || !ok {
			continue
		}
		fn.Real, fn.Kept, fn.CallAsWritten = d.name, d.params, d.macroAtEnd[fn.Name]
		c.emitted[fn] = true
		if prev := byName[fn.Name]; prev != nil {
			prev.Clauses = append(prev.Clauses, fn.Clauses...)
			continue
		}
		byName[fn.Name] = fn
		mine = append(mine, fn)
	}
	if len(mine) == 0 {
		return "", nil
	}
	return contract.Generate(mine, c.al)
}

// declared is a declarator as the first parse saw it: its name and its
// parameters' names after macro expansion.
type declared struct {
	name   string
	params []string
	// macroAtEnd: the name as written is a macro where the unit ends
	// (where the generated text goes)
	macroAtEnd map[string]bool
}

// declaredLines returns "file:line" of every declarator at file scope of
// ast (function definitions and declarations), with the names of a
// function's parameters as the preprocessor left them (a function-like
// macro naming the function may drop some: mlkem-native's context
// parameter).
func declaredLines(ast *cc.AST) map[string]declared {
	out := map[string]declared{}
	macros := map[string]bool{}
	for n := range ast.Macros {
		macros[n] = true
	}
	add := func(d *cc.Declarator) {
		if d == nil {
			return
		}
		p := d.Position()
		names := []string{}
		if ft, ok := d.Type().(*cc.FunctionType); ok {
			for _, prm := range ft.Parameters() {
				if prm.Type() != nil && prm.Type().Kind() == cc.Void {
					continue // (void)
				}
				names = append(names, prm.Name())
			}
		}
		out[fmt.Sprintf("%s:%d", filepath.Clean(p.Filename), p.Line)] = declared{d.Name(), names, macros}
	}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil {
			continue
		}
		if ed.FunctionDefinition != nil {
			add(ed.FunctionDefinition.Declarator)
		}
		if ed.Declaration != nil {
			for il := ed.Declaration.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
				if il.InitDeclarator != nil {
					add(il.InitDeclarator.Declarator)
				}
			}
		}
	}
	return out
}

func isSource(srcs []Source, name string) bool {
	for _, s := range srcs {
		if filepath.Clean(s.Name) == name && !isHeader(s.Name) {
			return true
		}
	}
	return false
}

// The functions the generated text of contracts calls to take the values
// __CPROVER_old reads (contract.Prelude): __reverify_snapshot() marks
// where, __reverify_old(&e) reads e's value there.
const (
	// contractCheckFunc(c, "msg") checks a contract's obligation
	// without blocking (nonBlocking).
	contractCheckFunc = "__reverify_check"
	// unsupportedFunc("what") is an unsupported construct.
	unsupportedFunc = "__reverify_unsupported"
	snapshotFunc    = "__reverify_snapshot"
	oldFunc         = "__reverify_old"
)

// snapshot marks the place of a function's old values: a no-op edge
// before which old's reads are placed.
func (fc *fnctx) snapshot(tn cc.Node) {
	rng, text := fc.rt(tn)
	next := fc.b.node()
	fc.b.edge(fc.cur, next, &cfa.Noop{Label: "old values"}, rng, text)
	fc.snapEdge = len(fc.b.edges) - 1
	fc.snapLocals = len(fc.f.Locals)
	fc.cur = next
}

// old translates __reverify_old(&e): e's value at the snapshot, read
// into a temporary there; the result is the temporary's address. e may
// not use a variable declared after the snapshot (a quantifier's bound
// variable), whose value is not known there.
func (fc *fnctx) old(arg cc.ExpressionNode, tn cc.Node) (res cfa.Expr) {
	if fc.snapEdge < 0 {
		fc.unsupported("__CPROVER_old outside a contract", tn)
	}
	saved, nEdges := fc.cur, len(fc.b.edges)
	defer func() {
		if r := recover(); r != nil {
			fc.b.edges = fc.b.edges[:nEdges]
			fc.cur = saved
			panic(r)
		}
	}()
	fc.cur = fc.b.edges[fc.snapEdge].from
	n0 := len(fc.f.Locals)
	p := fc.rv(arg)
	pt := p.Type()
	if pt.Kind != cfa.Pointer || pt.Elem == nil || pt.Elem.Size == 0 {
		fc.unsupported("__CPROVER_old of an expression without a complete type", tn)
	}
	late := map[*cfa.Var]bool{}
	for _, v := range fc.f.Locals[fc.snapLocals:n0] {
		late[v] = true
	}
	for _, v := range cfa.Vars(p) {
		if late[v] {
			fc.unsupported("__CPROVER_old of an expression over "+v.Orig+", which has no value where the old values are taken", tn)
		}
	}
	o := fc.temp(pt.Elem)
	o.Var.AddrTaken = true
	fc.emit(&cfa.Assign{LHS: o, RHS: &cfa.Deref{X: p, T: pt.Elem}}, tn)
	k, from := fc.snapEdge, fc.b.edges[fc.snapEdge].from
	fc.b.edges[k].from = fc.cur
	// a statement rolled back (unsupported) takes its reads away
	fc.b.undo = append(fc.b.undo, func() {
		if k < len(fc.b.edges) {
			fc.b.edges[k].from = from
		}
	})
	fc.cur = saved
	return &cfa.Cast{X: &cfa.AddrOf{X: o, T: fc.t.tm.ptr(pt.Elem)}, T: fc.t.tm.ptr(cfa.VoidType)}
}

// intervalRE matches the inside of a quantifier over an interval with
// any lower bound, as contracts write it (mlkem-native's forall: T i;
// (lb <= i && i < ub) ==> body, the bounds and i possibly cast and
// parenthesised).
var intervalRE = regexp.MustCompile(`^\s*((?:unsigned|signed|const|long|short|int|char|[A-Za-z_]\w*_t|size_t)(?:\s+(?:unsigned|signed|long|short|int|char))*)\s+([A-Za-z_]\w*)\s*;\s*(.+?)\s*==>\s*(.+?)\s*$`)

// lowerInterval lowers __CPROVER_forall { T i; (lb <= i && i < ub) ==>
// body } (or i >= lb) to a statement expression that runs i over [lb,
// ub) in T, exactly the values the premise admits (i < ub bounds i + 1
// by ub, so i never wraps).
func lowerInterval(flat string) (string, bool) {
	m := intervalRE.FindStringSubmatch(flat)
	if m == nil {
		return "", false
	}
	t, i, premise, body := m[1], m[2], strings.TrimSpace(m[3]), m[4]
	for strings.HasPrefix(premise, "(") && closes(premise) {
		premise = strings.TrimSpace(premise[1 : len(premise)-1])
	}
	parts := splitAnd(premise)
	if len(parts) != 2 || strings.Contains(body, "==>") {
		return "", false
	}
	iv := `\(?\s*` + i + `\s*\)?`
	lowRE := regexp.MustCompile(`^(.+?)\s*<=\s*` + iv + `$`)
	lowRE2 := regexp.MustCompile(`^` + iv + `\s*>=\s*(.+)$`)
	highRE := regexp.MustCompile(`^` + iv + `\s*<\s*(.+)$`)
	lo := lowRE.FindStringSubmatch(strings.TrimSpace(parts[0]))
	if lo == nil {
		lo = lowRE2.FindStringSubmatch(strings.TrimSpace(parts[0]))
	}
	hi := highRE.FindStringSubmatch(strings.TrimSpace(parts[1]))
	if lo == nil || hi == nil {
		return "", false
	}
	if regexp.MustCompile(`\b` + i + `\b`).MatchString(lo[1] + hi[1]) {
		return "", false
	}
	// the loop from lb upwards meets every value the premise admits when
	// i < ub is monotone in i: i unsigned, or i signed and lb >= 0 (a
	// negative i would compare as a large unsigned value)
	if !unsignedType(t) && !nonNegativeRE.MatchString(lo[1]) {
		return "", false
	}
	guard := ""
	if t == "int" {
		guard = fmt.Sprintf(" if (%s == 0x7fffffff) break;", i)
	}
	return fmt.Sprintf("({ _Bool __cprover_forall = 1; for (%s %s = (%s); %s < (%s); %s++) { if (!(%s)) { __cprover_forall = 0; break; }%s } __cprover_forall; })",
		t, i, lo[1], i, hi[1], i, body, guard), true
}

var nonNegativeRE = regexp.MustCompile(`^[(\s]*[0-9]+[uUlL]*[)\s]*$`)

// unsignedType reports whether the type named t is unsigned.
func unsignedType(t string) bool {
	return strings.HasPrefix(t, "unsigned") || strings.HasPrefix(t, "uint") || t == "size_t" || strings.HasPrefix(t, "u_")
}

// closes reports whether the '(' at s[0] closes at s's last byte.
func closes(s string) bool {
	depth := 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k == len(s)-1
			}
		}
	}
	return false
}

// splitAnd splits s at its top-level &&.
func splitAnd(s string) []string {
	var parts []string
	depth, from := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '&':
			if depth == 0 && k+1 < len(s) && s[k+1] == '&' {
				parts = append(parts, s[from:k])
				from = k + 2
				k++
			}
		}
	}
	return append(parts, s[from:])
}

// writesNothing names the functions whose calls the contracts replace
// (all, or those in use when not nil) and whose contracts assign nothing
// (no assigns clause, or an empty one): a loop body may call them
// without an assigns clause of its own.
func (c *contracts) writesNothing(use map[string]bool) map[string]bool {
	out := map[string]bool{}
	for fn := range c.emitted {
		if fn.Real == "" || use != nil && !use[fn.Real] {
			continue
		}
		assigns := false
		for _, cl := range fn.Clauses {
			if cl.Kind == contract.Assigns && strings.TrimSpace(cl.Text) != "" {
				assigns = true
			}
		}
		if !assigns {
			out[fn.Real] = true
		}
	}
	return out
}
