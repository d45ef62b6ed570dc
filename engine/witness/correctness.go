package witness

import (
	"context"
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
	// points (validateCorrectness). A bounded model checking proof
	// (every execution ends within the unwinding bound) or a
	// k-induction proof sets it; their invariants may be "1".
	K int

	// chosen, set by Select, replaces the rendered invariant at a loop
	// keyword.
	chosen map[cfa.Pos]string
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

// LoopInvariantType is the invariant type written (and the only one
// validated).
const LoopInvariantType = "loop_invariant"

// sources loads input files once, from Task.Contents or disk.
type sources struct {
	contents map[string]string
	files    map[string]*srcFile
}

func newSources(contents map[string]string) *sources {
	return &sources{contents: contents, files: map[string]*srcFile{}}
}

func (s *sources) file(name string) *srcFile {
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

// loopSite is the source statement of a CFA loop head.
type loopSite struct {
	f        *srcFile
	kw       cfa.Pos // the for or while keyword
	kwOff    int
	parenLo  int // the for statement's parentheses (declarations there are in scope)
	parenHi  int
	function string
}

// loopSiteOf maps the loop head loc to its while or for statement: the
// statement whose controlling expression contains one of loc's out
// edges (the condition's assume edge, or the first evaluation step of a
// condition such as "__VERIFIER_nondet_int()" that the front end puts in
// a temporary first); else, for a loop whose condition the front end
// drops (while (1), for (;;)), the statement whose body starts with an
// out edge of loc (constantLoop). do … while and goto loops have none.
func loopSiteOf(src *sources, loc *cfa.Location) (loopSite, bool) {
	site := func(f *srcFile, kw string, kwOff int) loopSite {
		s := loopSite{f: f, kw: f.pos(kwOff), kwOff: kwOff, function: loc.Func.Name}
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
			f := src.file(e.Pos.Start.File)
			if f == nil {
				continue
			}
			lo, hi, ok := f.span(e.Pos)
			if !ok {
				continue
			}
			lo, _ = f.trimSpan(lo, hi)
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
	return loopSite{}, false
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
	depth, open := 0, -1
	for j := i; j >= 0 && open < 0; j-- {
		switch f.code[j] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				open = j
			}
		}
	}
	if open < 0 {
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

// scope returns the variables an invariant at the loop site can name,
// by source name: the parameters of the loop's function, its locals
// declared before the loop keyword in a block that encloses the loop (or
// in the for statement's own parentheses), and the globals no such local
// shadows. Names that are ambiguous (two locals of one name both in
// scope) are left out, as are temporaries and static locals.
func scope(p *cfa.Program, fn *cfa.Function, s loopSite) map[string]*cfa.Var {
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

// cExpr prints e as a C expression over source names (VarRef as Orig);
// ok is false for constructs without a plain C spelling here.
func cExpr(e cfa.Expr) (string, bool) {
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
		return cValue(e.T, e.V), true
	case *cfa.Cast:
		x, ok := cExpr(e.X)
		if !ok {
			return "", false
		}
		if cfa.Same(e.T, e.X.Type()) {
			return x, true
		}
		t, ok := cType(e.T)
		if !ok || e.T.Kind == cfa.Pointer {
			return "", false
		}
		return "(" + t + ")" + paren(e.X, x), true
	case *cfa.Unary:
		x, ok := cExpr(e.X)
		if !ok {
			return "", false
		}
		return e.Op.String() + paren(e.X, x), true
	case *cfa.Binary:
		x, ok1 := cExpr(e.X)
		y, ok2 := cExpr(e.Y)
		if !ok1 || !ok2 {
			return "", false
		}
		return paren(e.X, x) + " " + e.Op.String() + " " + paren(e.Y, y), true
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
	var facts [][]results.Fact // the facts of each state, for eqFact
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
			s, ok := cExpr(f.Expr)
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
			if b := eqFact(facts[i], r[0]); b != nil {
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

// eqFact finds the fact printed as s among facts if it is "x == c".
func eqFact(facts []results.Fact, s string) *cfa.Binary {
	for _, f := range facts {
		if t, _ := cExpr(f.Expr); t != s {
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
	return fmt.Sprintf("%s <= %s && %s <= %s", cValue(v.T, uint64(lo)), v.Orig, v.Orig, cValue(v.T, uint64(hi))), true
}

// located is an invariant with its source location and text.
type located struct {
	inv  results.Invariant
	invs []results.Invariant // every loop head at the keyword (inv first)
	site loopSite
	text string
}

// locate places each invariant at its loop keyword and renders it;
// invariants of loops without a keyword are left out, and invariants of
// loop heads sharing one keyword are joined by ||.
func (c *Correctness) locate(src *sources) []located {
	var out []located
	byKw := map[cfa.Pos]int{}
	for _, inv := range c.Invariants {
		site, ok := loopSiteOf(src, inv.Loc)
		if !ok {
			continue
		}
		text := InvariantText(inv, scope(c.Program, inv.Loc.Func, site))
		if i, ok := byKw[site.kw]; ok {
			if out[i].text != text {
				out[i].text = "(" + out[i].text + ") || (" + text + ")"
			}
			out[i].invs = append(out[i].invs, inv)
			continue
		}
		byKw[site.kw] = len(out)
		out = append(out, located{inv: inv, invs: []results.Invariant{inv}, site: site, text: text})
	}
	for i := range out {
		if t, ok := c.chosen[out[i].site.kw]; ok {
			out[i].text = t
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].site.kw, out[j].site.kw
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
func (c *Correctness) meta(src *sources) (files []string, hashes map[string]string, err error) {
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
// per loop head whose while or for keyword the sources show.
func CorrectnessYAML(c *Correctness) (YAMLCorrectnessEntry, error) {
	src := newSources(c.Task.Contents)
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
			Producer:      YAMLProducer{Name: name, Version: version, Configuration: c.Task.Configuration, Description: description(c.Property, c.K)},
			Task: YAMLTask{
				InputFiles:      append([]string(nil), files...),
				InputFileHashes: hashes,
				Specification:   specFormula(c.Task.Specification),
				DataModel:       c.Task.DataModel.String(),
				Language:        "C",
			},
		},
		Content: []YAMLInvariantItem{},
	}
	for _, l := range c.locate(src) {
		e.Content = append(e.Content, YAMLInvariantItem{Invariant: YAMLInvariant{
			Type:     LoopInvariantType,
			Location: YAMLLocation{FileName: l.site.kw.File, Line: l.site.kw.Line, Column: l.site.kw.Col, Function: l.site.function},
			Value:    l.text,
			Format:   "c_expression",
		}})
	}
	return e, nil
}

// The fields of producer.description that reverify writes and reads,
// one "key: value" per line: the property a per-assertion witness
// proves, and the induction depth of the invariant set.
const (
	propertyKey = "property"
	kKey        = "k-induction"
)

// description returns producer.description for the property id ("" for
// SV-COMP's whole unreach-call) and induction depth k (written only
// above 1).
func description(id string, k int) string {
	var lines []string
	if id != "" {
		lines = append(lines, propertyKey+": "+id)
	}
	if k > 1 {
		lines = append(lines, fmt.Sprintf("%s: %d", kKey, k))
	}
	return strings.Join(lines, "\n")
}

// descriptionField returns the value of the line "key: value" of a
// producer.description (description).
func descriptionField(desc, key string) (string, bool) {
	for _, line := range strings.Split(desc, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), key+":"); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// maxK bounds the induction depth a witness may ask for.
const maxK = 1 << 20

// inductionDepth returns the induction depth of a correctness witness's
// metadata: 1 without a "k-induction" field; a field that is not an
// integer in [1, maxK] is a *BadWitnessError.
func inductionDepth(md YAMLMetadata) (int, error) {
	v, ok := descriptionField(md.Producer.Description, kKey)
	if !ok {
		return 1, nil
	}
	k, err := strconv.Atoi(v)
	if err != nil || k < 1 || k > maxK {
		return 0, bad("witness: producer.description: %s: %q is not an induction depth in [1, %d]", kKey, v, maxK)
	}
	return k, nil
}

// WriteCorrectnessYAML writes c as a YAML correctness witness, format
// 2.0 (sv-witnesses, correctness-witness schema): a list with one
// invariant_set entry, metadata as for violation witnesses, and content
// a list of loop_invariant items located at the first character of the
// loop's for or while keyword with value in format c_expression.
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
	src := newSources(c.Task.Contents)
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
	for i, l := range c.locate(src) {
		id := fmt.Sprintf("N%d", i+1)
		fmt.Fprintf(&b, "  <node id=%q>\n   <data key=\"invariant\">%s</data>\n   <data key=\"invariant.scope\">%s</data>\n  </node>\n",
			id, esc(l.text), esc(l.site.function))
		lines := map[[2]int]bool{}
		var spans [][2]int
		for _, e := range l.inv.Loc.In {
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

// maxCandidates bounds the candidate conjuncts of one loop invariant.
const maxCandidates = 320

// maxDisjunctCandidate bounds the disjuncts of the reached-set invariant
// when it is itself a candidate.
const maxDisjunctCandidate = 16

// Select chooses, before the witness is written, invariants that the
// validator proves: the reached set's invariant at a loop head holds
// there, but it need not be inductive in isolation (facts over variables
// out of scope or not tracked by the precision are missing) and can be a
// disjunction over thousands of states. Select therefore runs Houdini
// (validate.go, houdini) over compact candidate conjuncts per loop
// keyword (candidates) and keeps the surviving conjunction when
// validateCorrectness confirms it (each invariant inductive relative to
// the others, and the property implied); otherwise the reached-set
// invariants stay (InvariantText) and the result says why. opts are as
// for Validate (Solver required; Properties resolve c.Property); ctx
// bounds the work. With an induction depth c.K > 1, the invariants are
// first tried without it (a smaller depth is cheaper to validate: the
// paths of a segment multiply), then the Houdini survivors with depth 1
// and c.K, then the invariants as given with c.K; c.K is set to the
// depth of the confirmed choice. The Validation reports what the written witness
// achieves: Confirmed only after a full validateCorrectness run of the
// chosen invariants.
func (c *Correctness) Select(ctx context.Context, opts ValidateOptions) (Validation, error) {
	if opts.Solver == nil {
		return Validation{}, errors.New("witness: no SMT solver")
	}
	if opts.Entry == "" {
		opts.Entry = c.Task.Entry
	}
	if opts.Entry == "" {
		opts.Entry = "main"
	}
	if opts.MaxPaths == 0 {
		opts.MaxPaths = 200000
	}
	if c.Program == nil || c.Program.Func(opts.Entry) == nil {
		return Validation{}, fmt.Errorf("witness: entry function %s has no body", opts.Entry)
	}
	if opts.Contents == nil {
		opts.Contents = c.Task.Contents
	}
	src := newSources(opts.Contents)
	c.chosen = nil
	md := YAMLMetadata{Producer: YAMLProducer{Description: description(c.Property, c.K)},
		Task: YAMLTask{Specification: specFormula(c.Task.Specification)}}
	target, _, err := targetOf(md, opts.Properties)
	if err != nil {
		return Validation{}, err
	}
	locs := c.locate(src)
	if len(locs) == 0 {
		return rejected("no loop invariant to choose"), nil
	}
	entryOf := func(texts []string, k int) []YAMLCorrectnessEntry {
		md := md
		md.Producer.Description = description(c.Property, k)
		e := YAMLCorrectnessEntry{EntryType: "invariant_set", Metadata: md}
		for i, l := range locs {
			e.Content = append(e.Content, YAMLInvariantItem{Invariant: YAMLInvariant{Type: LoopInvariantType,
				Location: YAMLLocation{FileName: l.site.kw.File, Line: l.site.kw.Line, Column: l.site.kw.Col, Function: l.site.function},
				Value:    texts[i], Format: "c_expression"}})
		}
		return []YAMLCorrectnessEntry{e}
	}
	if c.K > 1 {
		// A k-induction proof's invariants may be inductive on their
		// own (bmc proves test_locks_N with k = 1 where the loop body
		// resets every lock): a witness without a depth is validated
		// with one segment per path instead of 2^N per iteration.
		texts := make([]string, len(locs))
		for i, l := range locs {
			texts[i] = l.text
		}
		if r, err := validateCorrectness(ctx, c.Program, src, entryOf(texts, 1), opts); err == nil && r.Confirmed {
			c.K = 1
			return r, nil
		}
	}
	var hs []houdiniSite
	for _, l := range locs {
		names := scope(c.Program, l.inv.Loc.Func, l.site)
		var cs []*candidate
		for _, t := range candidates(c.Program, l, names) {
			cs = append(cs, &candidate{text: t})
		}
		hs = append(hs, houdiniSite{loc: YAMLLocation{FileName: l.site.kw.File, Line: l.site.kw.Line, Column: l.site.kw.Col}, cands: cs})
	}
	why := ""
	if err := houdini(ctx, c.Program, src, target, hs, opts); err != nil {
		why = "Houdini: " + err.Error()
	} else {
		texts := make([]string, len(locs))
		for i, h := range hs {
			var live []string
			for _, cd := range h.cands {
				if !cd.dead {
					live = append(live, conjunct(cd.text))
				}
			}
			texts[i] = "1"
			if len(live) > 0 {
				texts[i] = strings.Join(live, " && ")
			}
		}
		// Inductive survivors need no induction depth; else they may
		// still strengthen the proof's k-induction.
		ks := []int{1}
		if c.K > 1 {
			ks = append(ks, c.K)
		}
		var r Validation
		var err error
		for _, k := range ks {
			r, err = validateCorrectness(ctx, c.Program, src, entryOf(texts, k), opts)
			if err == nil && r.Confirmed {
				c.chosen = map[cfa.Pos]string{}
				for i, l := range locs {
					c.chosen[l.site.kw] = texts[i]
				}
				c.K = k
				return r, nil
			}
		}
		why = "the inductive candidates do not imply the property: " + r.Reason
		if err != nil {
			why = err.Error()
		}
	}
	texts := make([]string, len(locs))
	for i, l := range locs {
		texts[i] = l.text
	}
	r, err := validateCorrectness(ctx, c.Program, src, entryOf(texts, c.K), opts)
	if err != nil {
		return rejected("%s; reached-set invariants: %v", why, err), nil
	}
	if r.Confirmed {
		return r, nil
	}
	r.Reason = why + "; reached-set invariants: " + r.Reason
	// Last, a base case that covers every execution: when the loops
	// are bounded, the paths from the start end before any depth, and
	// segments from the start may read memory that segments from an
	// invariant cannot (pointer dereferences). The depth written is one
	// more than the most loop heads a path passed (at least 2, which
	// skips the step case).
	if e, err := validateCorrectness(ctx, c.Program, src, entryOf(texts, maxK), opts); err == nil && e.Confirmed && e.depth < maxK {
		c.K = max(2, e.depth+1)
		return e, nil
	}
	return r, nil
}

// candidates returns the candidate conjuncts (C expressions over names)
// of the invariant at l's keyword, from two sources:
//
//   - the reached states at its loop heads: facts every state has; when
//     there are at most 64 states, every fact of one; for each integer
//     variable every state fixes, the bounds of the interval hull of its
//     values ("lo <= x", "x <= hi") and, with 2 to 8 values, their
//     disjunction; for two such variables the comparisons (<, <=, ==,
//     >=, >) that all states satisfy; the reached-set invariant itself
//     when it has at most maxDisjunctCandidate disjuncts ("0" for a loop head
//     no state reaches);
//   - the program: the comparisons in the conditions of the loop's
//     function and in the integer arguments of its calls (such as
//     __VERIFIER_assert(x >= 10)), negated, and < and > relaxed to <=
//     and >=; with at most maxPairAtoms of them, also the disjunctions of
//     two.
//
// Candidates are deduplicated and bounded by maxCandidates; those that do
// not hold or are not inductive die in Houdini.
func candidates(p *cfa.Program, l located, names map[string]*cfa.Var) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && t != "1" && !seen[t] && len(out) < maxCandidates {
			seen[t] = true
			out = append(out, t)
		}
	}
	inScope := func(e cfa.Expr) bool {
		ok := true
		cfa.Walk(e, func(x cfa.Expr) bool {
			switch x := x.(type) {
			case *cfa.VarRef:
				if names[x.Var.Orig] != x.Var {
					ok = false
				}
			case *cfa.Deref, *cfa.Index, *cfa.Member, *cfa.FuncRef:
				ok = false
			}
			return ok
		})
		return ok
	}
	var states [][]results.Fact
	for _, inv := range l.invs {
		states = append(states, inv.States...)
	}
	if len(states) == 0 {
		return []string{"0"}
	}
	if n := strings.Count(l.text, "||") + 1; n > 1 && n <= maxDisjunctCandidate {
		add(l.text)
	}
	// Facts: shared ones, and all when there are few states.
	count := map[string]int{}
	var order []string
	type fixed struct {
		v    *cfa.Var
		vals []int64
	}
	fix := map[*cfa.Var]*fixed{}
	var fixOrder []*cfa.Var
	for i, st := range states {
		done := map[string]bool{}
		for _, f := range st {
			if !inScope(f.Expr) {
				continue
			}
			t, ok := cExpr(f.Expr)
			if !ok || done[t] {
				continue
			}
			done[t] = true
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
			if b := eqFact([]results.Fact{f}, t); b != nil {
				v := b.X.(*cfa.VarRef).Var
				if !v.T.IsInteger() || v.T.Kind == cfa.Bool || (!v.T.IsSigned() && b.Y.(*cfa.Const).V > 1<<62) {
					continue
				}
				x := int64(b.Y.(*cfa.Const).V)
				if v.T.IsSigned() {
					x = cfa.SignExtend(b.Y.(*cfa.Const).V, v.T.Width())
				}
				fx := fix[v]
				if fx == nil {
					if i > 0 {
						continue // not fixed in an earlier state
					}
					fx = &fixed{v: v}
					fix[v] = fx
					fixOrder = append(fixOrder, v)
				}
				if len(fx.vals) == i {
					fx.vals = append(fx.vals, x)
				}
			}
		}
	}
	for _, t := range order {
		if count[t] == len(states) || len(states) <= 64 {
			add(t)
		}
	}
	var vars []*fixed
	for _, v := range fixOrder {
		if fx := fix[v]; len(fx.vals) == len(states) {
			vars = append(vars, fx)
		}
	}
	lit := func(v *cfa.Var, x int64) string { return cValue(v.T, uint64(x)) }
	for _, fx := range vars {
		lo, hi := fx.vals[0], fx.vals[0]
		distinct := map[int64]bool{}
		for _, x := range fx.vals {
			lo, hi = min(lo, x), max(hi, x)
			distinct[x] = true
		}
		name := fx.v.Orig
		if lo == hi {
			add(name + " == " + lit(fx.v, lo))
			continue
		}
		add(lit(fx.v, lo) + " <= " + name)
		add(name + " <= " + lit(fx.v, hi))
		if len(distinct) <= 8 {
			var vs []int64
			for x := range distinct {
				vs = append(vs, x)
			}
			sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
			var ds []string
			for _, x := range vs {
				ds = append(ds, name+" == "+lit(fx.v, x))
			}
			add(strings.Join(ds, " || "))
		}
	}
	for i, a := range vars {
		for _, b := range vars[i+1:] {
			if a.v.T.IsSigned() != b.v.T.IsSigned() {
				continue
			}
			lt, le, eq, ge, gt := true, true, true, true, true
			for k := range a.vals {
				x, y := a.vals[k], b.vals[k]
				lt, le, eq, ge, gt = lt && x < y, le && x <= y, eq && x == y, ge && x >= y, gt && x > y
			}
			for _, r := range []struct {
				ok bool
				op string
			}{{eq, "=="}, {lt, "<"}, {le, "<="}, {gt, ">"}, {ge, ">="}} {
				if r.ok {
					add(a.v.Orig + " " + r.op + " " + b.v.Orig)
				}
			}
		}
	}
	// Comparisons of the program.
	fn := l.inv.Loc.Func
	var atoms []string
	atom := func(e cfa.Expr) {
		b, ok := e.(*cfa.Binary)
		if !ok || !inScope(e) {
			return
		}
		switch b.Op {
		case cfa.Lt, cfa.Le, cfa.Gt, cfa.Ge, cfa.Eq, cfa.Ne:
		default:
			return
		}
		for _, x := range []*cfa.Binary{b, {Op: b.Op.Negate(), X: b.X, Y: b.Y, T: b.T}} {
			if t, ok := cExpr(x); ok {
				add(t)
				atoms = append(atoms, t)
			}
			relax := map[cfa.BinaryOp]cfa.BinaryOp{cfa.Lt: cfa.Le, cfa.Gt: cfa.Ge}
			if op, ok := relax[x.Op]; ok {
				if t, ok := cExpr(&cfa.Binary{Op: op, X: x.X, Y: x.Y, T: x.T}); ok {
					add(t)
					atoms = append(atoms, t)
				}
			}
		}
	}
	for _, e := range p.Edges {
		if e.From == nil || e.From.Func != fn {
			continue
		}
		switch op := e.Op.(type) {
		case *cfa.Assume:
			for _, x := range flatten(op.Cond, cfa.LAnd, nil) {
				for _, y := range flatten(x, cfa.LOr, nil) {
					atom(y)
				}
			}
		case *cfa.Call:
			for _, a := range op.Args {
				atom(a)
			}
		}
	}
	// Implications between two comparisons ("a || b"), for invariants
	// that relate a branch to a loop's progress (y % 2 != 0 || x % 2 ==
	// y % 2); only for few comparisons.
	if len(atoms) <= maxPairAtoms {
		for i, a := range atoms {
			for _, b := range atoms[i+1:] {
				if a != b {
					add(conjunct(a) + " || " + conjunct(b))
				}
			}
		}
	}
	return out
}

// maxPairAtoms bounds the program comparisons (with negations and
// relaxations) whose pairwise disjunctions become candidates.
const maxPairAtoms = 16

// conjunct parenthesises a candidate with a top-level || (or anything
// but a comparison chain of && alone) for use as an operand of &&.
func conjunct(t string) string {
	if strings.Contains(t, "||") {
		return "(" + t + ")"
	}
	return t
}
