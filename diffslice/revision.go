package diffslice

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/reverify/reverify/clangir"
	"github.com/reverify/reverify/engine"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/harness"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/spec"
)

// Revision is one version of the code base: its files, the effective
// source configuration, and the translated program with its definitions.
type Revision struct {
	// Repo is the repository (or plain directory) on disk.
	Repo string
	// Rev is the revision as given; "" for the working tree or a directory.
	Rev string
	// Commit is the full commit hash; "" for a working tree or directory.
	Commit string
	// Dir is the directory holding the files on disk (the working tree or
	// the directory), or "" when they exist only in git (see Materialize).
	Dir string
	// Config is the effective source configuration (flags, .reverify.yml,
	// compile_commands.json and defaults merged).
	Config SourceConfig
	// Files are the translated C sources, repository-relative, sorted.
	Files []string
	// Contents holds every loaded file (sources and headers) by
	// repository-relative path.
	Contents map[string]string
	// Program is the translated program; its positions name files by
	// their repository-relative paths.
	Program *cfa.Program
	// Defs are the definitions of the sources (Program.Defs without the
	// contexts of library mode).
	Defs []cfa.Definition
	// Attached, with entry AutoEntry, holds the most general context of
	// each function that Program has appended (library mode,
	// engine/harness); nil otherwise.
	Attached *harness.Attached

	flags   SourceConfig // the configuration given to LoadRevision
	summary *revSummary  // set when loaded from the cache (no Program)

	mu    sync.Mutex
	sdg   *pdg.SDG
	props []*spec.Property
	lines map[string][]string
}

// Label names the revision in messages: the revision as given, or the
// directory.
func (r *Revision) Label() string {
	if r.Rev != "" {
		return r.Rev
	}
	if r.Dir != "" {
		return r.Dir + " (working tree)"
	}
	return r.Repo
}

// headerExts are the files loaded besides the sources: anything a source
// may include.
var headerExts = map[string]bool{".h": true, ".inc": true, ".def": true}

// LoadRevision reads revision rev of the git repository repo, or, when
// rev is "", the files of the directory repo as they are on disk (a
// working tree or any directory). cfg holds the settings given on the
// command line; the rest comes from the revision's .reverify.yml, its
// compile_commands.json, and defaults. The C sources (and every header)
// are translated into one program whose positions name files by their
// paths relative to the repository root.
func LoadRevision(repo, rev string, cfg SourceConfig) (*Revision, error) {
	r := &Revision{Repo: repo, Rev: rev, flags: cfg}
	files := map[string][]byte{} // loaded lazily for commits
	var names []string
	var read func(names []string) error
	if rev == "" {
		st, err := os.Stat(repo)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is not a directory", repo)
		}
		r.Dir = repo
		err = filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != repo && (d.Name() == ".git" || d.Name() == ".reverify") {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(repo, p)
			if err != nil {
				return err
			}
			names = append(names, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, err
		}
		read = func(want []string) error {
			for _, n := range want {
				b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(n)))
				if err != nil {
					return err
				}
				files[n] = b
			}
			return nil
		}
	} else {
		commit, err := resolveCommit(repo, rev)
		if err != nil {
			return nil, err
		}
		r.Commit = commit
		entries, err := lsTree(repo, commit)
		if err != nil {
			return nil, err
		}
		sha := map[string]string{}
		for _, e := range entries {
			names = append(names, e.path)
			sha[e.path] = e.sha
		}
		read = func(want []string) error {
			var shas []string
			for _, n := range want {
				shas = append(shas, sha[n])
			}
			blobs, err := catBlobs(repo, shas)
			if err != nil {
				return err
			}
			for _, n := range want {
				files[n] = blobs[sha[n]]
			}
			return nil
		}
	}
	sort.Strings(names)
	tree := map[string]bool{}
	for _, n := range names {
		tree[n] = true
		for d := path.Dir(n); d != "."; d = path.Dir(d) {
			tree[d+"/"] = true
		}
	}
	at := ""
	if rev != "" {
		at = " at " + rev
	}

	// Configuration: flags, then .reverify.yml, then compile_commands.json.
	cfg.flagged()
	if tree[ConfigFile] {
		if err := read([]string{ConfigFile}); err != nil {
			return nil, err
		}
		fc, err := ParseConfig(ConfigFile+at, files[ConfigFile])
		if err != nil {
			return nil, err
		}
		cfg.merge(fc, ConfigFile)
	}
	if cc := cfg.CompileCommands; cc != "" && !tree[cc] {
		// Named explicitly: a missing one is an error, never ignored.
		if _, err := os.Stat(filepath.Join(repo, filepath.FromSlash(cc))); err != nil {
			return nil, fmt.Errorf("compile-commands %s: no such file in the repository%s or in %s", cc, at, repo)
		}
	}
	if len(cfg.Sources) == 0 {
		cc := cfg.CompileCommands
		if cc == "" {
			cc = CompileCommandsFile
		}
		var data []byte
		switch {
		case tree[cc]:
			if err := read([]string{cc}); err != nil {
				return nil, err
			}
			data = files[cc]
		default:
			// Compilation databases are usually generated, not committed:
			// also look in the repository's directory on disk.
			if b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(cc))); err == nil {
				data = b
			} else if cfg.CompileCommands != "" {
				return nil, fmt.Errorf("%s%s: not found", cc, at)
			}
		}
		if data != nil {
			root, _ := filepath.Abs(repo)
			dc, err := parseCompileCommands(cc+at, data, root, tree)
			if err != nil {
				return nil, err
			}
			if len(dc.Sources) == 0 {
				return nil, fmt.Errorf("%s%s: no entry names a file of the repository", cc, at)
			}
			cfg.merge(dc, CompileCommandsFile)
		}
	}
	cfg.defaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	r.Config = cfg

	// Sources and headers.
	var load []string
	for _, n := range names {
		src := false
		for _, g := range cfg.Sources {
			if sourceMatch(g, n) {
				src = true
				break
			}
		}
		if ext := path.Ext(n); src && (ext == ".c" || ext == ".i") {
			r.Files = append(r.Files, n)
			load = append(load, n)
		} else if headerExts[path.Ext(n)] {
			load = append(load, n)
		}
	}
	if kept := dropPreprocessedTwins(r.Files, cfg.Origin("sources") == "default"); len(kept) < len(r.Files) {
		keep := map[string]bool{}
		for _, f := range kept {
			keep[f] = true
		}
		var l []string
		for _, n := range load {
			if keep[n] || path.Ext(n) != ".i" {
				l = append(l, n)
			}
		}
		r.Files, load = kept, l
	}
	if len(r.Files) == 0 {
		return nil, fmt.Errorf("%s %s: no C source file (.c or .i) matches%s", sourcesOrigin(cfg.Origin("sources")), strings.Join(cfg.Sources, " "), at)
	}
	if err := read(load); err != nil {
		return nil, err
	}
	r.Contents = map[string]string{}
	var srcs, hdrs []frontend.Source
	for _, n := range load {
		r.Contents[n] = string(files[n])
	}
	isSrc := map[string]bool{}
	for _, n := range r.Files {
		isSrc[n] = true
		srcs = append(srcs, frontend.Source{Name: n, Content: r.Contents[n]})
	}
	for _, n := range load {
		if !isSrc[n] {
			hdrs = append(hdrs, frontend.Source{Name: n, Content: r.Contents[n]})
		}
	}
	var prog *cfa.Program
	var err error
	if r.Config.Frontend == "clang" {
		prog, err = r.translateClang(load)
	} else {
		prog, err = frontend.TranslateSources(r.frontendConfig(), append(srcs, hdrs...))
	}
	if err != nil {
		if rev != "" {
			return nil, fmt.Errorf("translating %s:\n%v", rev, err)
		}
		return nil, err
	}
	r.Defs = prog.Defs
	if r.Config.Entry == "main" && r.Config.Origin("entry") == "default" && prog.Func("main") == nil {
		// A library: no main, no entry configured.
		r.Config.Entry = AutoEntry
		r.Config.setOrigin("entry", "default: no main")
	}
	if r.Config.Entry == AutoEntry && r.Config.Frontend == "clang" {
		return nil, fmt.Errorf("%s: frontend clang: library mode (entry auto, or sources without main) reads C with the built-in front end only; set an entry function or frontend cc", r.Label())
	}
	if r.Config.Entry == AutoEntry {
		load := func(fs []harness.File) (*cfa.Program, error) {
			all := make([]frontend.Source, 0, len(fs)+len(hdrs))
			for _, f := range fs {
				all = append(all, frontend.Source{Name: f.Name, Content: f.Content})
			}
			return frontend.TranslateSources(r.frontendConfig(), append(all, hdrs...))
		}
		files := make([]harness.File, len(srcs))
		for i, s := range srcs {
			files[i] = harness.File{Name: s.Name, Content: s.Content}
		}
		read := func(name string) (string, bool) {
			text, ok := r.Contents[name]
			return text, ok
		}
		a, err := harness.Attach(prog, files, harness.Options{}, read, load)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.Label(), err)
		}
		r.Attached, prog = a, a.Program
	}
	engine.SetAssumePure(prog, r.Config.AssumePure)
	r.Program = prog
	return r, nil
}

// translateClang translates the revision through clang and the LLVM
// front end (SourceConfig.Frontend "clang"): the loaded files (sources
// and headers) are written under their repository paths into a
// temporary directory, the sources compiled there (clang runs in it,
// with repository paths) with the revision's
// include directories, defines and data model (clangir.CompileC), and
// the IR translated with positions named by repository paths
// (engine.LoadIRNamed). The definitions are the IR's (llvmir: functions
// and globals fingerprinted by their IR text). Errors: a file's write,
// clang's diagnostics, the LLVM front end's errors.
func (r *Revision) translateClang(load []string) (*cfa.Program, error) {
	dir, err := os.MkdirTemp("", "reverify-revision-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	names := map[string]string{}
	for _, n := range load {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(r.Contents[n]), 0o644); err != nil {
			return nil, err
		}
		names[p] = n
	}
	// clang runs in the copy, given repository paths: __FILE__ (and
	// so the IR of assertions) is the same in every copy
	var srcs []string
	for _, n := range r.Files {
		srcs = append(srcs, filepath.FromSlash(n))
	}
	opts := engine.ClangOptions{DataModel: r.Config.model(), Defines: r.Config.Defines}
	for _, d := range r.Config.Include {
		opts.IncludeDirs = append(opts.IncludeDirs, filepath.FromSlash(path.Clean(d)))
	}
	text, err := clangir.CompileCIn(dir, opts, srcs...)
	if err != nil {
		// clang names the temporary copies: name the repository's files
		msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
		return nil, errors.New(msg)
	}
	return engine.LoadIRNamed(engine.SourceOptions{DataModel: r.Config.model()}, "linked.ll", text, names, r.Files...)
}

// frontendConfig is the translation configuration of the revision.
func (r *Revision) frontendConfig() frontend.Options {
	var inc []string
	for _, d := range r.Config.Include {
		inc = append(inc, path.Clean(filepath.ToSlash(d)))
	}
	defs := map[string]string{}
	for k, v := range r.Config.Defines {
		defs[k] = v
	}
	return frontend.Options{DataModel: r.Config.model(), IncludeDirs: inc, Defines: defs}
}

// Properties returns the assertion sites of the program (spec.Properties
// from the configured entry function), computed once; none for a
// revision loaded from a summary.
func (r *Revision) Properties() []*spec.Property {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.props == nil && r.Program != nil {
		r.props = r.properties(r.Config.Entry)
	}
	return r.props
}

// AutoEntry is the entry of library mode: every function in its most
// general context (engine/harness, package library).
const AutoEntry = "auto"

// properties lists the assertion sites of the program from entry; with
// AutoEntry every site once, where the sources put it (no context
// function's).
func (r *Revision) properties(entry string) []*spec.Property {
	if entry != AutoEntry || r.Attached == nil {
		return spec.Properties(r.Program, entry)
	}
	from := r.Attached.AnyContext()
	if from == "" {
		from = r.Program.Funcs[0].Name
	}
	var out []*spec.Property
	for _, p := range spec.Properties(r.Program, from) {
		if !cfa.IsContext(p.Func) {
			out = append(out, p)
		}
	}
	return out
}

// SDG returns the system dependence graph of the program, built once
// (nil for a revision loaded from a summary).
func (r *Revision) SDG() *pdg.SDG {
	if r.Program == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sdg == nil {
		r.sdg = pdg.Build(r.Program)
	}
	return r.sdg
}

// Materialize writes the loaded files (sources and headers) into dir,
// for tools that need them on disk (reproducers, git diff --no-index).
func (r *Revision) Materialize(dir string) error {
	for n, c := range r.Contents {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// defText returns the source lines of a definition, joined by newlines
// ("" when the file is not loaded).
func (r *Revision) defText(d cfa.Definition) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lines == nil {
		r.lines = map[string][]string{}
	}
	ls, ok := r.lines[d.File]
	if !ok {
		c, found := r.Contents[d.File]
		if !found {
			c = r.Contents[path.Clean(d.File)]
		}
		ls = strings.Split(c, "\n")
		r.lines[d.File] = ls
	}
	from, to := d.Line, d.EndLine
	if to < from {
		to = from
	}
	if from < 1 || from > len(ls) {
		return ""
	}
	if to > len(ls) {
		to = len(ls)
	}
	return strings.Join(ls[from-1:to], "\n")
}

// sourcesOrigin names where the source patterns came from, for messages.
func sourcesOrigin(origin string) string {
	switch {
	case origin == "flag":
		return "--sources"
	case origin == "default":
		return "default sources"
	case origin == "":
		return "sources"
	case strings.HasPrefix(origin, "input "):
		return origin // the Action's, e.g. "input paths"
	}
	return origin + " sources"
}

// dropPreprocessedTwins removes, when the sources are the default ones,
// a preprocessed x.i whose x.c is a source too (the .i is usually the
// .c's preprocessor output: both would define every function twice).
func dropPreprocessedTwins(files []string, defaults bool) []string {
	if !defaults {
		return files
	}
	has := map[string]bool{}
	for _, f := range files {
		has[f] = true
	}
	out := files[:0:0]
	for _, f := range files {
		if strings.HasSuffix(f, ".i") && has[strings.TrimSuffix(f, ".i")+".c"] {
			continue
		}
		out = append(out, f)
	}
	return out
}
