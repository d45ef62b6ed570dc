package value

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
)

// Precision says which variables the value analysis tracks: values of
// untracked variables are never stored (they are unknown). Precisions are
// immutable; CEGAR refines by building a larger one.
type Precision interface {
	// Tracks reports whether the value of v is kept at location l; v is
	// nil for objects that are not variables (heap blocks, string
	// literals).
	Tracks(l *cfa.Location, v *cfa.Var) bool
	// Full reports whether every variable is tracked everywhere (the
	// analysis then skips all precision checks).
	Full() bool
}

// FullPrecision tracks everything.
type FullPrecision struct{}

// Tracks returns true.
func (FullPrecision) Tracks(*cfa.Location, *cfa.Var) bool { return true }

// Full returns true.
func (FullPrecision) Full() bool { return true }

func (FullPrecision) String() string { return "full" }

// VarPrecision tracks the variables named in Vars everywhere, those in
// AtLoc[l.ID] at location l only, and heap and string objects when Heap
// is set. Names are Var.QualName: "g" for globals and static locals
// ("f::s"), "f::x" for locals of f, so a precision keyed by function and
// variable name maps directly onto it.
type VarPrecision struct {
	Vars  map[string]bool
	AtLoc map[int]map[string]bool
	Heap  bool
}

// NewVarPrecision returns the precision tracking the given qualified names
// everywhere (and no heap objects).
func NewVarPrecision(names ...string) *VarPrecision {
	p := &VarPrecision{Vars: map[string]bool{}}
	for _, n := range names {
		p.Vars[n] = true
	}
	return p
}

// Tracks implements Precision.
func (p *VarPrecision) Tracks(l *cfa.Location, v *cfa.Var) bool {
	if v == nil {
		return p.Heap
	}
	q := v.QualName()
	if p.Vars[q] {
		return true
	}
	if l != nil && p.AtLoc != nil {
		return p.AtLoc[l.ID][q]
	}
	return false
}

// Full returns false.
func (p *VarPrecision) Full() bool { return false }

// WithVars returns a copy of p that also tracks names everywhere.
func (p *VarPrecision) WithVars(names ...string) *VarPrecision {
	q := &VarPrecision{Vars: map[string]bool{}, AtLoc: p.AtLoc, Heap: p.Heap}
	for n := range p.Vars {
		q.Vars[n] = true
	}
	for _, n := range names {
		q.Vars[n] = true
	}
	return q
}

func (p *VarPrecision) String() string {
	names := make([]string, 0, len(p.Vars))
	for n := range p.Vars {
		names = append(names, n)
	}
	sort.Strings(names)
	s := "{" + strings.Join(names, ", ") + "}"
	if len(p.AtLoc) > 0 {
		s += " +local"
	}
	if p.Heap {
		s += " +heap"
	}
	return s
}

// HeapName is the name under which a ScopedPrecision tracks the objects
// that are not variables (heap blocks, string literals). It is not a C
// identifier, so no variable can clash with it.
const HeapName = "<heap>"

// Entry is one element of a ScopedPrecision: the variable Name (a
// Var.QualName, or HeapName) tracked
//
//   - everywhere (Func == ""),
//   - in every location of the function Func (function scope: Loc < 0
//     and At == ""),
//   - or at one location of Func (location scope), named either by At,
//     its stable key (LocationKeys: the line relative to the function's
//     first line and the operation of the location's first out-edge,
//     with an ordinal among equal ones, as in "+8:[y < 0]" or
//     "+5:x = x - 1#1"), or, when At is empty, by Loc, its
//     Location.Index.
//
// Refiners build entries with Loc (the program at hand); the text form
// (Format, ParseEntry) uses At. Neither form names program-wide location
// numbers: the text names a function, a variable and the statement at a
// location, so a precision learnt on one revision of a program applies
// to the next one as long as the statements it names are still there —
// an edit in another function, or elsewhere in the same function, leaves
// it valid (seed 001, section 3.8.4, π: L → 2^X, made robust to edits).
type Entry struct {
	Name string
	Func string
	Loc  int
	At   string
}

// String returns the text form: "x" (everywhere), "main::x@main"
// (function scope), "main::x@main:+8:[y < 0]" (location scope by key). An
// entry by Loc alone prints as "main::x@main:L5", which names the index
// and is meaningful only for the program at hand: results use Format.
func (e Entry) String() string {
	switch {
	case e.Func == "":
		return e.Name
	case e.At != "":
		return e.Name + "@" + e.Func + ":" + e.At
	case e.Loc < 0:
		return e.Name + "@" + e.Func
	}
	return e.Name + "@" + e.Func + ":L" + strconv.Itoa(e.Loc)
}

// ParseEntry parses the text form of an entry: "name", "name@func" or
// "name@func:key" with key a location key (LocationKeys; any non-empty
// text is accepted: a key that names no location of the program tracks
// nothing). It fails only on malformed text: an empty name, function or
// key.
func ParseEntry(s string) (Entry, error) {
	name, scope, scoped := strings.Cut(s, "@")
	if name == "" || (scoped && scope == "") {
		return Entry{}, fmt.Errorf("bad precision entry %q (want name, name@func or name@func:location)", s)
	}
	e := Entry{Name: name, Loc: -1}
	if !scoped {
		return e, nil
	}
	fn, key, hasKey := strings.Cut(scope, ":")
	if fn == "" || (hasKey && key == "") {
		return Entry{}, fmt.Errorf("bad precision entry %q (want name, name@func or name@func:location)", s)
	}
	e.Func, e.At = fn, key
	return e, nil
}

// exitKey and endKey are the keys of locations without out-edges: the
// function's exit, and locations where execution ends (abort) or that
// are dead. Operation texts never start with '<' or '+'.
const (
	exitKey = "<exit>"
	endKey  = "<end>"
)

// ordinalRE matches a key's ordinal suffix; lineRE a key's line prefix.
var (
	ordinalRE = regexp.MustCompile(`#[0-9]+$`)
	lineRE    = regexp.MustCompile(`^\+([0-9]+):`)
)

// LocationKeys returns the stable keys of f's locations, indexed by
// Location.Index: "+D:text", where text is the operation on the
// location's first out-edge (whitespace normalised; "<exit>" for f.Exit,
// "<end>" for other locations without out-edges), followed by "#k" when
// k > 0 locations of f with a smaller index have the same text, and D is
// the line of that operation relative to the first line of f ("+D:" is
// left out when the line is unknown). Keys are unique within f.
//
// A key is matched (ScopedPrecision.Tracks, Format) by its text first:
// the location of f with the same text and ordinal, wherever it moved;
// failing that, by its line: the locations D lines into f whose
// operation is of the same kind (assumption, declaration, other). So an
// edit elsewhere — in another function, or in f above or below — keeps
// the key valid, and so does an edit of the statement itself that keeps
// its line ([v > t] becoming [v >= t]).
func LocationKeys(f *cfa.Function) []string {
	fk := funcKeysOf(f)
	keys := make([]string, len(fk.text))
	for i, t := range fk.text {
		keys[i] = t
		if fk.line[i] >= 0 {
			keys[i] = "+" + strconv.Itoa(fk.line[i]) + ":" + t
		}
	}
	return keys
}

// funcKeys are the parts of the location keys of one function.
type funcKeys struct {
	text   []string       // text and ordinal, by location index
	line   []int          // relative line, -1 if unknown
	byText map[string]int // text and ordinal → location index
}

func funcKeysOf(f *cfa.Function) *funcKeys {
	fk := &funcKeys{text: make([]string, len(f.Locs)), line: make([]int, len(f.Locs)), byText: map[string]int{}}
	seen := map[string]int{}
	for i, l := range f.Locs {
		var base string
		fk.line[i] = -1
		switch {
		case l == f.Exit:
			base = exitKey
		case len(l.Out) == 0:
			base = endKey
		default:
			e := l.Out[0]
			base = strings.Join(strings.Fields(e.Op.String()), " ")
			if ln := e.Pos.Start.Line; ln > 0 && f.Pos.Start.Line > 0 && ln >= f.Pos.Start.Line {
				fk.line[i] = ln - f.Pos.Start.Line
			}
		}
		k := seen[base]
		seen[base] = k + 1
		if k > 0 || ordinalRE.MatchString(base) {
			base += "#" + strconv.Itoa(k)
		}
		fk.text[i] = base
		fk.byText[base] = i
	}
	return fk
}

// kindOf classifies an operation text for matching by line.
func kindOf(text string) byte {
	switch {
	case strings.HasPrefix(text, "["):
		return '['
	case strings.HasPrefix(text, "decl "):
		return 'd'
	case strings.HasPrefix(text, "<"):
		return '<'
	}
	return 'o'
}

// match returns the indices of the locations that key designates (see
// LocationKeys).
func (fk *funcKeys) match(key string) []int {
	line := -1
	if m := lineRE.FindStringSubmatch(key); m != nil {
		line, _ = strconv.Atoi(m[1])
		key = key[len(m[0]):]
	}
	if i, ok := fk.byText[key]; ok {
		return []int{i}
	}
	if line < 0 {
		return nil
	}
	var out []int
	k := kindOf(key)
	for i, ln := range fk.line {
		if ln == line && kindOf(fk.text[i]) == k {
			out = append(out, i)
		}
	}
	return out
}

// keyCache memoises the keys of functions, and which locations the
// keyed entries of one variable designate in one function, for a family
// of precisions (the ones With derives from each other); it is safe for
// concurrent use.
type keyCache struct {
	funcs    sync.Map // *cfa.Function → *funcKeys
	resolved sync.Map // resolvedKey → []bool by location index
}

type resolvedKey struct {
	s *scopes
	f *cfa.Function
}

func (c *keyCache) of(f *cfa.Function) *funcKeys {
	if k, ok := c.funcs.Load(f); ok {
		return k.(*funcKeys)
	}
	k := funcKeysOf(f)
	c.funcs.Store(f, k)
	return k
}

// marks returns, by location index of f, whether a keyed entry of s
// designates the location.
func (c *keyCache) marks(s *scopes, f *cfa.Function) []bool {
	rk := resolvedKey{s, f}
	if m, ok := c.resolved.Load(rk); ok {
		return m.([]bool)
	}
	fk := c.of(f)
	m := make([]bool, len(f.Locs))
	for key := range s.keyed[f.Name] {
		for _, i := range fk.match(key) {
			m[i] = true
		}
	}
	c.resolved.Store(rk, m)
	return m
}

// ScopedPrecision is the refinable precision of the value analysis under
// CEGAR (seed 001, section 3.8.4: π maps locations to sets of tracked
// variables): a set of Entries, each tracking one variable everywhere, in
// a whole function, or at one location of a function. It is immutable;
// With returns a larger copy. The zero value and nil track nothing.
//
// A variable's entry covers all its instances: a local tracked at a
// location is tracked in every frame of its function that is live there
// (outer frames included), and HeapName covers all heap blocks and string
// literals.
//
// Entries by location key (parsed from an earlier run's Format) are
// matched against LocationKeys of the function at hand; keys that match
// no location are ignored, so a stale precision can only cost
// refinements, never soundness (a precision only decides what the
// analysis forgets; every counterexample is still checked).
type ScopedPrecision struct {
	// byVar indexes the entries by the variable's owning function
	// (Var.Func, "" for globals and static locals) and name (Var.Name),
	// so that Tracks does not build qualified names.
	byVar map[string]map[string]*scopes
	keys  *keyCache
	// heapFields indexes the HeapFieldName entries by byte offset;
	// hasLists is set when p has shape entries (smg_refine.go).
	heapFields map[int64]*scopes
	hasLists   bool
}

// scopes are where one variable is tracked.
type scopes struct {
	everywhere bool
	funcs      map[string]bool
	locs       map[string]map[int]bool    // function → location indices
	keyed      map[string]map[string]bool // function → location keys
}

// NewScopedPrecision returns the precision tracking exactly entries.
func NewScopedPrecision(entries ...Entry) *ScopedPrecision {
	return (*ScopedPrecision)(nil).With(entries...)
}

// ParseScopedPrecision parses entries in their text form (ParseEntry).
// It fails only on malformed entries; entries naming functions,
// variables or locations that the program does not have track nothing.
func ParseScopedPrecision(texts []string) (*ScopedPrecision, error) {
	es := make([]Entry, 0, len(texts))
	for _, t := range texts {
		e, err := ParseEntry(t)
		if err != nil {
			return nil, err
		}
		es = append(es, e)
	}
	return NewScopedPrecision(es...), nil
}

// splitQual splits a qualified name "f::x" into ("f", "x") and a global
// "g" into ("", "g"). Static locals are globals named "f::s" (Var.Func is
// ""): their Var.Name contains "::" too, so callers look both up.
func splitQual(q string) (fn, name string) {
	if f, n, ok := strings.Cut(q, "::"); ok {
		return f, n
	}
	return "", q
}

func (p *ScopedPrecision) lookup(owner, name string) *scopes {
	if p == nil {
		return nil
	}
	return p.byVar[owner][name]
}

// Tracks implements Precision.
func (p *ScopedPrecision) Tracks(l *cfa.Location, v *cfa.Var) bool {
	var s *scopes
	if v == nil {
		s = p.lookup("", HeapName)
	} else {
		s = p.lookup(v.Func, v.Name)
	}
	return p.scopesHold(s, l)
}

// scopesHold reports whether s holds at l.
func (p *ScopedPrecision) scopesHold(s *scopes, l *cfa.Location) bool {
	if s == nil {
		return false
	}
	if s.everywhere {
		return true
	}
	if l == nil {
		return false
	}
	f := l.Func.Name
	if s.funcs[f] || s.locs[f][l.Index] {
		return true
	}
	if s.keyed[f] != nil {
		return p.keys.marks(s, l.Func)[l.Index]
	}
	return false
}

// Full returns false.
func (p *ScopedPrecision) Full() bool { return false }

// Contains reports whether e itself, or an entry of a wider scope that
// includes it, is in p. An entry by index and one by key are different
// entries even where they designate the same location.
func (p *ScopedPrecision) Contains(e Entry) bool {
	owner, name := splitQual(e.Name)
	s := p.lookup(owner, name)
	if s == nil && owner != "" {
		s = p.lookup("", e.Name) // a static local "f::s"
	}
	if s == nil {
		return false
	}
	switch {
	case s.everywhere:
		return true
	case e.Func == "":
		return false
	case s.funcs[e.Func]:
		return true
	case e.At != "":
		return s.keyed[e.Func][e.At]
	case e.Loc < 0:
		return false
	}
	return s.locs[e.Func][e.Loc]
}

// With returns a copy of p that also tracks entries (p itself when it
// already contains them all).
func (p *ScopedPrecision) With(entries ...Entry) *ScopedPrecision {
	var add []Entry
	for _, e := range entries {
		if p == nil || !p.Contains(e) {
			add = append(add, e)
		}
	}
	if p != nil && len(add) == 0 {
		return p
	}
	q := &ScopedPrecision{byVar: map[string]map[string]*scopes{}, keys: &keyCache{}}
	if p != nil && p.keys != nil {
		q.keys = p.keys
	}
	for _, e := range append(p.Entries(), add...) {
		q.add(e)
	}
	return q
}

func (q *ScopedPrecision) add(e Entry) {
	owner, name := splitQual(e.Name)
	if isPrecisionName(e.Name) {
		owner, name = "", e.Name
	}
	m := q.byVar[owner]
	if m == nil {
		m = map[string]*scopes{}
		q.byVar[owner] = m
	}
	s := m[name]
	if s == nil {
		s = &scopes{}
		m[name] = s
		if off, ok := heapField(name); ok && owner == "" {
			if q.heapFields == nil {
				q.heapFields = map[int64]*scopes{}
			}
			q.heapFields[off] = s
		}
		if smg.HasShapePrefix(name) && owner == "" {
			q.hasLists = true
		}
	}
	if owner != "" {
		// A static local "f::s" is a global whose Var.Name is "f::s":
		// index it under that name as well.
		g := q.byVar[""]
		if g == nil {
			g = map[string]*scopes{}
			q.byVar[""] = g
		}
		g[e.Name] = s
	}
	switch {
	case e.Func == "":
		s.everywhere = true
	case e.At != "":
		if s.keyed == nil {
			s.keyed = map[string]map[string]bool{}
		}
		if s.keyed[e.Func] == nil {
			s.keyed[e.Func] = map[string]bool{}
		}
		s.keyed[e.Func][e.At] = true
	case e.Loc < 0:
		if s.funcs == nil {
			s.funcs = map[string]bool{}
		}
		s.funcs[e.Func] = true
	default:
		if s.locs == nil {
			s.locs = map[string]map[int]bool{}
		}
		if s.locs[e.Func] == nil {
			s.locs[e.Func] = map[int]bool{}
		}
		s.locs[e.Func][e.Loc] = true
	}
}

// Entries returns the entries in a canonical order (by name, function,
// index, key), without entries that a wider one of the same variable
// includes.
func (p *ScopedPrecision) Entries() []Entry {
	if p == nil {
		return nil
	}
	var out []Entry
	seen := map[*scopes]bool{}
	for owner, m := range p.byVar {
		for name, s := range m {
			if seen[s] {
				continue
			}
			seen[s] = true
			q := name
			if owner != "" {
				q = owner + "::" + name
			}
			if s.everywhere {
				out = append(out, Entry{Name: q, Loc: -1})
				continue
			}
			for f := range s.funcs {
				out = append(out, Entry{Name: q, Func: f, Loc: -1})
			}
			for f, ls := range s.locs {
				if s.funcs[f] {
					continue
				}
				for l := range ls {
					out = append(out, Entry{Name: q, Func: f, Loc: l})
				}
			}
			for f, ks := range s.keyed {
				if s.funcs[f] {
					continue
				}
				for k := range ks {
					out = append(out, Entry{Name: q, Func: f, Loc: -1, At: k})
				}
			}
		}
	}
	sortEntries(out)
	return out
}

func sortEntries(out []Entry) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Func != b.Func {
			return a.Func < b.Func
		}
		if a.Loc != b.Loc {
			return a.Loc < b.Loc
		}
		return a.At < b.At
	})
}

// Strings returns the text forms of Entries as they are (entries by
// index print as "name@func:L5", meaningful only for the program at
// hand); Format is the stable form.
func (p *ScopedPrecision) Strings() []string {
	es := p.Entries()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

// Format returns the stable text form of p for prog, one entry per
// string (ParseScopedPrecision reads it back), sorted by variable name,
// function and location index (function scope first): location-scoped
// entries by location key, "main::y@main:+8:[y < 0]". Entries that
// designate nothing in prog (a variable or function it does not define,
// a location index out of range, a key no location has) are left out, so
// a stale precision read from an earlier run is not passed on.
func (p *ScopedPrecision) Format(prog *cfa.Program) []string {
	funcOf := func(name string) *cfa.Function {
		if prog.Init != nil && name == prog.Init.Name {
			return prog.Init
		}
		return prog.Func(name)
	}
	keys := p.keysOrNew()
	vars := map[string]bool{HeapName: true}
	for _, v := range prog.Vars {
		vars[v.QualName()] = true
	}
	type at struct {
		name, fn string
		idx      int
	}
	set := map[at]bool{}
	var out []Entry
	for _, e := range p.Entries() {
		if !vars[e.Name] && !isPrecisionName(e.Name) {
			continue
		}
		if e.Func == "" {
			out = append(out, e)
			continue
		}
		f := funcOf(e.Func)
		if f == nil {
			continue
		}
		if e.Loc < 0 && e.At == "" {
			out = append(out, e)
			continue
		}
		idxs := []int{e.Loc}
		if e.At != "" {
			idxs = keys.of(f).match(e.At)
		}
		for _, idx := range idxs {
			if idx < 0 || idx >= len(f.Locs) || set[at{e.Name, e.Func, idx}] {
				continue
			}
			set[at{e.Name, e.Func, idx}] = true
			out = append(out, Entry{Name: e.Name, Func: e.Func, Loc: idx})
		}
	}
	sortEntries(out)
	texts := make([]string, len(out))
	lk := map[string][]string{}
	for i, e := range out {
		if e.Loc >= 0 {
			if lk[e.Func] == nil {
				lk[e.Func] = LocationKeys(funcOf(e.Func))
			}
			e.At = lk[e.Func][e.Loc]
		}
		texts[i] = e.String()
	}
	return texts
}

func (p *ScopedPrecision) keysOrNew() *keyCache {
	if p != nil && p.keys != nil {
		return p.keys
	}
	return &keyCache{}
}

// Len returns the number of entries.
func (p *ScopedPrecision) Len() int { return len(p.Entries()) }

// Vars returns the distinct variable names the precision tracks
// somewhere, sorted.
func (p *ScopedPrecision) Vars() []string {
	var out []string
	for _, e := range p.Entries() {
		if len(out) == 0 || out[len(out)-1] != e.Name {
			out = append(out, e.Name)
		}
	}
	return out
}

func (p *ScopedPrecision) String() string {
	return "{" + strings.Join(p.Strings(), ", ") + "}"
}

// Program returns the program the analysis runs on (for Format).
func (c *CPA) Program() *cfa.Program { return c.prog }

// KnownVars returns the variables of which s knows some cell (in any
// frame), ordered by Var.ID, and whether it knows cells of objects that
// are not variables (heap blocks, string literals). Together with Forget
// it lets value interpolation (engine/cegar) drop assignments one by one.
func (s *State) KnownVars() (vars []*cfa.Var, other bool) {
	seen := map[int]bool{}
	s.mem.Each(func(n *memory.Node) bool {
		switch memory.ObjKind(n.Obj) {
		case memory.KindGlobal, memory.KindLocal:
			id := memory.VarID(n.Obj)
			if !seen[id] {
				seen[id] = true
				vars = append(vars, s.c.prog.Vars[id])
			}
		default:
			other = true
		}
		return true
	})
	sort.Slice(vars, func(i, j int) bool { return vars[i].ID < vars[j].ID })
	return vars, other
}

// Forget returns s without the cells of variable v in every frame, or,
// for v == nil, without the cells of objects that are not variables. It
// returns s itself when nothing changes.
func (s *State) Forget(v *cfa.Var) *State {
	mem := s.mem.Filter(func(n *memory.Node) bool {
		switch memory.ObjKind(n.Obj) {
		case memory.KindGlobal, memory.KindLocal:
			return v == nil || memory.VarID(n.Obj) != v.ID
		}
		return v != nil
	})
	if mem == s.mem {
		return s
	}
	ns := *s
	ns.mem = mem
	return &ns
}
