package library

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
	"github.com/reverify/reverify/engine/harness"
	"github.com/reverify/reverify/results"
)

// Options bound the most general contexts (harness.Options): Depth
// levels of pointers to fresh objects below a parameter (0: 2), Bound
// elements at most in an array with a length and characters in a
// string (0: 4).
type Options struct {
	Depth, Bound int
}

// Library is a program loaded with a most general context for each
// function that needs one.
type Library struct {
	Program *engine.Program
	// contexts by cfa function name; a Limitation context has no entry.
	contexts map[string]*harness.Context
	// globals are the assumptions of the globals' values, by file.
	globals map[string][]string
	callers map[string][]string
	roots   map[string]bool
	taken   map[string]bool
	// indirect are the functions that call through a pointer: a
	// callback's callers in the sources.
	indirect []string
	props    []*engine.Property
	texts    map[string]string
	// checkOf maps a function with a contract to its contract's check
	// (engine/contract), its context; useOf maps a contract used as a
	// function to the function, bySuffix the names generated for a
	// contract to the function.
	checkOf, useOf, bySuffix map[string]string
}

// Load translates files (as engine.Load does) and again with a most
// general context appended for every function (harness.Attach), and
// returns the library over that program (New). A context that does not
// compile is left out (its function's properties are UNKNOWN with the
// compiler's message); other errors are the sources' own, as
// engine.Load reports them. prog, when not nil, is the files' program
// already translated with opts (it is not translated again).
func Load(opts engine.SourceOptions, files []string, prog *engine.Program, lo Options) (*Library, error) {
	srcs := make([]harness.File, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		srcs[i] = harness.File{Name: f, Content: string(b)}
	}
	load := func(fs []harness.File) (*engine.Program, error) {
		es := make([]engine.Source, len(fs))
		for i, f := range fs {
			es[i] = engine.Source{Name: f.Name, Content: f.Content}
		}
		return engine.LoadSources(opts, es)
	}
	prog0 := prog
	if prog0 == nil {
		var err error
		if prog0, err = load(srcs); err != nil {
			return nil, err
		}
	}
	if len(prog0.Funcs) == 0 {
		return nil, fmt.Errorf("%s: no function is defined", strings.Join(files, ", "))
	}
	read := func(name string) (string, bool) {
		b, err := os.ReadFile(name)
		return string(b), err == nil
	}
	a, err := harness.Attach(prog0, srcs, harness.Options{Depth: lo.Depth, Bound: lo.Bound}, read, load)
	if err != nil {
		return nil, err
	}
	return New(a), nil
}

// New returns the library over a program with its contexts attached
// (harness.Attach; diffslice attaches them to a revision's program).
func New(a *harness.Attached) *Library {
	l := &Library{Program: a.Program, contexts: a.Contexts, globals: a.Globals, texts: a.Texts}
	l.callers, l.roots, l.taken, l.indirect = callGraph(a.Program)
	l.checkOf, l.useOf, l.bySuffix = map[string]string{}, map[string]string{}, map[string]string{}
	for _, c := range contract.Find(a.Program) {
		l.checkOf[c.Func], l.useOf[c.Use()], l.bySuffix[c.Suffix] = c.Check(), c.Func, c.Func
		// a violation under the contract's check is the contract's:
		// its check is the function's API
		l.roots[c.Func] = true
	}
	any := a.AnyContext()
	if any == "" {
		any = a.Program.Funcs[0].Name
	}
	type site struct {
		pos  engine.Pos
		expr string
	}
	seen := map[site]bool{}
	for _, p := range engine.Properties(l.Program, any) {
		// a function defined in a header has one copy per unit that
		// includes it: its sites are verified once, in the first
		if s := (site{p.Pos, p.Expr}); !cfa.IsContext(p.Func) && !seen[s] {
			seen[s] = true
			l.props = append(l.props, p)
		}
	}
	return l
}

// callGraph returns the direct callers of each function, the roots
// (functions of external linkage that no function of the sources calls
// and whose address no function takes: the API) and the functions whose
// address is taken. A callback is not a root: whoever calls it through
// the pointer (often a library outside the sources, as a parser calls
// its handlers) holds its own preconditions, so a violation in its most
// general context needs a precondition, not a report.
func callGraph(p *engine.Program) (callers map[string][]string, roots, taken map[string]bool, indirect []string) {
	callers = map[string][]string{}
	seen := map[[2]string]bool{}
	ind := map[string]bool{}
	for _, e := range p.Edges {
		c, ok := e.Op.(*cfa.Call)
		if ok && c.Fn == "" && e.From.Func != p.Init && !cfa.IsContext(e.From.Func.Name) && !ind[e.From.Func.Name] {
			ind[e.From.Func.Name] = true
			indirect = append(indirect, e.From.Func.Name)
		}
		if !ok || c.Fn == "" || p.Func(c.Fn) == nil || e.From.Func == p.Init || cfa.IsContext(e.From.Func.Name) {
			continue
		}
		k := [2]string{c.Fn, e.From.Func.Name}
		if !seen[k] && c.Fn != e.From.Func.Name {
			seen[k] = true
			callers[c.Fn] = append(callers[c.Fn], e.From.Func.Name)
		}
	}
	roots, taken = map[string]bool{}, map[string]bool{}
	for _, n := range p.AddressTaken() {
		taken[n] = true
	}
	for _, f := range p.Funcs {
		if cfa.IsContext(f.Name) {
			continue
		}
		if len(callers[f.Name]) == 0 && !f.Static && !taken[f.Name] || f.Name == "main" {
			roots[f.Name] = true
		}
	}
	return callers, roots, taken, indirect
}

// entryOf returns the entry that verifies f's assertions in f's most
// general context, "" when f has none.
func (l *Library) entryOf(f string) string {
	if f == "main" || strings.HasPrefix(f, contract.CheckPrefix) {
		return f
	}
	if c := l.checkOf[f]; c != "" {
		return c
	}
	c := l.contexts[f]
	if c == nil || c.Limitation != "" {
		return ""
	}
	return c.Entry
}

// Sources are the source files as the library's program was translated
// from them (their contexts appended), by name: what a reproducer of a
// FALSE compiles instead of the files on disk.
func (l *Library) Sources() map[string]string { return l.texts }

// Properties are the assertion properties of the library, each once, in
// source order.
func (l *Library) Properties() []*engine.Property { return l.props }

// IsRoot reports whether f is a root (an API function): of external
// linkage, and no function of the sources calls it or takes its address.
func (l *Library) IsRoot(f string) bool { return l.roots[f] }

// assumptions are the assumptions of a verdict decided in f's context.
func (l *Library) assumptions(f string) []string {
	if f == "main" {
		return nil
	}
	if c := l.checkOf[f]; c != "" {
		f = c
	}
	if rest, ok := strings.CutPrefix(f, contract.CheckPrefix); ok {
		name := rest
		if g := l.bySuffix[rest]; g != "" {
			name = harness.SourceName(l.Program.Func(g))
		}
		return []string{"verified against the contract of " + name + ": its requires clauses assumed, the contracts of its callees used for their calls"}
	}
	c := l.contexts[f]
	if c == nil {
		return nil
	}
	out := []string{"verified in the most general context of " + harness.SourceName(l.Program.Func(f)) + " (no harness)"}
	out = append(out, c.Assumptions...)
	files := make([]string, 0, len(l.globals))
	for f := range l.globals {
		files = append(files, f)
	}
	sort.Strings(files)
	seen := map[string]bool{}
	for _, file := range files {
		for _, a := range l.globals[file] {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// maxUp bounds how many levels of callers a violation is re-verified in.
const maxUp = 6

// violated reports whether r, decided in a function's most general
// context, calls for the callers' contexts: a FALSE, or an UNKNOWN whose
// only error path needs undefined behaviour (a pointer the context
// leaves NULL, an index it leaves out of bounds).
func violated(r *engine.Result) bool {
	return r.Verdict == results.False || r.Verdict == results.Unknown && r.Cause != nil && r.Cause.Kind == results.CauseUndefined
}

// Verify verifies props (from Properties) in the contexts of their
// functions with cfg (cfg.Entry is set per context), in parallel as
// engine.Verify does within one context. A FALSE in the context of a
// function that is not a root, or an error path there that needs
// undefined behaviour, is re-verified in each caller's context, up to
// the roots: FALSE when a root's context violates it; TRUE when every
// caller's context satisfies it; otherwise UNKNOWN, needs a precondition
// (results.CausePrecondition), with the callers' verdicts in the
// reason. The re-verifications share the property's limit: each runs
// with what the earlier runs of the property left of cfg.Timeout. Each
// result's Assumptions list what its context assumed.
func (l *Library) Verify(ctx context.Context, props []*engine.Property, cfg engine.Config) ([]*engine.Result, error) {
	out := make([]*engine.Result, len(props))
	byHome := map[string][]int{}
	var homes []string
	for i, p := range props {
		h := l.home(p)
		if _, ok := byHome[h]; !ok {
			homes = append(homes, h)
		}
		byHome[h] = append(byHome[h], i)
	}
	onResult := cfg.OnResult
	cfg.OnResult = nil
	for _, h := range homes {
		idx := byHome[h]
		if f := l.useOf[h]; f != "" {
			// a requires clause, checked where f's callers call it
			for _, i := range idx {
				r := l.escalate(ctx, props[i], h, &engine.Result{Property: props[i], Verdict: results.False, Config: "library"}, cfg, map[string]bool{h: true}, 1)
				if r.Verdict == results.NotChecked {
					r.Reason = "no function of the sources calls " + harness.SourceName(l.Program.Func(f))
				}
				r.Property = props[i]
				out[i] = r
				if onResult != nil {
					onResult(r)
				}
			}
			continue
		}
		if l.entryOf(h) == "" {
			for _, i := range idx {
				out[i] = l.limitation(props[i], h)
				if onResult != nil {
					onResult(out[i])
				}
			}
			continue
		}
		ps := make([]*engine.Property, len(idx))
		for k, i := range idx {
			ps[k] = props[i]
		}
		rs, err := l.verifyIn(ctx, h, ps, cfg)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			r.Entry = l.entryOf(h)
		}
		for k, i := range idx {
			r := rs[k]
			switch {
			case violated(r) && props[i].Precondition && l.roots[h]:
				// CBMC's __CPROVER_precondition of an API function: a
				// check on its callers, which are outside the sources
				r = l.precondition(props[i], h, r, "none in the sources: it is a precondition of the API function")
			case violated(r) && !l.roots[h]:
				left := cfg
				left.Timeout -= seconds(r.Seconds)
				r = l.escalate(ctx, props[i], h, r, left, map[string]bool{h: true}, 1)
			case r.Verdict == results.Unknown && violated(r):
				r = l.precondition(props[i], h, r, "")
			default:
				r.Assumptions = append(l.assumptions(h), r.Assumptions...)
				if r.Verdict == results.False && h != props[i].Func {
					// an assigns clause's check in a function the
					// contracted one calls
					r.Reason = fmt.Sprintf("violated when the contract check of %s runs (the write is in %s): %s", harness.SourceName(l.Program.Func(h)), harness.SourceName(l.Program.Func(props[i].Func)), r.Reason)
				}
			}
			r.Property = props[i]
			out[i] = r
			if onResult != nil {
				onResult(r)
			}
		}
	}
	return out, nil
}

// home is the function whose context verifies p: p's own, but for an
// assigns clause's check, which is its contract's check's.
func (l *Library) home(p *engine.Property) string {
	if rest, ok := strings.CutPrefix(p.Expr, "assigns clause of "); ok {
		if i := strings.Index(rest, ":"); i > 0 && l.bySuffix[rest[:i]] != "" {
			return l.bySuffix[rest[:i]]
		}
	}
	return p.Func
}

// seconds converts a result's seconds into a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// verifyIn verifies props in the most general context of f.
func (l *Library) verifyIn(ctx context.Context, f string, props []*engine.Property, cfg engine.Config) ([]*engine.Result, error) {
	c := cfg
	c.Entry = l.entryOf(f)
	reach := engine.ReachableFuncs(l.Program, c.Entry)
	ps := make([]*engine.Property, len(props))
	for k, p := range props {
		q := *p
		q.Reachable = reach[q.Func]
		ps[k] = &q
	}
	return engine.Verify(ctx, l.Program, ps, c)
}

// limitation is the UNKNOWN of a property whose function has no context.
func (l *Library) limitation(p *engine.Property, f string) *engine.Result {
	why := "no most general context"
	if c := l.contexts[f]; c != nil {
		why = c.Limitation
	}
	r := &engine.Result{Property: p, Verdict: results.Unknown, Config: "library"}
	r.SetUnknown(&results.Cause{Kind: results.CauseUnsupported}, fmt.Sprintf("library: %s has no most general context: %s", harness.SourceName(l.Program.Func(f)), why))
	return r
}

// precondition is the UNKNOWN of a property that f's most general context
// violates (inner) in a way no root was shown to: f needs a
// precondition. callers, when not "", says what f's callers' contexts
// gave.
func (l *Library) precondition(p *engine.Property, f string, inner *engine.Result, callers string) *engine.Result {
	fname := harness.SourceName(l.Program.Func(f))
	out := &engine.Result{Property: p, Config: inner.Config, Seconds: inner.Seconds, States: inner.States}
	how := "violated in its most general context"
	if inner.Verdict == results.Unknown {
		how = "its most general context reaches the assertion only through undefined behaviour (" + inner.Cause.Sentence() + ")"
	}
	detail := how
	if len(inner.FailureValues) > 0 {
		var vs []string
		for _, v := range inner.FailureValues {
			vs = append(vs, fmt.Sprintf("%s = %d", v.Expr, v.Value))
		}
		detail += " with " + strings.Join(vs, ", ")
	}
	if callers != "" {
		detail += "; in its callers' contexts: " + callers
	}
	if line := l.requires(p, f); line != "" {
		detail += "; to state the precondition: " + line
	}
	out.SetUnknown(&results.Cause{Kind: results.CausePrecondition, Names: []string{fname}}, detail)
	out.Inputs, out.Counterexample = inner.Inputs, inner.Counterexample
	out.Assumptions = l.assumptions(f)
	return out
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// requires returns the line that states the precondition p needs of f
// when p's expression reads only f's parameters (and constants): a
// contract clause of f (the contracts of CBMC), or "" when the
// expression reads anything else.
func (l *Library) requires(p *engine.Property, f string) string {
	fn := l.Program.Func(f)
	if fn == nil || p.Expr == "" {
		return ""
	}
	params := map[string]bool{}
	for _, v := range fn.Params {
		params[v.Orig] = true
	}
	uses := false
	for _, id := range identRE.FindAllString(p.Expr, -1) {
		switch {
		case params[id]:
			uses = true
		case id == "sizeof" || strings.ToUpper(id) == id: // macros and constants
		default:
			return ""
		}
	}
	if !uses {
		return ""
	}
	return fmt.Sprintf("__CPROVER_requires(%s) on %s, or check it in its callers", p.Expr, harness.SourceName(fn))
}

// escalate re-verifies the property p, violated in the most general
// context of f (result inner), in the contexts of f's callers, with
// cfg.Timeout what is left of the property's limit.
func (l *Library) escalate(ctx context.Context, p *engine.Property, f string, inner *engine.Result, cfg engine.Config, seen map[string]bool, depth int) *engine.Result {
	fname := harness.SourceName(l.Program.Func(f))
	callers := l.callers[f]
	if l.taken[f] {
		// a callback: called through pointers, by the functions of the
		// sources that call through one (whose contexts choose it among
		// the functions of its type), or by code outside
		for _, g := range l.indirect {
			if !slices.Contains(callers, g) {
				callers = append(callers, g)
			}
		}
		if len(callers) == 0 {
			out := l.precondition(p, f, inner, "none in the sources: it is called through a function pointer")
			out.Seconds = inner.Seconds
			return out
		}
	}
	if len(callers) == 0 {
		out := &engine.Result{Property: p, Verdict: results.NotChecked, Config: inner.Config, Reason: fmt.Sprintf("%s is static, and no function calls it or takes its address", fname)}
		out.Cause = &results.Cause{Kind: results.CauseNotReachable}
		return out
	}
	var notes []string
	allTrue := true
	spent := inner.Seconds
	for _, g := range callers {
		gname := harness.SourceName(l.Program.Func(g))
		if seen[g] {
			allTrue = false
			notes = append(notes, gname+": recursive")
			continue
		}
		if l.entryOf(g) == "" {
			allTrue = false
			notes = append(notes, gname+": no context")
			continue
		}
		if !engine.ReachableFuncs(l.Program, l.entryOf(g))[p.Func] {
			continue // g's call of f is dead
		}
		if cfg.Timeout <= 0 {
			allTrue = false
			notes = append(notes, gname+": no time left of the property's limit")
			continue
		}
		rs, err := l.verifyIn(ctx, g, []*engine.Property{p}, cfg)
		if err != nil {
			allTrue = false
			notes = append(notes, gname+": "+err.Error())
			continue
		}
		r := rs[0]
		r.Entry = l.entryOf(g)
		cfg.Timeout -= seconds(r.Seconds)
		spent += r.Seconds
		switch {
		case r.Verdict == results.False && l.roots[g]:
			r.Property = p
			r.Assumptions = append(l.assumptions(g), r.Assumptions...)
			r.Reason = fmt.Sprintf("violated when the API function %s is called (the assertion is in %s): %s", gname, fname, r.Reason)
			r.Seconds = spent
			return r
		case violated(r) && !l.roots[g] && depth < maxUp:
			s := map[string]bool{g: true}
			for k := range seen {
				s[k] = true
			}
			up := l.escalate(ctx, p, g, r, cfg, s, depth+1)
			cfg.Timeout -= seconds(up.Seconds - r.Seconds)
			spent += up.Seconds - r.Seconds
			if up.Verdict == results.False {
				up.Seconds = spent
				return up
			}
			if up.Verdict != results.True {
				allTrue = false
				notes = append(notes, gname+": "+up.Cause.Sentence())
			}
		case r.Verdict == results.True:
			notes = append(notes, gname+": TRUE")
		default:
			allTrue = false
			why := r.Cause.Sentence()
			if why == "" {
				why = r.Reason
			}
			notes = append(notes, fmt.Sprintf("%s: %s (%s)", gname, r.Verdict, why))
		}
	}
	if allTrue && l.taken[f] {
		// a callback may also be called from outside the sources (its
		// address may reach a function without a body): the callers
		// here do not cover every call
		allTrue = false
		notes = append(notes, "and callers outside the sources through its address")
	}
	if allTrue {
		out := &engine.Result{Property: p, Verdict: results.True, Config: inner.Config, Seconds: spent, States: inner.States}
		out.Reason = fmt.Sprintf("proved in the contexts of every caller of %s (%s)", fname, strings.Join(notes, "; "))
		if g := l.useOf[f]; g != "" {
			out.Reason = fmt.Sprintf("every call of %s satisfies it (%s)", harness.SourceName(l.Program.Func(g)), strings.Join(notes, "; "))
			out.Assumptions = []string{"checked at every call of " + harness.SourceName(l.Program.Func(g)) + " in the sources, in its caller's context"}
			return out
		}
		as := l.assumptions(f)
		if len(as) > 0 {
			as = as[1:]
		}
		out.Assumptions = append([]string{fmt.Sprintf("%s's most general context violates it; every caller's context satisfies it", fname)}, as...)
		return out
	}
	out := l.precondition(p, f, inner, strings.Join(notes, "; "))
	out.Seconds = spent
	return out
}
