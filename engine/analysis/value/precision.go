package value

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

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
// Var.QualName, or HeapName) tracked everywhere (Func == ""), in every
// location of the function Func (Loc < 0: function scope), or at the one
// location of Func whose Location.Index is Loc (location scope).
//
// Entries name functions and variables, never program-wide location
// numbers, so a precision learnt on one revision of a program applies to
// the next one as long as the functions it names are unchanged: an edit
// in another function renumbers Program.Locs but not Function.Locs.
type Entry struct {
	Name string
	Func string
	Loc  int
}

// String returns the stable text form: "x" (everywhere), "main::x@main"
// (function scope) or "main::x@main:L5" (location scope).
func (e Entry) String() string {
	switch {
	case e.Func == "":
		return e.Name
	case e.Loc < 0:
		return e.Name + "@" + e.Func
	}
	return e.Name + "@" + e.Func + ":L" + strconv.Itoa(e.Loc)
}

// ParseEntry parses the text form of an entry (see Entry.String).
func ParseEntry(s string) (Entry, error) {
	name, scope, scoped := strings.Cut(s, "@")
	if name == "" || (scoped && scope == "") {
		return Entry{}, fmt.Errorf("bad precision entry %q (want name, name@func or name@func:L3)", s)
	}
	e := Entry{Name: name, Loc: -1}
	if !scoped {
		return e, nil
	}
	fn, loc, hasLoc := strings.Cut(scope, ":L")
	e.Func = fn
	if hasLoc {
		n, err := strconv.Atoi(loc)
		if err != nil || n < 0 || fn == "" {
			return Entry{}, fmt.Errorf("bad precision entry %q (want name, name@func or name@func:L3)", s)
		}
		e.Loc = n
	}
	return e, nil
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
type ScopedPrecision struct {
	// byVar indexes the entries by the variable's owning function
	// (Var.Func, "" for globals and static locals) and name (Var.Name),
	// so that Tracks does not build qualified names.
	byVar map[string]map[string]*scopes
}

// scopes are where one variable is tracked.
type scopes struct {
	everywhere bool
	funcs      map[string]bool
	locs       map[string]map[int]bool // function → location indices
}

// NewScopedPrecision returns the precision tracking exactly entries.
func NewScopedPrecision(entries ...Entry) *ScopedPrecision {
	return (*ScopedPrecision)(nil).With(entries...)
}

// ParseScopedPrecision parses entries in their text form (Entry.String).
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
	return s.funcs[f] || s.locs[f][l.Index]
}

// Full returns false.
func (p *ScopedPrecision) Full() bool { return false }

// Contains reports whether e itself, or an entry of a wider scope that
// includes it, is in p.
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
	q := &ScopedPrecision{byVar: map[string]map[string]*scopes{}}
	for _, e := range append(p.Entries(), add...) {
		q.add(e)
	}
	return q
}

func (q *ScopedPrecision) add(e Entry) {
	owner, name := splitQual(e.Name)
	if e.Name == HeapName {
		owner, name = "", HeapName
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

// Entries returns the entries in a canonical order (by name, then scope),
// without entries that a wider one of the same variable includes.
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
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Func != b.Func {
			return a.Func < b.Func
		}
		return a.Loc < b.Loc
	})
	return out
}

// Strings returns the text forms of Entries.
func (p *ScopedPrecision) Strings() []string {
	es := p.Entries()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
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

// KnownVars returns the variables of which s knows some cell (in any
// frame), ordered by Var.ID, and whether it knows cells of objects that
// are not variables (heap blocks, string literals). Together with Forget
// it lets value interpolation (engine/cegar) drop assignments one by one.
func (s *State) KnownVars() (vars []*cfa.Var, other bool) {
	seen := map[int]bool{}
	s.mem.each(func(n *node) bool {
		switch objKind(n.obj) {
		case kindGlobal, kindLocal:
			id := varID(n.obj)
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
	mem := s.mem.filter(func(n *node) bool {
		switch objKind(n.obj) {
		case kindGlobal, kindLocal:
			return v == nil || varID(n.obj) != v.ID
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
