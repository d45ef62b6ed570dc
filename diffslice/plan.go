package diffslice

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Plan is the comparison of a base and a head revision: the changed
// definitions, the line diff, and one decision per property of the head.
type Plan struct {
	Base, Head *Revision // Base may be nil: every decision rests on the cache
	Options    Options
	Changes    []DefChange
	// Hunks is the line diff; Cosmetic the hunks that change no
	// definition (comments, white space, code moved).
	Hunks, Cosmetic []Hunk
	// DiffErr is why the line diff failed, if it did (the changes are
	// still complete: only their line information is missing).
	DiffErr error
	// Properties are the head's properties (sorted by position) and
	// Decisions the decision for each, in the same order.
	Properties []*spec.Property
	Decisions  []Decision
}

// NewPlan compares base (nil: none) and head and decides, against cache
// (nil: empty), which properties of the head to re-verify.
func NewPlan(base, head *Revision, cache *Cache, opts Options) *Plan {
	opts.Base = base
	opts = opts.withDefaults(head)
	opts.baseHashes = newBaseHasher(opts)
	p := &Plan{Base: base, Head: head, Options: opts}
	if base != nil {
		p.Changes = defChanges(base, head)
		p.Hunks, p.DiffErr = LineDiff(base, head)
		attachHunks(p.Changes, p.Hunks)
		p.Cosmetic = Cosmetic(p.Changes, p.Hunks)
	}
	p.Properties = head.properties(opts.Entry)
	p.Decisions = Affected(head, p.Properties, p.Changes, cache, opts)
	return p
}

// NewPropertyPlan decides, against cache (nil: empty), which of props
// (properties of head.Program) to re-verify when there is no base
// revision: a property is reused when the cache holds a usable verdict
// for its slice hash (Affected's rules), which is what makes a re-run on
// an edited program re-verify only the properties whose slices the edit
// touched. Memory-safety properties (spec.Property.Memory) have no slice
// of their own in the SDG: they are always re-verified and never stored.
// `reverify proofs --cache` uses it, where every CBMC proof is a program
// of its own. The plan's Verify and Store work as for NewPlan's.
func NewPropertyPlan(head *Revision, props []*spec.Property, cache *Cache, opts Options) *Plan {
	opts = opts.withDefaults(head)
	opts.baseHashes = newBaseHasher(opts)
	p := &Plan{Head: head, Options: opts, Properties: props}
	var asserts []*spec.Property
	for _, q := range props {
		if len(q.Memory) == 0 {
			asserts = append(asserts, q)
		}
	}
	ds := Affected(head, asserts, nil, cache, opts)
	k := 0
	for _, q := range props {
		if len(q.Memory) > 0 {
			p.Decisions = append(p.Decisions, Decision{Property: q, Reverify: true, Reasons: []string{"memory-safety properties are not cached"}})
			continue
		}
		p.Decisions = append(p.Decisions, ds[k])
		k++
	}
	return p
}

// Affected returns the properties to re-verify, in order.
func (p *Plan) Affected() []*spec.Property {
	var out []*spec.Property
	for _, d := range p.Decisions {
		if d.Reverify {
			out = append(out, d.Property)
		}
	}
	return out
}

// Summary is one line: "12 properties: 2 re-verified, 10 from the cache".
func (p *Plan) Summary() string {
	n := len(p.Affected())
	return fmt.Sprintf("%d properties: %d re-verified, %d from the cache", len(p.Decisions), n, len(p.Decisions)-n)
}

// Verify runs the engine on the affected properties only, each starting
// from its InitialPrecision, and returns one result per property of the
// head, in order: fresh results for the affected ones, the cached
// verdicts (with their reason, statistics and precision, and zero
// seconds) for the others. cfg.OnResult, when set, sees the cached
// results first, then each fresh one as it is decided. cfg's Name and
// Entry must agree with the plan's options (empty ones are filled in).
func (p *Plan) Verify(ctx context.Context, cfg engine.Config) ([]*engine.Result, error) {
	if cfg.Name == "" {
		cfg.Name = p.Options.Config
	}
	if cfg.Entry == "" {
		cfg.Entry = p.Options.Entry
	}
	if cfg.Name != p.Options.Config || cfg.Entry != p.Options.Entry {
		return nil, fmt.Errorf("diffslice: verifying with configuration %s and entry %s, but the plan was made for %s and %s",
			cfg.Name, cfg.Entry, p.Options.Config, p.Options.Entry)
	}
	if l, pl := LimitsOf(cfg), p.Options.Limits; l.Timeout != pl.Timeout || l.MaxStates != pl.MaxStates ||
		l.MaxDepth != pl.MaxDepth || l.MaxRefinements != pl.MaxRefinements || (l.Clock == "wall") != (pl.clock() == "wall") {
		return nil, fmt.Errorf("diffslice: verifying under limits %s, but the plan was made for %s", l, pl)
	}
	var todo []*spec.Property
	init := map[string]engine.Precision{}
	for k, v := range cfg.InitialPrecision {
		init[k] = v
	}
	for _, d := range p.Decisions {
		if d.Reverify {
			todo = append(todo, d.Property)
			if len(d.InitialPrecision) > 0 {
				if _, given := init[d.Property.ID]; !given {
					prec, err := engine.ParsePrecision(d.InitialPrecision)
					if err != nil {
						return nil, fmt.Errorf("diffslice: precision of %s from the %s: %v", d.Property.ID, d.PrecisionFrom, err)
					}
					init[d.Property.ID] = prec
				}
			}
		}
	}
	cfg.InitialPrecision = init
	out := make([]*engine.Result, len(p.Decisions))
	for i, d := range p.Decisions {
		if d.Reverify {
			continue
		}
		e := d.Cached
		out[i] = &engine.Result{
			Property: d.Property, Verdict: e.Verdict, Reason: e.Reason, Cause: e.Cause, Config: e.Config,
			States: e.States, Refinements: e.Refinements, Precision: e.Precision, Assumptions: e.Assumptions,
		}
		if cfg.OnResult != nil {
			cfg.OnResult(out[i])
		}
	}
	if len(todo) > 0 {
		verify := p.Options.Verify
		if verify == nil {
			verify = func(ctx context.Context, props []*spec.Property, cfg engine.Config) ([]*engine.Result, error) {
				return engine.Verify(ctx, p.Head.Program, props, cfg)
			}
		}
		fresh, err := verify(ctx, todo, cfg)
		if err != nil {
			return nil, err
		}
		k := 0
		for i, d := range p.Decisions {
			if d.Reverify {
				out[i] = fresh[k]
				k++
			}
		}
	}
	return out, nil
}

// maxChangedSpans bounds the spans of changed lines recorded per
// property (PropertyReport.ChangedLines).
const maxChangedSpans = 20

// Annotate records, in a report built from Verify's results, each
// property's slice hash, whether its verdict came from the cache, why it
// was re-verified, and the head lines the change added or modified in
// the definitions of its slice (nearest first).
func (p *Plan) Annotate(r *results.Report) {
	byID := map[string]*Decision{}
	for i := range p.Decisions {
		byID[p.Decisions[i].Property.ID] = &p.Decisions[i]
	}
	for i := range r.Properties {
		pr := &r.Properties[i]
		d := byID[pr.ID]
		if d == nil {
			continue
		}
		pr.SliceHash = d.SliceHash
		pr.CacheHit = !d.Reverify
		pr.Reverified = d.Reasons
		pr.ChangedLines = changedSpans(d.Hits)
		if !d.Reverify && d.Cached != nil {
			if pr.Witness == "" {
				pr.Witness = d.Cached.Witness
			}
			if pr.PixelTree == "" {
				pr.PixelTree = d.Cached.PixelTree
			}
		}
	}
}

// changedSpans are the head lines of the hunks of the hits' changes, in
// the order of the hits, each hunk once, at most maxChangedSpans.
func changedSpans(hits []Hit) []results.Span {
	var out []results.Span
	seen := map[Hunk]bool{}
	for _, h := range hits {
		for _, k := range h.Change.Hunks {
			if k.NewFile == "" || k.NewCount <= 0 || seen[k] || len(out) >= maxChangedSpans {
				continue
			}
			seen[k] = true
			out = append(out, results.Span{File: path.Clean(filepath.ToSlash(k.NewFile)), Line: k.NewStart, Lines: k.NewCount})
		}
	}
	return out
}

// BaseVerdict returns the cache entry of the property with this ID at the
// base revision: the verdict cached under its slice hash there, computed
// by the plan's engine version and configuration; nil when the plan has
// no base, the base lacks the property, or the cache has no such entry.
// The base's slice hashes come from its summary in the cache, else from
// its SDG, computed once per plan.
func (p *Plan) BaseVerdict(cache *Cache, id string) *Entry {
	bh := p.Options.baseHashes
	if bh == nil || p.Base == nil {
		return nil
	}
	h := bh.hash(id)
	if h == "" {
		return nil
	}
	e, ok := cache.Get(h)
	if !ok || e.EngineVersion != p.Options.EngineVersion || e.Config != p.Options.Config {
		return nil
	}
	return e
}

// AnnotateEarlier records, for each UNKNOWN property of r (a report
// annotated by Annotate), the verdict known before this run as its
// Earlier verdict: the one the cache holds for it at the base revision
// (BaseVerdict; results.EarlierCommit when the base is the head's
// commit), unless that is not FALSE and the cache holds FALSE under the
// property's own slice hash (its violation was confirmed for this very
// slice on another commit, or by an earlier run on this one:
// results.EarlierSlice, results.EarlierCommit).
func (p *Plan) AnnotateEarlier(cache *Cache, r *results.Report) {
	byID := map[string]*Decision{}
	for i := range p.Decisions {
		byID[p.Decisions[i].Property.ID] = &p.Decisions[i]
	}
	head := p.Head.Commit
	for i := range r.Properties {
		pr := &r.Properties[i]
		if pr.Verdict != results.Unknown {
			continue
		}
		if e := p.BaseVerdict(cache, pr.ID); e != nil {
			on := results.EarlierBase
			if p.Base.Commit != "" && p.Base.Commit == head {
				on = results.EarlierCommit
			}
			pr.Earlier = &results.Earlier{Verdict: e.Verdict, On: on, Commit: p.Base.Commit}
		}
		if pr.Earlier != nil && pr.Earlier.Verdict == results.False {
			continue
		}
		if d := byID[pr.ID]; d != nil && d.Cached != nil && d.Cached.Verdict == results.False && d.Cached.SliceHash == d.SliceHash {
			on := results.EarlierSlice
			if d.Cached.Commit != "" && d.Cached.Commit == head {
				on = results.EarlierCommit
			}
			pr.Earlier = &results.Earlier{Verdict: results.False, On: on, Commit: d.Cached.Commit}
		}
	}
}

// storable reports whether a result may be cached: a verdict, or an
// UNKNOWN whose cause says something about the program under the run's
// limits (results.Cause.Cacheable: not an internal error, not a run the
// caller's budget stopped, not the memory limit the properties verified
// in parallel share, not a disagreement between analyses).
func storable(res *engine.Result) bool {
	if res.Verdict != results.Unknown {
		return true
	}
	return res.Cause != nil && res.Cause.Cacheable()
}

// Store writes the verdicts of the re-verified properties into the
// cache under their slice hashes, with the artifact paths of report
// (may be nil), and UNKNOWN results with the limits they ran under
// (Options.Limits; reused only under limits not larger). Results that
// are no verdict about the program (an internal error, a run cancelled
// from outside) are not stored; callers pass nil for properties a total
// time budget cut off. An UNKNOWN the shared budget of Options.Limits
// stopped (Limits.Budget, one of the run's limits) is stored.
func (p *Plan) Store(cache *Cache, rs []*engine.Result, report *results.Report) error {
	if cache == nil {
		return nil
	}
	var errs []string
	if err := p.storeSummary(cache); err != nil {
		errs = append(errs, err.Error())
	}
	paths := map[string]results.PropertyReport{}
	if report != nil {
		for _, pr := range report.Properties {
			paths[pr.ID] = pr
		}
	}
	commit := p.Head.Commit
	for i, d := range p.Decisions {
		if !d.Reverify && d.RenamedFrom != "" && d.Cached != nil && d.Cached.SliceHash != d.SliceHash {
			// A renamed property keeps its cache: the verdict also under
			// its own slice hash, for the next change.
			e := *d.Cached
			e.SliceHash, e.Property, e.Commit = d.SliceHash, d.Property.ID, commit
			e.Precision = renamePrecision(e.Precision, p.Changes, p.Options.Entry)
			if err := cache.Put(&e); err != nil {
				errs = append(errs, err.Error())
			}
			continue
		}
		if !d.Reverify || d.SliceHash == "" || i >= len(rs) || rs[i] == nil {
			continue
		}
		res := rs[i]
		if !storable(res) && !(p.Options.Limits.Budget > 0 && res.Cause != nil && res.Cause.Kind == results.CauseBudget) {
			continue
		}
		pr := paths[d.Property.ID]
		e := &Entry{
			SliceHash: d.SliceHash, Property: d.Property.ID, Verdict: res.Verdict, Reason: res.Reason, Cause: res.Cause,
			Assumptions: res.Assumptions,
			Witness:     pr.Witness, Reproducer: pr.Reproducer, PixelTree: pr.PixelTree,
			Seconds: res.Seconds, States: res.States, Refinements: res.Refinements, Precision: res.Precision,
			EngineVersion: p.Options.EngineVersion, Config: p.Options.Config, Limits: p.Options.Limits, Commit: commit,
		}
		if err := cache.Put(e); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("cache: %s", strings.Join(errs, "; "))
	}
	return nil
}

// PlanJSON is the machine-readable form of a plan (reverify diff --json).
type PlanJSON struct {
	Base      string              `json:"base,omitempty"`
	Head      string              `json:"head"`
	Changes   []ChangeJSON        `json:"changes"`
	Cosmetic  []string            `json:"cosmetic_hunks,omitempty"`
	Decisions []DecisionJSON      `json:"properties"`
	Summary   map[string]int      `json:"summary"`
	Config    string              `json:"configuration"`
	Entry     string              `json:"entry"`
	Sources   map[string][]string `json:"sources"`
}

// ChangeJSON is one changed definition in PlanJSON.
type ChangeJSON struct {
	Kind    string   `json:"kind"` // function, global, type, macro
	Name    string   `json:"name"`
	Change  string   `json:"change"` // added, removed, changed, renamed
	OldName string   `json:"old_name,omitempty"`
	File    string   `json:"file,omitempty"`
	Line    int      `json:"line,omitempty"`
	EndLine int      `json:"end_line,omitempty"`
	Via     []string `json:"through_macros,omitempty"`
	Hunks   []string `json:"hunks,omitempty"`
}

// DecisionJSON is one property's decision in PlanJSON.
type DecisionJSON struct {
	ID               string   `json:"id"`
	File             string   `json:"file"`
	Line             int      `json:"line"`
	Function         string   `json:"function"`
	Reverify         bool     `json:"reverify"`
	Reasons          []string `json:"reasons,omitempty"`
	SliceHash        string   `json:"slice_hash"`
	SliceEdges       int      `json:"slice_edges"`
	CachedVerdict    string   `json:"cached_verdict,omitempty"`
	InitialPrecision int      `json:"initial_precision_entries,omitempty"`
	// RenamedFrom is the property whose cached verdict a renamed property
	// reuses (Decision.RenamedFrom).
	RenamedFrom string `json:"renamed_from,omitempty"`
}

// JSON returns the machine-readable form of the plan.
func (p *Plan) JSON() *PlanJSON {
	j := &PlanJSON{Head: p.Head.Label(), Config: p.Options.Config, Entry: p.Options.Entry,
		Summary: map[string]int{}, Sources: map[string][]string{"head": p.Head.Files}}
	if p.Base != nil {
		j.Base = p.Base.Label()
		j.Sources["base"] = p.Base.Files
	}
	j.Changes = []ChangeJSON{}
	for _, c := range p.Changes {
		cj := ChangeJSON{Kind: c.Def.Kind.String(), Name: c.Def.Name, Change: string(c.Kind), File: c.Def.File,
			Line: c.Def.Line, EndLine: c.Def.EndLine, Via: c.Via}
		if c.Old != nil && c.Old.Name != c.Def.Name {
			cj.OldName = c.Old.Name
		}
		for _, h := range c.Hunks {
			cj.Hunks = append(cj.Hunks, h.String())
		}
		j.Changes = append(j.Changes, cj)
	}
	for _, h := range p.Cosmetic {
		j.Cosmetic = append(j.Cosmetic, h.String())
	}
	for _, d := range p.Decisions {
		dj := DecisionJSON{ID: d.Property.ID, File: d.Property.Pos.File, Line: d.Property.Pos.Line, Function: d.Property.Func,
			Reverify: d.Reverify, Reasons: d.Reasons, SliceHash: d.SliceHash, SliceEdges: d.SliceEdges,
			InitialPrecision: len(d.InitialPrecision), RenamedFrom: d.RenamedFrom}
		if d.Cached != nil {
			dj.CachedVerdict = string(d.Cached.Verdict)
		}
		if d.Reverify {
			j.Summary["reverify"]++
		} else {
			j.Summary["cached"]++
		}
		j.Decisions = append(j.Decisions, dj)
	}
	return j
}
