package diffslice

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/csyntax"
	"github.com/reverify/reverify/engine/graph"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Options are what a decision depends on besides the revisions.
type Options struct {
	// EngineVersion is part of every slice hash and cache entry.
	EngineVersion string
	// Config is the engine configuration name ("" means the head's
	// configured one).
	Config string
	// Entry is the entry function ("" means the head's configured one).
	Entry string
	// Variant names the engine settings besides Config that a verdict
	// may depend on ("signed-overflow assume-none", a slicing criterion,
	// a precision scope; "" for the defaults). A non-empty one is part of
	// every slice hash, so verdicts are shared only between runs with
	// equal settings.
	Variant string
	// Limits are the resource limits of this run: a cached UNKNOWN is
	// reused only under equal limits.
	Limits Limits
	// Base, when not nil, is the base revision: properties it lacks are
	// new, changes of its function-pointer targets are detected, and its
	// cached precisions seed the affected properties.
	Base *Revision
	// Verify, when not nil, verifies the affected properties in
	// Plan.Verify instead of engine.Verify over the head's program: in
	// library mode (AutoEntry), package library's Verify over the head's
	// contexts.
	Verify func(ctx context.Context, props []*spec.Property, cfg engine.Config) ([]*engine.Result, error)

	unsupported []string    // the head's reachable unsupported constructs (unsupported.go)
	baseHashes  *baseHasher // the base's slice hashes, shared with the plan (NewPlan)
}

func (o Options) withDefaults(head *Revision) Options {
	if o.Config == "" {
		o.Config = head.Config.Config
	}
	if o.Config == "" {
		o.Config = "default"
	}
	if o.Entry == "" {
		o.Entry = head.Config.Entry
	}
	if o.Entry == "" {
		o.Entry = "main"
	}
	if head.Config.Frontend == "clang" && !strings.Contains(o.Variant, "frontend clang") {
		// the IR's CFA: shared only with runs through clang
		o.Variant = strings.TrimPrefix(o.Variant+", frontend clang", ", ")
	}
	return o
}

// Hit is a changed definition that lies in a property's slice.
type Hit struct {
	Change *DefChange
	// Func is the function of the slice edge nearest to the property
	// that touches the change.
	Func string
	// Distance is the call distance from the property's function to Func
	// in the call graph of the slice's calls (calls in either direction;
	// 0: the same function; -1: not connected).
	Distance int
}

// Reason renders the hit for reports: "`parse_header` changed, 2 calls
// away".
func (h Hit) Reason() string {
	var s string
	switch h.Change.Kind {
	case Renamed:
		s = h.Change.Subject()
	default:
		s = h.Change.Subject() + " " + string(h.Change.Kind)
	}
	if len(h.Change.Via) > 0 {
		s += " (through macro " + strings.Join(h.Change.Via, ", ") + ")"
	}
	return s + distanceText(h.Distance, h.Func)
}

func distanceText(d int, fn string) string {
	switch {
	case d == 0:
		return ", in the same function"
	case d == 1:
		return ", 1 call away"
	case d > 1:
		return fmt.Sprintf(", %d calls away", d)
	}
	if fn != "" {
		return " (in `" + fn + "`)"
	}
	return ""
}

// Decision says whether one property of the head is re-verified and why.
type Decision struct {
	Property *spec.Property
	// Reverify is true when the property must be verified again; else
	// the verdict of Cached is reused.
	Reverify bool
	// Reasons explain a re-verification: changed definitions in the slice
	// with their call distance, a new property, a missing or unusable
	// cache entry.
	Reasons []string
	// Hits are the changed definitions in the property's slice.
	Hits []Hit
	// SliceHash is the hash of the property's slice in the head.
	SliceHash string
	// SliceEdges is the number of CFA edges in the slice.
	SliceEdges int
	// Cached is the cache entry under SliceHash, when there is one.
	Cached *Entry
	// InitialPrecision is the precision an affected property starts from:
	// the cached final precision of the same slice, else of the same
	// property ID at the base revision (Beyer et al., FSE 2013).
	InitialPrecision []string
	// PrecisionFrom says where InitialPrecision came from.
	PrecisionFrom string
	// RenamedFrom is set when the verdict is reused because the slice
	// equals a cached one once function renames are undone (rename.go):
	// the property ID the cached verdict was computed for.
	RenamedFrom string
}

// Affected decides, for each property of the head, whether it must be
// re-verified or may reuse the verdict cached under its slice hash.
// Equal slice hash means equal verdict (DESIGN.md): a property whose
// slice hash has a usable cached verdict is not re-verified, whatever
// changed (a re-run of the same head re-verifies nothing). A cached
// verdict is usable when it was written by the same engine version and
// configuration and it is
//   - TRUE (or NOT_CHECKED);
//   - UNKNOWN computed under limits not smaller than this run's
//     (Limits.NotLarger): under larger limits it is re-tried.
//
// A cached FALSE is always re-checked: the counterexample, witness,
// reproducer and the comment on the changed line are built from the
// head's CFA, which the cache does not hold.
//
// Re-verified properties give their reasons: new property (its ID does
// not exist at the base: added, or moved to another function), the
// changed definitions in their slice (an edge of a changed, added or
// renamed function, a call of a removed function, an edge referring to a
// changed global (global initialisers in Init included), an edge whose
// expression types involve a changed struct or union, an edge whose
// source text names a changed macro (or a macro using one), enumerator
// or typedef, an edge of a function whose text names a changed typedef,
// or an indirect call when the set of function-pointer targets changed),
// and why the cache did not serve (none, another engine version or
// configuration, FALSE, UNKNOWN under smaller limits). Decision.Hits lists
// the changed definitions in the slice of every property, reused or not.
//
// cache may be nil (everything is re-verified).
func Affected(head *Revision, props []*spec.Property, changes []DefChange, cache *Cache, opts Options) []Decision {
	opts = opts.withDefaults(head)
	sdg := head.SDG()
	tr := newTriggers(head, opts.Base, changes)
	if opts.Base != nil {
		tr.fpDiff = fpTargetDiff(opts.Base.addrTaken(), head.addrTaken())
	}
	var baseIDs map[string]bool
	var movedFrom map[string]string
	if opts.Base != nil {
		baseIDs = map[string]bool{}
		headIDs := map[string]bool{}
		for _, p := range props {
			headIDs[p.ID] = true
		}
		movedFrom = map[string]string{}
		for _, p := range opts.Base.propertyRefs() {
			baseIDs[p.ID] = true
			if !headIDs[p.ID] {
				movedFrom[exprKey(p.ID)] = p.Func
			}
		}
	}
	var hashes, renamedKeys []string
	var slices []*pdg.Slice
	renames := renameMap(changes, opts.Entry)
	unsupported, unsupportedAt := unsupportedConstructs(head.Program, opts.Entry)
	opts.unsupported = unsupported
	withStableErrorCalls(head.Program, func() {
		for _, p := range props {
			s := sliceOf(sdg, p)
			slices = append(slices, s)
			extra := sliceExtras(head.Program, s, p, opts)
			hashes = append(hashes, s.Hash(extra...))
			if renames != nil {
				renamedKeys = append(renamedKeys, renameKey(s.Normalized(extra...), renames))
			}
		}
	})
	bh := opts.baseHashes
	if bh == nil {
		bh = newBaseHasher(opts)
	}
	baseHash := bh.hash

	out := make([]Decision, len(props))
	for i, p := range props {
		d := Decision{Property: p, SliceHash: hashes[i], SliceEdges: slices[i].Len()}
		d.Hits = tr.hits(slices[i], p, sliceCallGraph(head.Program, slices[i], opts.Entry))
		if baseIDs != nil && !baseIDs[p.ID] {
			if f, ok := movedFrom[exprKey(p.ID)]; ok && f != p.Func {
				d.Reasons = append(d.Reasons, fmt.Sprintf("new property (moved from `%s`)", f))
			} else {
				d.Reasons = append(d.Reasons, "new property")
			}
		}
		// Equal slice hash means equal verdict (DESIGN.md): a usable
		// cached verdict is reused whatever changed; the changed
		// definitions explain a re-verification only.
		var hitReasons []string
		for _, h := range d.Hits {
			hitReasons = append(hitReasons, h.Reason())
		}
		e, ok := cache.Get(d.SliceHash)
		reuse := false
		var cacheReasons []string
		switch {
		case !ok:
			if len(d.Reasons)+len(hitReasons) == 0 {
				r := "no cached verdict for its slice " + short(d.SliceHash)
				if len(unsupported) > 0 {
					r += "; " + unsupportedNote(unsupported, unsupportedAt)
				}
				cacheReasons = append(cacheReasons, r)
			}
		case e.EngineVersion != opts.EngineVersion || e.Config != opts.Config:
			cacheReasons = append(cacheReasons, fmt.Sprintf("cached verdict ignored: computed by engine %s with configuration %s", e.EngineVersion, e.Config))
		default:
			d.Cached = e
			switch e.Verdict {
			case results.False:
				cacheReasons = append(cacheReasons, "cached verdict is FALSE (violations are always re-checked)")
			case results.Unknown:
				if opts.Limits.NotLarger(e.Limits) {
					reuse = true
				} else {
					cacheReasons = append(cacheReasons, fmt.Sprintf("cached UNKNOWN re-tried under larger limits (then %s; now %s)", e.Limits, opts.Limits))
				}
			default:
				reuse = true
			}
		}
		if reuse {
			d.Reasons = nil
		} else {
			d.Reasons = append(append(d.Reasons, hitReasons...), cacheReasons...)
		}
		d.Reverify = !reuse
		if d.Reverify && renames != nil && renamedKeys[i] != "" && (d.Cached == nil || d.Cached.Verdict == results.True) &&
			explainedByRenames(d.Hits, renames, opts.Base, head) {
			if e, ok := cache.Get(renamedKeys[i]); ok && e.EngineVersion == opts.EngineVersion && e.Config == opts.Config &&
				(e.Verdict == results.True || e.Verdict == results.Unknown && opts.Limits.NotLarger(e.Limits)) {
				d.Cached, d.RenamedFrom, d.Reasons, d.Reverify = e, e.Property, nil, false
			}
		}
		if d.Reverify {
			// Only the precision of a finished analysis (TRUE or FALSE)
			// is reused: one that ran into a limit holds whatever the
			// refinements had added when it stopped, and starting from it
			// makes every state dearer (BenchmarkRealHistory measured
			// runs to the same UNKNOWN 2 to 20 times slower).
			if d.Cached != nil && len(d.Cached.Precision) > 0 && decided(d.Cached.Verdict) {
				d.InitialPrecision, d.PrecisionFrom = d.Cached.Precision, "cached slice "+short(d.SliceHash)
			} else if bh := baseHash(p.ID); bh != "" && bh != d.SliceHash {
				if be, ok := cache.Get(bh); ok && len(be.Precision) > 0 && decided(be.Verdict) && be.EngineVersion == opts.EngineVersion && be.Config == opts.Config {
					d.InitialPrecision, d.PrecisionFrom = be.Precision, "base revision, slice "+short(bh)
				}
			}
		}
		out[i] = d
	}
	return out
}

// baseHasher computes the slice hashes of the base revision's
// properties once, on demand: from the summary a verified head left in
// the cache (LoadBase), else from the base's own SDG.
type baseHasher struct {
	opts   Options // with defaults; Base may be nil
	ids    map[string]bool
	hashes map[string]string // nil until computed
}

func newBaseHasher(opts Options) *baseHasher {
	b := &baseHasher{opts: opts}
	if opts.Base != nil {
		b.ids = map[string]bool{}
		for _, p := range opts.Base.propertyRefs() {
			b.ids[p.ID] = true
		}
	}
	return b
}

// hash returns the slice hash of the base's property id, "" when there is
// no base, the base lacks the property, or the base's summary was made
// for other options.
func (b *baseHasher) hash(id string) string {
	opts := b.opts
	if opts.Base == nil || !b.ids[id] {
		return ""
	}
	if b.hashes == nil {
		b.hashes = map[string]string{}
		if s := opts.Base.summary; s != nil {
			if s.HashKey == hashKey(opts) {
				b.hashes = s.SliceHashes
			}
			return b.hashes[id]
		}
		bsdg := opts.Base.SDG()
		bopts := opts
		bopts.unsupported, _ = unsupportedConstructs(opts.Base.Program, opts.Entry)
		withStableErrorCalls(opts.Base.Program, func() {
			for _, p := range opts.Base.Properties() {
				b.hashes[p.ID] = sliceHash(opts.Base.Program, sliceOf(bsdg, p), p, bopts)
			}
		})
	}
	return b.hashes[id]
}

// decided reports whether a verdict is TRUE or FALSE.
func decided(v results.Verdict) bool { return v == results.True || v == results.False }

// exprKey is a property ID without its function: "main:x<10#2" → "x<10#2".
func exprKey(id string) string {
	if _, rest, ok := strings.Cut(id, ":"); ok {
		return rest
	}
	return id
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// sliceOf computes the backward slice of a property's error edges,
// restricted to its Via call for wrapped assertions.
func sliceOf(g *pdg.SDG, p *spec.Property) *pdg.Slice {
	if p.Via != nil {
		return g.SliceVia(p.Via, p.ErrorEdges)
	}
	return g.Slice(p.ErrorEdges)
}

// Specification is the specification string in every slice hash: what a
// property claims (no call of an error function is reached).
var Specification = func() string {
	var names []string
	for n := range spec.ErrorFuncs {
		names = append(names, n)
	}
	sort.Strings(names)
	return "G ! call(" + strings.Join(names, "|") + ")"
}()

// sliceHash is the slice hash of a property (DESIGN.md): the hash of the
// normalised slice plus the data model, entry function, specification,
// engine version, configuration, reachability, the callees of the slice
// without a body and, when the slice calls through a pointer, the
// address-taken functions (the possible targets).
func sliceHash(prog *cfa.Program, s *pdg.Slice, p *spec.Property, opts Options) string {
	return s.Hash(sliceExtras(prog, s, p, opts)...)
}

// sliceExtras are the extra strings of a property's slice hash.
func sliceExtras(prog *cfa.Program, s *pdg.Slice, p *spec.Property, opts Options) []string {
	externals := map[string]bool{}
	indirect := false
	for _, e := range s.Edges() {
		c, ok := e.Op.(*cfa.Call)
		if !ok {
			continue
		}
		if c.Fn == "" {
			indirect = true
		} else if prog.Func(c.Fn) == nil {
			externals[c.Fn] = true
		}
	}
	extra := []string{
		"data-model " + prog.DataModel.String(),
		"entry " + opts.Entry,
		"specification " + Specification,
		"engine " + opts.EngineVersion,
		"configuration " + opts.Config,
		fmt.Sprintf("reachable %v", p.Reachable),
		"externals " + strings.Join(sortedKeys(externals), ","),
	}
	if opts.Variant != "" {
		extra = append(extra, "variant "+opts.Variant)
	}
	if indirect {
		extra = append(extra, "pointer-targets "+strings.Join(prog.AddressTaken(), ","))
	}
	if as := engine.Assumptions(prog); len(as) > 0 {
		// the verdict assumes these functions write nothing
		extra = append(extra, "assumptions "+strings.Join(as, ","))
	}
	if len(opts.unsupported) > 0 {
		extra = append(extra, "unsupported "+strings.Join(opts.unsupported, "; "))
	}
	return extra
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fpTargetDiff describes how the address-taken functions changed ("" if
// they did not): "+h, -k".
func fpTargetDiff(b, h []string) string {
	inB, inH := map[string]bool{}, map[string]bool{}
	for _, n := range b {
		inB[n] = true
	}
	for _, n := range h {
		inH[n] = true
	}
	var d []string
	for _, n := range h {
		if !inB[n] {
			d = append(d, "+"+n)
		}
	}
	for _, n := range b {
		if !inH[n] {
			d = append(d, "-"+n)
		}
	}
	return strings.Join(d, ", ")
}

// withStableErrorCalls runs fn while the calls of error functions carry
// no source position in their arguments: assert.h passes __FILE__,
// __LINE__ and __func__ to __assert_fail, which would make the slice hash
// of every assertion change when code above it moves (or its function is
// renamed). Arguments that are a string naming the edge's file or
// function, or an integer equal to its line, read as 0 during fn; the original operations are restored afterwards. The
// arguments of a call to an error function cannot affect the verdict
// (reaching the call is the violation).
func withStableErrorCalls(prog *cfa.Program, fn func()) {
	type swap struct {
		e  *cfa.Edge
		op cfa.Op
	}
	var swaps []swap
	files := map[string]bool{}
	for _, f := range prog.Files {
		files[f] = true
		files[path.Base(f)] = true
	}
	for _, e := range prog.Edges {
		c, ok := e.Op.(*cfa.Call)
		if !ok || !spec.ErrorFuncs[c.Fn] {
			continue
		}
		var args []cfa.Expr
		changed := false
		for _, a := range c.Args {
			if positional(a, e, files) {
				a = &cfa.Const{T: a.Type(), V: 0}
				changed = true
			}
			args = append(args, a)
		}
		if changed {
			nc := *c
			nc.Args = args
			swaps = append(swaps, swap{e, e.Op})
			e.Op = &nc
		}
	}
	defer func() {
		for _, s := range swaps {
			s.e.Op = s.op
		}
	}()
	fn()
}

// positional reports whether a call argument is the edge's file name,
// line number or function name (assert.h passes __func__ too).
func positional(a cfa.Expr, e *cfa.Edge, files map[string]bool) bool {
	if c, ok := a.(*cfa.Const); ok && c.T != nil && c.T.Kind == cfa.Int {
		v := int(c.V)
		return v > 0 && (v == e.Pos.Start.Line || v == e.Pos.End.Line)
	}
	if s, ok := cfa.StringLiteral(a); ok {
		return s != "" && (files[s] || s == e.Pos.Start.File || path.Base(s) == path.Base(e.Pos.Start.File) || s == e.From.Func.Name)
	}
	return false
}

// triggers maps the changes to what reveals them on a CFA edge.
type triggers struct {
	funcs     map[string]*DefChange   // function (head name) whose edges are changed code
	calls     map[string]*DefChange   // removed function: calls of it
	globals   map[string]*DefChange   // global variable referred to
	records   map[string]*DefChange   // struct or union type ("struct pair")
	idents    map[string][]*DefChange // identifier in an edge's source text
	funcLevel map[string][]*DefChange // function whose text names a changed typedef
	fpDiff    string                  // change of the address-taken functions
	fpChange  *DefChange
	memo      map[int][]*DefChange // edge ID → changes it touches
	typeMemo  map[*cfa.Type][]*DefChange
}

func newTriggers(head, base *Revision, changes []DefChange) *triggers {
	t := &triggers{
		funcs: map[string]*DefChange{}, calls: map[string]*DefChange{}, globals: map[string]*DefChange{},
		records: map[string]*DefChange{}, idents: map[string][]*DefChange{}, funcLevel: map[string][]*DefChange{},
		memo: map[int][]*DefChange{}, typeMemo: map[*cfa.Type][]*DefChange{},
	}
	// Macro users in the head: macro → macros whose replacement uses it.
	users := map[string][]string{}
	for _, d := range head.Defs {
		if d.Kind == cfa.DefMacro {
			for _, u := range csyntax.MacroUses(head.defText(d), d.Name) {
				users[u] = append(users[u], d.Name)
			}
		}
	}
	addIdent := func(id string, c *DefChange) {
		for _, x := range t.idents[id] {
			if x == c {
				return
			}
		}
		t.idents[id] = append(t.idents[id], c)
	}
	for i := range changes {
		c := &changes[i]
		d := c.Def
		switch d.Kind {
		case cfa.DefFunc:
			switch {
			case c.Kind == Removed:
				t.calls[d.Name] = c
			case len(c.Via) > 0 && !directiveMentions(head.defText(d), c.Via):
				// Only macro expansions changed: the macros' own triggers
				// find the edges whose text expands them.
			default:
				t.funcs[d.Name] = c
			}
		case cfa.DefGlobal:
			if c.Kind != Removed {
				t.globals[d.Name] = c
			}
		case cfa.DefMacro:
			// The macro and every macro using it, transitively.
			seen := map[string]bool{d.Name: true}
			work := []string{d.Name}
			for len(work) > 0 {
				m := work[len(work)-1]
				work = work[:len(work)-1]
				addIdent(m, c)
				for _, u := range users[m] {
					if !seen[u] {
						seen[u] = true
						work = append(work, u)
					}
				}
			}
		case cfa.DefType:
			switch {
			case strings.HasPrefix(d.Name, "struct ") || strings.HasPrefix(d.Name, "union "):
				t.records[d.Name] = c
			case strings.HasPrefix(d.Name, "enum "):
				// The constants of both versions: removed, added and
				// renumbered ones.
				if c.Kind != Removed {
					for _, id := range csyntax.Enumerators(head.defText(d)) {
						addIdent(id, c)
					}
				}
				if base != nil && (c.Old != nil || c.Kind == Removed) {
					od := d
					if c.Old != nil {
						od = *c.Old
					}
					for _, id := range csyntax.Enumerators(base.defText(od)) {
						addIdent(id, c)
					}
				}
			default: // typedef
				addIdent(d.Name, c)
				if c.Kind == Renamed && c.Old != nil {
					addIdent(c.Old.Name, c)
				}
				for _, hd := range head.Defs {
					if hd.Kind == cfa.DefFunc && csyntax.Mentions(head.defText(hd), d.Name) {
						t.funcLevel[hd.Name] = append(t.funcLevel[hd.Name], c)
					}
				}
			}
		}
	}
	return t
}

// directiveMentions reports whether a preprocessor directive line of
// text (#if, #ifdef, …) names one of the macros.
func directiveMentions(text string, macros []string) bool {
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") {
			for _, m := range macros {
				if csyntax.Mentions(t, m) {
					return true
				}
			}
		}
	}
	return false
}

// edgeChanges returns the changes an edge touches (memoised).
func (t *triggers) edgeChanges(e *cfa.Edge) []*DefChange {
	if cs, ok := t.memo[e.ID]; ok {
		return cs
	}
	var cs []*DefChange
	add := func(c *DefChange) {
		for _, x := range cs {
			if x == c {
				return
			}
		}
		cs = append(cs, c)
	}
	if c := t.funcs[e.From.Func.Name]; c != nil {
		add(c)
	}
	for _, c := range t.funcLevel[e.From.Func.Name] {
		add(c)
	}
	if call, ok := e.Op.(*cfa.Call); ok && call.Fn != "" {
		if c := t.calls[call.Fn]; c != nil {
			add(c)
		}
	}
	if d, ok := e.Op.(*cfa.Decl); ok {
		if d.Var.Global {
			if c := t.globals[d.Var.Name]; c != nil {
				add(c)
			}
		}
		for _, c := range t.typeChanges(d.Var.T) {
			add(c)
		}
	}
	cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
		cfa.Walk(x, func(x cfa.Expr) bool {
			if r, ok := x.(*cfa.VarRef); ok && r.Var.Global {
				if c := t.globals[r.Var.Name]; c != nil {
					add(c)
				}
			}
			for _, c := range t.typeChanges(x.Type()) {
				add(c)
			}
			return true
		})
	})
	if len(t.idents) > 0 && e.Text != "" {
		for _, id := range csyntax.Identifiers(e.Text) {
			for _, c := range t.idents[id] {
				add(c)
			}
		}
	}
	t.memo[e.ID] = cs
	return cs
}

// typeChanges returns the changed records a type involves (through
// pointers, arrays, fields, parameters).
func (t *triggers) typeChanges(ty *cfa.Type) []*DefChange {
	if ty == nil || len(t.records) == 0 {
		return nil
	}
	if cs, ok := t.typeMemo[ty]; ok {
		return cs
	}
	t.typeMemo[ty] = nil // cycles through pointers
	var cs []*DefChange
	add := func(more []*DefChange) {
		for _, c := range more {
			dup := false
			for _, x := range cs {
				dup = dup || x == c
			}
			if !dup {
				cs = append(cs, c)
			}
		}
	}
	switch ty.Kind {
	case cfa.Struct, cfa.Union:
		if c := t.records[ty.Name]; c != nil {
			add([]*DefChange{c})
		}
		for _, f := range ty.Fields {
			add(t.typeChanges(f.Type))
		}
	case cfa.Pointer, cfa.Array:
		add(t.typeChanges(ty.Elem))
	case cfa.Func:
		for _, p := range ty.Params {
			add(t.typeChanges(p))
		}
		add(t.typeChanges(ty.Result))
	}
	t.typeMemo[ty] = cs
	return cs
}

// hits returns the changes in a slice, each with the smallest call
// distance from the property's function, in order of distance.
func (t *triggers) hits(s *pdg.Slice, p *spec.Property, cg *callGraph) []Hit {
	best := map[*DefChange]Hit{}
	var order []*DefChange
	consider := func(c *DefChange, fn string) {
		d := cg.distance(p.Func, fn)
		h, ok := best[c]
		if !ok {
			order = append(order, c)
		}
		if !ok || better(d, h.Distance) {
			best[c] = Hit{Change: c, Func: fn, Distance: d}
		}
	}
	for _, e := range s.Edges() {
		fn := e.From.Func.Name
		for _, c := range t.edgeChanges(e) {
			consider(c, fn)
		}
		if t.fpDiff != "" {
			if call, ok := e.Op.(*cfa.Call); ok && call.Fn == "" {
				if t.fpChange == nil {
					t.fpChange = &DefChange{Kind: Changed, Def: cfa.Definition{Kind: cfa.DefFunc, Name: "function-pointer targets (" + t.fpDiff + ")"}}
				}
				consider(t.fpChange, fn)
			}
		}
	}
	out := make([]Hit, 0, len(order))
	for _, c := range order {
		out = append(out, best[c])
	}
	sort.SliceStable(out, func(i, j int) bool { return better(out[i].Distance, out[j].Distance) })
	return out
}

// better orders distances: known before unknown (-1), smaller first.
func better(a, b int) bool {
	if a < 0 {
		return false
	}
	return b < 0 || a < b
}

// callGraph is the call graph of a property's slice (cfa.CallGraph under
// cfa's syntactic rule: direct calls, calls through pointers and
// callbacks of unmodelled functions to every address-taken function) plus
// the global initialiser next to the entry function, read undirected:
// distances count calls in either direction.
type callGraph struct {
	prog *cfa.Program
	cg   *cfa.CallGraph
	und  *graph.Adjacency
	dist map[int][]int
}

// sliceCallGraph is the call graph of the calls in a property's slice
// only: the chains along which a change can reach the property. The
// whole program's graph has shortcuts through calls the property does
// not depend on (a caller that also calls the changed function directly
// put a function 4 calls down the slice "2 calls away").
func sliceCallGraph(prog *cfa.Program, s *pdg.Slice, entry string) *callGraph {
	cg := cfa.NewCallGraph(prog, s.Edges(), prog.SyntacticTargets())
	und := graph.NewAdjacency(cg.Graph.Len())
	for n := 0; n < cg.Graph.Len(); n++ {
		for _, m := range cg.Graph.Succs(n) {
			und.AddEdge(n, m)
			und.AddEdge(m, n)
		}
	}
	if i, e := cg.Node(prog.Init), cg.Node(prog.Func(entry)); i >= 0 && e >= 0 {
		und.AddEdge(i, e)
		und.AddEdge(e, i)
	}
	return &callGraph{prog: prog, cg: cg, und: und, dist: map[int][]int{}}
}

// distance is the length of the shortest call chain between two
// functions with a body, in either direction (-1 when there is none).
func (g *callGraph) distance(from, to string) int {
	if from == to {
		return 0
	}
	f, t := g.cg.Node(g.prog.Func(from)), g.cg.Node(g.prog.Func(to))
	if f < 0 || t < 0 {
		return -1
	}
	d, ok := g.dist[f]
	if !ok {
		_, d = graph.BFS(g.und, f)
		g.dist[f] = d
	}
	return d[t]
}
