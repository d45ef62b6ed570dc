package witness

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/csyntax"
	"github.com/reverify/reverify/results"
)

// Correctness is a TRUE verdict's evidence: loop invariants of Program.
type Correctness struct {
	Program    *cfa.Program
	Invariants []results.Invariant
	Task       Task
	// Property, when not empty, is the ID of the one property the
	// invariants prove (an assertion site rather than SV-COMP's whole
	// unreach-call); it is recorded in producer.description as
	// "property: ID" so that `reverify validate` checks that property.
	Property string
	// K is the induction depth the invariants need (0 and 1: they are
	// inductive, Floyd's inductive assertions): with K > 1 the witness
	// records "k-induction: K" in producer.description and the
	// validator checks the invariant set by K-induction over the cut
	// points (engine/witness/validate). A bounded model checking proof
	// (every execution ends within the unwinding bound) or a
	// k-induction proof sets it; their invariants may be "1".
	K int

	// Chosen, set by validate.Select (engine/witness/validate),
	// replaces the rendered invariant at a loop keyword.
	Chosen map[cfa.Pos]string
}

// YAMLInvariantItem is one item of an invariant_set's content.
type YAMLInvariantItem struct {
	Invariant YAMLInvariant `yaml:"invariant"`
}

// YAMLInvariant is a loop invariant (format 2.0): Value, a side-effect
// free C expression over the variables in scope, holds each time control
// reaches the loop head at Location (the first character of the for or
// while keyword), before the controlling expression is evaluated.
type YAMLInvariant struct {
	Type     string       `yaml:"type"`
	Location YAMLLocation `yaml:"location"`
	Value    string       `yaml:"value"`
	Format   string       `yaml:"format"`
}

// YAMLCorrectnessEntry is an invariant_set entry.
type YAMLCorrectnessEntry struct {
	EntryType string              `yaml:"entry_type"`
	Metadata  YAMLMetadata        `yaml:"metadata"`
	Content   []YAMLInvariantItem `yaml:"content"`
}

// The invariant types of format 2.0 that reverify writes and validates:
// a loop_invariant at a while or for keyword holds at every evaluation
// of the loop's condition; a location_invariant at the start of a
// statement holds whenever control reaches it, written for loops
// without such a keyword (goto and do … while loops) at the statement
// their loop head precedes.
const (
	LoopInvariantType     = "loop_invariant"
	LocationInvariantType = "location_invariant"
)

// Sources loads input files once, from Task.Contents or disk.
type Sources struct {
	contents map[string]string
	files    map[string]*srcFile
}

func NewSources(contents map[string]string) *Sources {
	return &Sources{contents: contents, files: map[string]*srcFile{}}
}

func (s *Sources) file(name string) *srcFile {
	if name == "" {
		return nil
	}
	if f, ok := s.files[name]; ok {
		return f
	}
	var f *srcFile
	if t, ok := s.contents[name]; ok {
		f = newSrcFile(name, []byte(t))
	} else if b, err := os.ReadFile(name); err == nil {
		f = newSrcFile(name, b)
	}
	s.files[name] = f
	return f
}

// Text returns the text of the file name; ok is false when it cannot be
// read.
func (s *Sources) Text(name string) (text []byte, ok bool) {
	f := s.file(name)
	if f == nil {
		return nil, false
	}
	return f.text, true
}

// CallParen returns the closing parenthesis of the call of fn that edge
// e ends with.
func (s *Sources) CallParen(e *cfa.Edge, fn string) (cfa.Pos, bool) {
	return s.file(e.Pos.Start.File).edgeCallParen(e, fn)
}

// edgeSpan returns the source file of edge e and e's text in it, blanks
// trimmed (offsets lo ≤ hi); ok is false when the file or the span is
// unknown.
func (s *Sources) edgeSpan(e *cfa.Edge) (f *srcFile, lo, hi int, ok bool) {
	f = s.file(e.Pos.Start.File)
	if f == nil {
		return nil, 0, 0, false
	}
	lo, hi, ok = f.span(e.Pos)
	if !ok {
		return nil, 0, 0, false
	}
	lo, hi = f.trimSpan(lo, hi)
	return f, lo, hi, true
}

// Branch resolves assume edge e to its statement keyword and the value
// of the whole controlling expression, if e decides it (switch and
// do … while statements have none).
func (s *Sources) Branch(e *cfa.Edge) (kw cfa.Pos, value, decisive, ok bool) {
	a, isAssume := e.Op.(*cfa.Assume)
	if !isAssume {
		return
	}
	f, lo, hi, ok2 := s.edgeSpan(e)
	if !ok2 {
		return
	}
	b := f.enclosingBranch(lo)
	if b == nil || b.keyword == "switch" || b.doWhile {
		return
	}
	kw, ok = f.pos(b.kwOff), true
	if b.tree == nil {
		return
	}
	atom := b.tree.find(lo, hi)
	if atom == nil {
		return
	}
	value, decisive = outcome(atom, a.Truth)
	return
}

// LoopSite is the source statement of a CFA loop head.
type LoopSite struct {
	f        *srcFile
	Keyword  cfa.Pos // the for or while keyword, or the statement's start (Statement)
	kwOff    int
	parenLo  int // the for statement's parentheses (declarations there are in scope)
	parenHi  int
	Function string
	// Statement: the loop has no while or for keyword (a goto or
	// do … while loop); Keyword is the first character of the
	// statement the loop head precedes, and the invariant there is a
	// location_invariant.
	Statement bool
}

// Type is the format 2.0 invariant type at s.
func (s LoopSite) Type() string {
	if s.Statement {
		return LocationInvariantType
	}
	return LoopInvariantType
}

// Location is s as a format 2.0 location.
func (s LoopSite) Location() YAMLLocation {
	return YAMLLocation{FileName: s.Keyword.File, Line: s.Keyword.Line, Column: s.Keyword.Col, Function: s.Function}
}

// LoopSiteOf maps the loop head loc to its while or for statement: the
// statement whose controlling expression contains one of loc's out
// edges (the condition's assume edge, or the first evaluation step of a
// condition such as "__VERIFIER_nondet_int()" that the front end puts in
// a temporary first); else, for a loop whose condition the front end
// drops (while (1), for (;;)), the statement whose body starts with an
// out edge of loc (constantLoop); else, for do … while and goto loops,
// the statement that starts with an out edge of loc (an if statement
// whose condition does, or a statement whose first character does, after
// a semicolon, a brace or a label), as a Statement site.
func LoopSiteOf(src *Sources, loc *cfa.Location) (LoopSite, bool) {
	site := func(f *srcFile, kw string, kwOff int) LoopSite {
		s := LoopSite{f: f, Keyword: f.pos(kwOff), kwOff: kwOff, Function: loc.Func.Name}
		if open := f.skipSpace(kwOff + len(kw)); open < len(f.code) && f.code[open] == '(' {
			if close, ok := f.matchForward(open); ok {
				s.parenLo, s.parenHi = open, close
			}
		}
		return s
	}
	for pass := 0; pass < 3; pass++ {
		for _, e := range loc.Out {
			if _, ok := e.Op.(*cfa.Assume); pass < 2 && ok != (pass == 0) {
				continue
			}
			f, lo, _, ok := src.edgeSpan(e)
			if !ok {
				continue
			}
			if pass == 2 {
				if b := f.enclosingBranch(lo); b != nil && !b.doWhile {
					lo = b.kwOff // the statement starts at its keyword
				}
				if kw, kwOff, ok := f.constantLoop(lo); ok {
					return site(f, kw, kwOff), true
				}
				continue
			}
			b := f.enclosingBranch(lo)
			if b == nil || b.doWhile || (b.keyword != "while" && b.keyword != "for") {
				continue
			}
			return site(f, b.keyword, b.kwOff), true
		}
	}
	for _, e := range loc.Out {
		f, lo, _, ok := src.edgeSpan(e)
		if !ok {
			continue
		}
		if b := f.enclosingBranch(lo); b != nil {
			if b.keyword != "if" || !f.conditionStart(b.kwOff+len("if"), lo) {
				continue
			}
			lo = b.kwOff
		}
		if f.statementStart(lo) {
			return LoopSite{f: f, Keyword: f.pos(lo), kwOff: lo, Function: loc.Func.Name, Statement: true}, true
		}
	}
	return LoopSite{}, false
}

// conditionStart reports whether off is where the condition in the
// parentheses opening after offset after starts (only blanks, opening
// parentheses and negations before it), so that the if statement starts
// with the edge at off.
func (f *srcFile) conditionStart(after, off int) bool {
	open := f.skipSpace(after)
	if open >= len(f.code) || f.code[open] != '(' || off <= open {
		return false
	}
	for i := open + 1; i < off; i++ {
		if c := f.code[i]; !isSpace(c) && c != '(' && c != '!' {
			return false
		}
	}
	return true
}

// statementStart reports whether a statement can start at off: the
// last character before it is a semicolon or a brace, or the colon of a
// label (an identifier after a semicolon, a brace or the file's start).
func (f *srcFile) statementStart(off int) bool {
	i := f.skipSpaceBack(off - 1)
	if i < 0 {
		return false
	}
	switch f.code[i] {
	case ';', '{', '}':
		return true
	case ':':
		word, ws := f.wordBefore(i)
		if word == "" || word == "default" || word[0] >= '0' && word[0] <= '9' {
			return false
		}
		j := f.skipSpaceBack(ws - 1)
		return j < 0 || f.code[j] == ';' || f.code[j] == '{' || f.code[j] == '}'
	}
	return false
}

// constantLoop reports whether the statement starting at off is the first
// of the body of a "while (c)" with a nonzero integer literal c or of a
// "for (…; ; …)" without a condition, and returns its keyword.
func (f *srcFile) constantLoop(off int) (kw string, kwOff int, ok bool) {
	i := f.skipSpaceBack(off - 1)
	if i >= 0 && f.code[i] == '{' {
		i = f.skipSpaceBack(i - 1)
	}
	if i < 0 || f.code[i] != ')' {
		return "", 0, false
	}
	open, ok := f.matchBack(i)
	if !ok {
		return "", 0, false
	}
	word, ws := f.wordBefore(open)
	inner := strings.TrimSpace(string(f.code[open+1 : i]))
	switch word {
	case "while":
		if v, ok := csyntax.ParseIntLiteral(inner); ok && v != 0 {
			return word, ws, true
		}
	case "for":
		parts := strings.Split(inner, ";")
		if len(parts) == 3 && strings.TrimSpace(parts[1]) == "" {
			return word, ws, true
		}
	}
	return "", 0, false
}

// blockOf returns the braces of the innermost block around off.
func (f *srcFile) blockOf(off int) (lo, hi int, ok bool) {
	depth := 0
	for i := off - 1; i >= 0; i-- {
		switch f.code[i] {
		case '}':
			depth++
		case '{':
			if depth > 0 {
				depth--
				continue
			}
			if j, ok := f.matchForward(i); ok {
				return i, j, true
			}
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// Scope returns the variables an invariant at the loop site can name,
// by source name: the parameters of the loop's function, its locals
// declared before the loop keyword in a block that encloses the loop (or
// in the for statement's own parentheses), and the globals no such local
// shadows. Names that are ambiguous (two locals of one name both in
// scope) are left out, as are temporaries and static locals.
func Scope(p *cfa.Program, fn *cfa.Function, s LoopSite) map[string]*cfa.Var {
	locals := map[string][]*cfa.Var{}
	for _, v := range append(append([]*cfa.Var(nil), fn.Params...), fn.Locals...) {
		if v.Temp || v.Orig == "" || strings.HasPrefix(v.Orig, "__") {
			continue
		}
		if !v.Param {
			if v.Pos.File != s.f.name {
				continue
			}
			off, ok := s.f.offset(v.Pos)
			if !ok {
				continue
			}
			inFor := s.parenHi > 0 && off > s.parenLo && off < s.parenHi
			if !inFor {
				if off >= s.kwOff {
					continue
				}
				lo, hi, ok := s.f.blockOf(off)
				if !ok || !(lo < s.kwOff && s.kwOff < hi) {
					continue
				}
			}
		}
		locals[v.Orig] = append(locals[v.Orig], v)
	}
	out := map[string]*cfa.Var{}
	ambiguous := map[string]bool{}
	for name, vs := range locals {
		if len(vs) == 1 {
			out[name] = vs[0]
		} else {
			ambiguous[name] = true
		}
	}
	for _, v := range p.Vars {
		if !v.Global || v.Temp || v.Orig == "" || strings.Contains(v.Name, "::") || strings.HasPrefix(v.Orig, "__") {
			continue
		}
		if _, shadowed := out[v.Orig]; shadowed || ambiguous[v.Orig] {
			continue
		}
		if _, dup := out[v.Orig]; !dup {
			out[v.Orig] = v
		}
	}
	return out
}

// CExpr prints e as a C expression over source names (VarRef as Orig);
// ok is false for constructs without a plain C spelling here.
func CExpr(e cfa.Expr) (string, bool) {
	switch e := e.(type) {
	case *cfa.VarRef:
		if e.Var.Orig == "" {
			return "", false
		}
		return e.Var.Orig, true
	case *cfa.Const:
		if !e.T.IsInteger() && !(e.T.Kind == cfa.Pointer && e.V == 0) {
			return "", false
		}
		return CValue(e.T, e.V), true
	case *cfa.Cast:
		x, ok := CExpr(e.X)
		if !ok {
			return "", false
		}
		if cfa.Same(e.T, e.X.Type()) {
			return x, true
		}
		t, ok := CType(e.T)
		if !ok || e.T.Kind == cfa.Pointer {
			return "", false
		}
		return "(" + t + ")" + paren(e.X, x), true
	case *cfa.Unary:
		x, ok := CExpr(e.X)
		if !ok {
			return "", false
		}
		return e.Op.String() + paren(e.X, x), true
	case *cfa.Binary:
		x, ok1 := CExpr(e.X)
		y, ok2 := CExpr(e.Y)
		if !ok1 || !ok2 {
			return "", false
		}
		return paren(e.X, x) + " " + e.Op.String() + " " + paren(e.Y, y), true
	case *cfa.Index:
		// an element of an array variable at a constant index
		r, ok1 := e.X.(*cfa.VarRef)
		i, ok2 := e.I.(*cfa.Const)
		if !ok1 || !ok2 || r.Var.T.Kind != cfa.Array {
			return "", false
		}
		x, ok1 := CExpr(r)
		idx, ok2 := CExpr(i)
		if !ok1 || !ok2 {
			return "", false
		}
		return x + "[" + idx + "]", true
	}
	return "", false
}

// paren parenthesises the text of compound operands.
func paren(e cfa.Expr, s string) string {
	switch e.(type) {
	case *cfa.Binary:
		return "(" + s + ")"
	case *cfa.Const:
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "(") {
			return "(" + s + ")"
		}
	}
	return s
}

// InvariantText renders inv as a C expression over the names in names
// (source name → variable): facts mentioning other variables are
// dropped, which weakens the invariant soundly. Facts all disjuncts
// share are factored out; disjuncts that each fix one variable to one of
// contiguous values become a range; "1" when nothing is known.
func InvariantText(inv results.Invariant, names map[string]*cfa.Var) string {
	var states [][]string
	var facts [][]results.Fact // the facts of each state, for EqFact
	for _, st := range inv.States {
		var conj []string
		seen := map[string]bool{}
		for _, f := range st {
			ok := true
			for _, v := range f.Vars {
				if names[v.Orig] != v {
					ok = false
				}
			}
			if !ok {
				continue
			}
			s, ok := CExpr(f.Expr)
			if !ok || seen[s] {
				continue
			}
			seen[s] = true
			conj = append(conj, s)
		}
		sort.Strings(conj)
		if len(conj) == 0 {
			return "1"
		}
		states = append(states, conj)
		facts = append(facts, st)
	}
	if len(states) == 0 {
		// No reached state at the loop head: it is unreachable.
		return "0"
	}
	states, facts = absorb(states, facts)
	// Facts shared by all disjuncts.
	count := map[string]int{}
	for _, st := range states {
		for _, s := range st {
			count[s]++
		}
	}
	var common []string
	for s, n := range count {
		if n == len(states) {
			common = append(common, s)
		}
	}
	sort.Strings(common)
	isCommon := map[string]bool{}
	for _, s := range common {
		isCommon[s] = true
	}
	var rest []string
	seen := map[string]bool{}
	trivial := false
	var single []*cfa.Binary
	for i, st := range states {
		var r []string
		for _, s := range st {
			if !isCommon[s] {
				r = append(r, s)
			}
		}
		if len(r) == 0 {
			trivial = true
			break
		}
		if len(r) == 1 {
			if b := EqFact(facts[i], r[0]); b != nil {
				single = append(single, b)
			}
		}
		d := strings.Join(r, " && ")
		if len(r) > 1 {
			d = "(" + d + ")"
		}
		if !seen[d] {
			seen[d] = true
			rest = append(rest, d)
		}
	}
	parts := append([]string(nil), common...)
	if !trivial && len(rest) > 0 {
		if rng, ok := valueRange(single, len(rest)); ok {
			parts = append(parts, rng)
		} else if len(rest) == 1 {
			parts = append(parts, strings.TrimSuffix(strings.TrimPrefix(rest[0], "("), ")"))
		} else if len(parts) == 0 {
			return strings.Join(rest, " || ")
		} else {
			parts = append(parts, "("+strings.Join(rest, " || ")+")")
		}
	}
	if len(parts) == 0 {
		return "1"
	}
	return strings.Join(parts, " && ")
}

// absorb drops the disjuncts that another implies (absorption, A || (A
// && B) = A): a state whose conjunct set is a superset of another's, and
// repeated states but the first. The order of the others is kept; facts
// runs parallel to states. Shapes: states[i] is a sorted list of C
// conjuncts; O(n²) set comparisons for n states, shorter sets first.
func absorb(states [][]string, facts [][]results.Fact) ([][]string, [][]results.Fact) {
	order := make([]int, len(states))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(states[order[a]]) < len(states[order[b]]) })
	sets := make([]map[string]bool, len(states))
	for i, st := range states {
		sets[i] = make(map[string]bool, len(st))
		for _, s := range st {
			sets[i][s] = true
		}
	}
	drop := make([]bool, len(states))
	var kept []int // minimal states so far, by increasing size
	for _, i := range order {
		for _, j := range kept {
			if subset(states[j], sets[i]) {
				drop[i] = true
				break
			}
		}
		if !drop[i] {
			kept = append(kept, i)
		}
	}
	var outS [][]string
	var outF [][]results.Fact
	for i := range states {
		if !drop[i] {
			outS = append(outS, states[i])
			outF = append(outF, facts[i])
		}
	}
	return outS, outF
}

// subset reports whether every conjunct of a is in set.
func subset(a []string, set map[string]bool) bool {
	if len(a) > len(set) {
		return false
	}
	for _, s := range a {
		if !set[s] {
			return false
		}
	}
	return true
}

// EqFact finds the fact printed as s among facts if it is "x == c".
func EqFact(facts []results.Fact, s string) *cfa.Binary {
	for _, f := range facts {
		if t, _ := CExpr(f.Expr); t != s {
			continue
		}
		b, ok := f.Expr.(*cfa.Binary)
		if !ok || b.Op != cfa.Eq {
			return nil
		}
		if _, ok := b.X.(*cfa.VarRef); !ok {
			return nil
		}
		if _, ok := b.Y.(*cfa.Const); !ok {
			return nil
		}
		return b
	}
	return nil
}

// valueRange turns n disjuncts "x == c1" … "x == cn" over one integer
// variable x with contiguous constants (n ≥ 3) into "lo <= x && x <= hi".
func valueRange(bs []*cfa.Binary, n int) (string, bool) {
	if len(bs) != n || n < 3 {
		return "", false
	}
	v := bs[0].X.(*cfa.VarRef).Var
	if !v.T.IsInteger() || v.T.Kind == cfa.Bool {
		return "", false
	}
	vals := make([]int64, 0, n)
	for _, b := range bs {
		if b.X.(*cfa.VarRef).Var != v {
			return "", false
		}
		c := b.Y.(*cfa.Const)
		if v.T.IsSigned() {
			vals = append(vals, cfa.SignExtend(c.V, v.T.Width()))
		} else {
			if c.V > 1<<62 {
				return "", false
			}
			vals = append(vals, int64(c.V))
		}
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	for i := 1; i < len(vals); i++ {
		if vals[i] != vals[i-1]+1 {
			return "", false
		}
	}
	lo, hi := vals[0], vals[len(vals)-1]
	return fmt.Sprintf("%s <= %s && %s <= %s", CValue(v.T, uint64(lo)), v.Orig, v.Orig, CValue(v.T, uint64(hi))), true
}

// Located is an invariant with its source location and text.
type Located struct {
	Inv  results.Invariant
	Invs []results.Invariant // every loop head at the keyword (Inv first)
	Site LoopSite
	Text string
}

// Locate places each invariant at its loop site (LoopSiteOf) and renders
// it; invariants of loops without a site are left out, and invariants of
// loop heads sharing one keyword are joined by ||.
func (c *Correctness) Locate(src *Sources) []Located {
	var out []Located
	byKw := map[cfa.Pos]int{}
	for _, inv := range c.Invariants {
		site, ok := LoopSiteOf(src, inv.Loc)
		if !ok {
			continue
		}
		text := InvariantText(inv, Scope(c.Program, inv.Loc.Func, site))
		if i, ok := byKw[site.Keyword]; ok {
			if out[i].Text != text {
				out[i].Text = "(" + out[i].Text + ") || (" + text + ")"
			}
			out[i].Invs = append(out[i].Invs, inv)
			continue
		}
		byKw[site.Keyword] = len(out)
		out = append(out, Located{Inv: inv, Invs: []results.Invariant{inv}, Site: site, Text: text})
	}
	for i := range out {
		if t, ok := c.Chosen[out[i].Site.Keyword]; ok {
			out[i].Text = t
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Site.Keyword, out[j].Site.Keyword
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out
}

// meta returns the metadata shared by both formats: input files, hashes.
func (c *Correctness) meta(src *Sources) (files []string, hashes map[string]string, err error) {
	if c == nil || c.Program == nil {
		return nil, nil, errors.New("witness: no program")
	}
	files = c.Task.Files
	if len(files) == 0 {
		files = c.Program.Files
	}
	if len(files) == 0 {
		return nil, nil, errors.New("witness: no input files")
	}
	hashes = map[string]string{}
	for _, name := range files {
		if h := c.Task.Hashes[name]; h != "" {
			hashes[name] = h
			continue
		}
		f := src.file(name)
		if f == nil {
			_, err := os.ReadFile(name)
			return nil, nil, fmt.Errorf("witness: cannot hash %s: %v", name, err)
		}
		sum := sha256.Sum256(f.text)
		hashes[name] = hex.EncodeToString(sum[:])
	}
	return files, hashes, nil
}

func (c *Correctness) vctx() *ctx {
	return &ctx{v: &Violation{Program: c.Program, Task: c.Task}}
}

// CorrectnessYAML returns the invariant_set entry of c: one loop_invariant
// per loop head whose while or for keyword the sources show, one
// location_invariant per other loop head whose statement they show
// (LoopSiteOf).
func CorrectnessYAML(c *Correctness) (YAMLCorrectnessEntry, error) {
	src := NewSources(c.Task.Contents)
	files, hashes, err := c.meta(src)
	if err != nil {
		return YAMLCorrectnessEntry{}, err
	}
	vc := c.vctx()
	name, version := vc.producer()
	e := YAMLCorrectnessEntry{
		EntryType: "invariant_set",
		Metadata: YAMLMetadata{
			FormatVersion: FormatVersion,
			UUID:          vc.uuid(),
			CreationTime:  vc.created(),
			Producer:      YAMLProducer{Name: name, Version: version, Configuration: c.Task.Configuration, Description: Description(c.Property, c.K)},
			Task: YAMLTask{
				InputFiles:      append([]string(nil), files...),
				InputFileHashes: hashes,
				Specification:   SpecFormula(c.Task.Specification),
				DataModel:       c.Task.DataModel.String(),
				Language:        "C",
			},
		},
		Content: []YAMLInvariantItem{},
	}
	for _, l := range c.Locate(src) {
		e.Content = append(e.Content, YAMLInvariantItem{Invariant: YAMLInvariant{
			Type:     l.Site.Type(),
			Location: l.Site.Location(),
			Value:    l.Text,
			Format:   "c_expression",
		}})
	}
	return e, nil
}

// The fields of producer.description that reverify writes and reads,
// one "key: value" per line: the property a per-assertion witness
// proves, and the induction depth of the invariant set.
const (
	PropertyKey = "property"
	kKey        = "k-induction"
)

// Description returns producer.description for the property id ("" for
// SV-COMP's whole unreach-call) and induction depth k (written only
// above 1).
func Description(id string, k int) string {
	var lines []string
	if id != "" {
		lines = append(lines, PropertyKey+": "+id)
	}
	if k > 1 {
		lines = append(lines, fmt.Sprintf("%s: %d", kKey, k))
	}
	return strings.Join(lines, "\n")
}

// DescriptionField returns the value of the line "key: value" of a
// producer.description (Description).
func DescriptionField(desc, key string) (string, bool) {
	for _, line := range strings.Split(desc, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), key+":"); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// MaxK bounds the induction depth a witness may ask for.
const MaxK = 1 << 20

// InductionDepth returns the induction depth of a correctness witness's
// metadata: 1 without a "k-induction" field; a field that is not an
// integer in [1, MaxK] is a *BadWitnessError.
func InductionDepth(md YAMLMetadata) (int, error) {
	v, ok := DescriptionField(md.Producer.Description, kKey)
	if !ok {
		return 1, nil
	}
	k, err := strconv.Atoi(v)
	if err != nil || k < 1 || k > MaxK {
		return 0, bad("witness: producer.description: %s: %q is not an induction depth in [1, %d]", kKey, v, MaxK)
	}
	return k, nil
}

// WriteCorrectnessYAML writes c as a YAML correctness witness, format
// 2.0 (sv-witnesses, correctness-witness schema): a list with one
// invariant_set entry, metadata as for violation witnesses, and content
// a list of loop_invariant items located at the first character of the
// loop's for or while keyword (location_invariant items at the first
// character of the statement a goto or do … while loop's head precedes)
// with value in format c_expression.
func WriteCorrectnessYAML(w io.Writer, c *Correctness) error {
	e, err := CorrectnessYAML(c)
	if err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode([]YAMLCorrectnessEntry{e}); err != nil {
		return err
	}
	return enc.Close()
}

// WriteCorrectnessGraphML writes c as a GraphML 1.0 correctness witness
// (sv-witnesses README-GraphML.md): graph data witness-type
// correctness_witness and the metadata of violation witnesses; an entry
// node N0, and per loop invariant a node carrying it (invariant,
// invariant.scope = the function) entered from N0 by transitions that
// match the CFA edges into the loop head (enterLoopHead, startline,
// endline) and left by one unguarded transition back to N0, so that the
// invariant is claimed exactly when control is at the loop head. An
// unguarded transition matches every CFA edge; transitions never
// restrict the state space (no assumptions), as the format requires of
// correctness witnesses.
func WriteCorrectnessGraphML(w io.Writer, c *Correctness) error {
	src := NewSources(c.Task.Contents)
	files, hashes, err := c.meta(src)
	if err != nil {
		return err
	}
	vc := c.vctx()
	producer, arch := graphmlProducerArch(c.Task, vc.producer)
	var b strings.Builder
	keys := []graphmlKey{
		{"witness-type", "witness-type", "graph", "string", ""},
		{"sourcecodelang", "sourcecodelang", "graph", "string", ""},
		{"producer", "producer", "graph", "string", ""},
		{"specification", "specification", "graph", "string", ""},
		{"programfile", "programfile", "graph", "string", ""},
		{"programhash", "programhash", "graph", "string", ""},
		{"architecture", "architecture", "graph", "string", ""},
		{"creationtime", "creationtime", "graph", "string", ""},
		{"entry", "isEntryNode", "node", "boolean", "false"},
		{"invariant", "invariant", "node", "string", ""},
		{"invariant.scope", "invariant.scope", "node", "string", ""},
		{"enterLoopHead", "enterLoopHead", "edge", "boolean", "false"},
		{"startline", "startline", "edge", "int", ""},
		{"endline", "endline", "edge", "int", ""},
	}
	graphmlHeader(&b, keys)
	for _, d := range [][2]string{
		{"witness-type", "correctness_witness"},
		{"sourcecodelang", "C"},
		{"producer", producer},
		{"specification", specCheck(c.Task.Specification, c.Task.Entry)},
		{"programfile", files[0]},
		{"programhash", hashes[files[0]]},
		{"architecture", arch},
		{"creationtime", vc.created()},
	} {
		fmt.Fprintf(&b, "  <data key=%q>%s</data>\n", d[0], esc(d[1]))
	}
	b.WriteString("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n")
	var edges strings.Builder
	for i, l := range c.Locate(src) {
		id := fmt.Sprintf("N%d", i+1)
		fmt.Fprintf(&b, "  <node id=%q>\n   <data key=\"invariant\">%s</data>\n   <data key=\"invariant.scope\">%s</data>\n  </node>\n",
			id, esc(l.Text), esc(l.Site.Function))
		lines := map[[2]int]bool{}
		var spans [][2]int
		for _, e := range l.Inv.Loc.In {
			if e.Pos.Start.Line < 1 {
				continue
			}
			sp := [2]int{e.Pos.Start.Line, e.Pos.End.Line}
			if sp[1] < sp[0] {
				sp[1] = sp[0]
			}
			if !lines[sp] {
				lines[sp] = true
				spans = append(spans, sp)
			}
		}
		sort.Slice(spans, func(i, j int) bool {
			return spans[i][0] < spans[j][0] || spans[i][0] == spans[j][0] && spans[i][1] < spans[j][1]
		})
		for _, sp := range spans {
			fmt.Fprintf(&edges, "  <edge source=\"N0\" target=%q>\n   <data key=\"enterLoopHead\">true</data>\n   <data key=\"startline\">%d</data>\n   <data key=\"endline\">%d</data>\n  </edge>\n", id, sp[0], sp[1])
		}
		fmt.Fprintf(&edges, "  <edge source=%q target=\"N0\"/>\n", id)
	}
	b.WriteString(edges.String())
	b.WriteString(" </graph>\n</graphml>\n")
	_, err = io.WriteString(w, b.String())
	return err
}
