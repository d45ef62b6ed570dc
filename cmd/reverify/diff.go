package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reverify/reverify/diffslice"
	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/proofs"
	"github.com/reverify/reverify/solverproc"
)

// revFlags select the base and head revisions and the verdict cache
// (reverify diff, reverify check --base).
type revFlags struct {
	base, head       string
	baseDir, headDir string
	repo             string
	cacheDir         string
	sources          listFlag
}

func (r *revFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.base, "base", "", "base revision (a git commit, branch or tag of --repo)")
	fs.StringVar(&r.head, "head", "", "head revision (default: the working tree of --repo)")
	fs.StringVar(&r.baseDir, "base-dir", "", "base revision as a plain directory (instead of --base)")
	fs.StringVar(&r.headDir, "head-dir", "", "head revision as a plain directory (instead of --head)")
	fs.StringVar(&r.repo, "repo", ".", "the git repository")
	fs.StringVar(&r.cacheDir, "cache", "", "verdict cache directory (default: REPO/"+diffslice.DefaultCacheDir+")")
	fs.Var(&r.sources, "sources", "glob or directory of C sources relative to the repository (repeatable; a directory: every .c and .i file under it; default: .reverify.yml, compile_commands.json, or **/*.c and **/*.i)")
}

// active reports whether a base revision was given.
func (r *revFlags) active() bool { return r.base != "" || r.baseDir != "" }

// runSettings are the flags of check that diff shares, and the engine
// settings of check that reach the engine in both of its modes (from
// files, and with --base).
type runSettings struct {
	entry, config string
	timeout       time.Duration
	maxStates     int
	assumePure    []string        // --assume-pure
	memory        uint64          // --memory in bytes (0: the engine's default)
	jobs          int             // --jobs (0: every CPU)
	set           map[string]bool // flags given explicitly
	// clock is what timeout measures: "wall" ("" too) or "cpu".
	clock string
	// overflow, slicingCriterion and precisionScope are check's
	// --signed-overflow, --slicing-criterion and --precision-scope ("":
	// the engine's default).
	overflow         engine.OverflowMode
	slicingCriterion engine.SlicingCriterion
	precisionScope   engine.PrecisionScope
	// reduce is check's --reduce ("": none).
	reduce string
	// initial is the precision of --initial-precision, by property ID.
	initial map[string]engine.Precision
	keepARG bool
	multi   string // --multi-property (engine.Config.MultiProperty)
	scope   bool   // --scope (engine.Config.Scope)
	// noListAbstraction is --no-list-abstraction
	// (engine.Config.NoListAbstraction).
	noListAbstraction bool
	// unwind is --unwind (engine.Config.Unwind; 0: bmc's growing bounds).
	unwind int
	// unwindset is --unwindset (engine.Config.Unwindset).
	unwindset map[string]int
	// memSafety adds the whole-program memory-safety property of each
	// entry (--properties and the Action input properties with memory);
	// with --base it is verified anew every run, never cached.
	memSafety bool
}

// engineConfig is the engine configuration of a run with configuration
// name, entry and timeout (the effective ones: flags, .reverify.yml).
func (s runSettings) engineConfig(name, entry string, timeout time.Duration) engine.Config {
	memory := int64(s.memory)
	if memory == 0 {
		memory = int64(engine.DefaultMemoryLimit)
	}
	return engine.Config{
		Name: name, Entry: entry, Timeout: timeout, MaxStates: s.maxStates, Solver: z3.Factory, Horn: solverproc.Horn{Memory: memory},
		// bmc's one-shot checks of large unrollings run in solver
		// processes, killed at the deadline and bounded in memory.
		OneShot: solverproc.OneShot(memory, solverproc.DefaultThreshold, z3.OneShotFactory),
		KeepARG: s.keepARG, KeepShape: s.keepARG, SignedOverflow: s.overflow, InitialPrecision: s.initial,
		SlicingCriterion: s.slicingCriterion, PrecisionScope: s.precisionScope, Reduce: s.reduce,
		Clock: clockFunc(s.clock), Workers: workers(s.clock, s.jobs), AssumePure: s.assumePure,
		MemoryLimit: s.memory, MultiProperty: s.multi, Scope: s.scope, NoListAbstraction: s.noListAbstraction,
		Unwind: s.unwind, Unwindset: s.unwindset, ReleaseNative: z3.TrimHeap,
	}
}

// parseUnwindset reads --unwindset: CBMC's LOOP:N entries separated by
// commas or blanks (proofs.ParseUnwind); "" is none.
func parseUnwindset(s string) (map[string]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	out := map[string]int{}
	for _, w := range strings.Fields(strings.ReplaceAll(s, ",", " ")) {
		id, n, ok := proofs.ParseUnwind(w)
		if !ok {
			return nil, fmt.Errorf("%q is not LOOP:N (a CBMC loop id such as main.0, and a bound)", w)
		}
		out[id] = n
	}
	return out, nil
}

// observeEngineConfig, when not nil, sees every engine configuration
// check and action run with, and the diffslice options with --base (nil
// otherwise). Tests set it.
var observeEngineConfig func(cfg engine.Config, opts *diffslice.Options)

func observe(cfg engine.Config, opts *diffslice.Options) {
	if observeEngineConfig != nil {
		observeEngineConfig(cfg, opts)
	}
}

// variant names the settings besides the configuration that a cached
// verdict depends on (diffslice.Options.Variant): the non-default ones.
func (s runSettings) variant() string {
	var v []string
	if s.overflow != "" && s.overflow != engine.WrapOverflow {
		v = append(v, "signed-overflow "+string(s.overflow))
	}
	if s.slicingCriterion.String() != "path" {
		v = append(v, "slicing-criterion "+s.slicingCriterion.String())
	}
	if s.precisionScope.String() != "" {
		v = append(v, "precision-scope "+s.precisionScope.String())
	}
	if s.reduce != "" && s.reduce != "none" {
		v = append(v, "reduce "+s.reduce)
	}
	if s.unwind > 0 {
		v = append(v, fmt.Sprintf("unwind %d", s.unwind))
	}
	if len(s.unwindset) > 0 {
		v = append(v, "unwindset "+unwindsetText(s.unwindset))
	}
	return strings.Join(v, ", ")
}

// unwindsetText is an unwindset as CBMC writes it, sorted: "f.0:3,g.1:5".
func unwindsetText(u map[string]int) string {
	var ids []string
	for id, n := range u {
		ids = append(ids, fmt.Sprintf("%s:%d", id, n))
	}
	sort.Strings(ids)
	return strings.Join(ids, ",")
}

// planOptions are the diffslice options of a run under cfg.
func (s runSettings) planOptions(cfg engine.Config) diffslice.Options {
	l := diffslice.LimitsOf(cfg)
	if s.clock == "cpu" {
		l.Clock = "cpu"
	}
	return diffslice.Options{EngineVersion: version, Config: cfg.Name, Entry: cfg.Entry, Limits: l, Variant: s.variant()}
}

// sourceConfig turns the explicitly given flags into a SourceConfig (the
// rest comes from the repository's files).
func (r *revFlags) sourceConfig(ff *frontendFlags, s runSettings) (diffslice.SourceConfig, error) {
	fc, err := ff.config()
	if err != nil {
		return diffslice.SourceConfig{}, err
	}
	if ff.mallocMayFail {
		return diffslice.SourceConfig{}, fmt.Errorf("--malloc-may-fail: not with revisions (--base), whose malloc model is the repository's")
	}
	sc := diffslice.SourceConfig{Sources: r.sources, Include: ff.includes}
	if len(fc.Defines) > 0 {
		sc.Defines = fc.Defines
	}
	if s.set["data-model"] {
		sc.DataModel = fc.DataModel.String()
	}
	if s.set["entry"] {
		sc.Entry = s.entry
	}
	if s.set["config"] {
		sc.Config = s.config
	}
	if s.set["timeout"] {
		sc.Timeout = s.timeout
	}
	if s.set["assume-pure"] {
		sc.AssumePure = s.assumePure
	}
	if s.set["frontend"] {
		sc.Frontend = ff.frontend
	}
	return sc, nil
}

// load reads the base and head revisions.
func (r *revFlags) load(sc diffslice.SourceConfig) (base, head *diffslice.Revision, err error) {
	if r.base != "" && r.baseDir != "" || r.head != "" && r.headDir != "" {
		return nil, nil, fmt.Errorf("give a revision or a directory, not both")
	}
	if r.baseDir != "" {
		base, err = diffslice.LoadRevision(r.baseDir, "", sc)
	} else {
		// A base verified before as a head is not translated again.
		base, err = r.cache().LoadBase(r.repo, r.base, sc, version)
	}
	if err != nil {
		return nil, nil, err
	}
	switch {
	case r.headDir != "":
		head, err = diffslice.LoadRevision(r.headDir, "", sc)
	default:
		head, err = diffslice.LoadRevision(r.repo, r.head, sc) // "" is the working tree
	}
	return base, head, err
}

func (r *revFlags) cache() *diffslice.Cache {
	dir := r.cacheDir
	if dir == "" {
		root := r.repo
		if r.headDir != "" {
			root = r.headDir
		}
		dir = filepath.Join(root, filepath.FromSlash(diffslice.DefaultCacheDir))
	}
	return &diffslice.Cache{Dir: dir}
}

// plan loads both revisions and decides what to re-verify.
func (r *revFlags) plan(ff *frontendFlags, s runSettings, stderr io.Writer) (*diffslice.Plan, engine.Config, error) {
	sc, err := r.sourceConfig(ff, s)
	if err != nil {
		return nil, engine.Config{}, err
	}
	phase := s.watchPhase("loading the revisions", stderr)
	base, head, err := r.load(sc)
	phase.Stop()
	if err != nil {
		return nil, engine.Config{}, err
	}
	hc := head.Config
	timeout := s.timeout
	if !s.set["timeout"] && hc.Timeout > 0 {
		timeout = hc.Timeout
	}
	cfg := s.engineConfig(hc.Config, hc.Entry, timeout)
	cfg.AssumePure = hc.AssumePure
	if cfg.Entry != diffslice.AutoEntry && head.Program.Func(cfg.Entry) == nil {
		return nil, cfg, fmt.Errorf("entry function %q is not defined in %s (entry from %s)", cfg.Entry, head.Label(), hc.Origin("entry"))
	}
	p := diffslice.NewPlan(base, head, r.cache(), s.planOptions(cfg))
	return p, cfg, nil
}

func explicitFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// runDiff implements `reverify diff --base REV [--head REV] [--repo DIR]`:
// the changed definitions and, per property, whether it is re-verified
// and why.
func runDiff(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("diff", stderr)
	var ff frontendFlags
	ff.register(fs)
	var rf revFlags
	rf.register(fs)
	entry := fs.String("entry", "main", "entry function (default: .reverify.yml's, else main)")
	config := fs.String("config", "default", "configuration: "+strings.Join(engine.ConfigNames(), ", "))
	timeout := fs.Duration("timeout", 60*time.Second, "time limit per property (a cached UNKNOWN is reused only under the same limits)")
	maxStates := fs.Int("max-states", 0, "state limit per analysis run (0: engine default)")
	jsonOut := fs.String("json", "", "also write the plan as JSON to this file")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify diff: "+format+"\n", a...)
		return 2
	}
	if err := checkLimits(fs); err != nil {
		return fail("%v", err)
	}
	if len(pos) > 0 {
		return fail("unexpected arguments %s (sources come from --sources, .reverify.yml or compile_commands.json)", strings.Join(pos, " "))
	}
	if !rf.active() {
		return fail("no base revision (--base REV or --base-dir DIR)")
	}
	p, _, err := rf.plan(&ff, runSettings{entry: *entry, config: *config, timeout: *timeout, maxStates: *maxStates, set: explicitFlags(fs)}, stderr)
	if err != nil {
		return fail("%v", err)
	}
	printPlan(stdout, p)
	if *jsonOut != "" {
		data, err := json.MarshalIndent(p.JSON(), "", "  ")
		if err == nil {
			err = os.WriteFile(*jsonOut, append(data, '\n'), 0o644)
		}
		if err != nil {
			return fail("%v", err)
		}
	}
	return 0
}

// printPlan prints the changed definitions and the decisions.
func printPlan(w io.Writer, p *diffslice.Plan) {
	fmt.Fprintf(w, "base %s, head %s\n", revName(p.Base), revName(p.Head))
	if p.DiffErr != nil {
		fmt.Fprintf(w, "warning: no line diff: %v\n", p.DiffErr)
	}
	fmt.Fprintf(w, "\nchanged definitions (%d):\n", len(p.Changes))
	for _, c := range p.Changes {
		line := "  " + c.String()
		if len(c.Hunks) > 0 {
			var hs []string
			for _, h := range c.Hunks {
				hs = append(hs, hunkLines(h))
			}
			line += "  [diff " + strings.Join(hs, ", ") + "]"
		}
		fmt.Fprintln(w, line)
	}
	if len(p.Cosmetic) > 0 {
		var hs []string
		for _, h := range p.Cosmetic {
			hs = append(hs, hunkLines(h))
		}
		fmt.Fprintf(w, "edits that change no definition (%d): %s\n", len(p.Cosmetic), strings.Join(hs, ", "))
	}
	fmt.Fprintf(w, "\n%s\n", p.Summary())
	for _, d := range p.Decisions {
		pos := d.Property.Pos
		if d.Reverify {
			fmt.Fprintf(w, "  RECHECK %s:%d:%d  %s\n", pos.File, pos.Line, pos.Col, d.Property.ID)
			for _, r := range d.Reasons {
				fmt.Fprintf(w, "          because %s\n", r)
			}
			if d.PrecisionFrom != "" {
				fmt.Fprintf(w, "          starting from %d precision entries of the %s\n", len(d.InitialPrecision), d.PrecisionFrom)
			}
			continue
		}
		fmt.Fprintf(w, "  reuse   %s:%d:%d  %s  %s (slice %.12s)\n", pos.File, pos.Line, pos.Col, d.Property.ID, d.Cached.Verdict, d.SliceHash)
		if d.RenamedFrom != "" {
			fmt.Fprintf(w, "          the verdict of %s: the same slice once renamed functions take their old names\n", d.RenamedFrom)
		} else if len(d.Hits) > 0 {
			var hs []string
			for _, h := range d.Hits {
				hs = append(hs, h.Reason())
			}
			fmt.Fprintf(w, "          its slice holds changes (%s), and this slice was verified before\n", strings.Join(hs, "; "))
		}
	}
}

func revName(r *diffslice.Revision) string {
	if r == nil {
		return "(none)"
	}
	if r.Commit != "" && r.Commit != r.Rev {
		return fmt.Sprintf("%s (%.12s)", r.Rev, r.Commit)
	}
	return r.Label()
}

// hunkLines renders a hunk as file:lines of the head ("src/a.c:12-14"),
// or of the base for deletions.
func hunkLines(h diffslice.Hunk) string {
	f, start, n := h.NewFile, h.NewStart, h.NewCount
	if n == 0 {
		if h.OldFile != "" {
			return fmt.Sprintf("%s:%d deleted", h.OldFile, h.OldStart)
		}
	}
	if f == "" {
		f, start, n = h.OldFile, h.OldStart, h.OldCount
	}
	if n <= 1 {
		return fmt.Sprintf("%s:%d", f, start)
	}
	return fmt.Sprintf("%s:%d-%d", f, start, start+n-1)
}

// checkOptions are check's flags that the incremental check uses.
type checkOptions struct {
	runSettings
	jsonOut, outDir string
	// phase is the watch over the work before verification
	// (watchPhase), stopped where the properties' limits begin; nil: none.
	phase *engine.PhaseWatch
}

// headFiles returns the head's sources as paths on disk (for witnesses
// and reproducers): in its directory, or written below outDir/sources
// when the revision exists only in git.
func headFiles(head *diffslice.Revision, outDir string) ([]string, error) {
	dir := head.Dir
	if dir == "" {
		dir = filepath.Join(outDir, "sources")
		if err := head.Materialize(dir); err != nil {
			return nil, err
		}
	}
	var files []string
	for _, f := range head.Files {
		files = append(files, filepath.Join(dir, filepath.FromSlash(f)))
	}
	return files, nil
}
