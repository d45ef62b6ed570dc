package frontend

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
	"github.com/reverify/reverify/engine/contract"
	"github.com/reverify/reverify/engine/frontend/cbmctext"
	"github.com/reverify/reverify/engine/frontend/ccparse"
	"github.com/reverify/reverify/engine/frontend/cmodel"
)

// Options are the front-end options of a translation: the data model,
// the preprocessor's include directories and macros, and the malloc
// model. They are not a verification configuration (engine.Config) nor
// a repository's source configuration (diffslice.SourceConfig,
// .reverify.yml).
type Options struct {
	// DataModel selects the sizes of long and pointers: LP64 (the zero
	// value, the linux/amd64 ABI) or ILP32 (the linux/386 ABI).
	DataModel cfa.DataModel
	// IncludeDirs are searched for #include "…" and #include <…>, before
	// the system directories (like gcc -I).
	IncludeDirs []string
	// Defines are predefined macros (like gcc -D name=value); an empty
	// value defines the macro as 1.
	Defines map[string]string
	// Malloc says whether malloc and calloc (without a body) may return
	// NULL. MallocAuto, the zero value: they may when a source uses the
	// CBMC harness dialect (contains "__CPROVER_"), as CBMC's
	// --malloc-may-fail --malloc-fail-null default does, and never fail
	// otherwise (SV-COMP's convention).
	Malloc MallocMode
	// RemoveBody names functions of external linkage whose definitions
	// in the files RemoveBodyIn (names as given to Translate; every file
	// when nil) are read as declarations, as CBMC's goto-instrument
	// --remove-function-body does for a starter kit's REMOVE_FUNCTION_BODY
	// (package proofs): a definition in another file (a stub) then is the
	// function's, else it has no body.
	RemoveBody   map[string]bool
	RemoveBodyIn map[string]bool
	// CBMC turns the CBMC harness dialect on even when no source file
	// names __CPROVER_ (only a header does; a CBMC proof, package proofs).
	CBMC bool
	// UseContracts, when not nil, names the functions whose contracts
	// their calls use (CBMC's USE_FUNCTION_CONTRACTS); the calls of other
	// functions with a contract run their bodies. nil: every contract is
	// used (engine/contract).
	UseContracts map[string]bool
	// Frontend names who reads the C files, for the command line: ""
	// (or "cc") this package; "clang": clang compiles them (package
	// clangir) and engine/llvmir translates the IR. Translate ignores
	// it.
	Frontend string
}

// MallocMode says whether malloc and calloc may fail (Options.Malloc).
type MallocMode uint8

// Malloc modes.
const (
	MallocAuto MallocMode = iota
	MallocMayFail
	MallocNeverFails
)

// cbmcDialect reports whether a source uses the CBMC/ESBMC harness
// dialect (an identifier starting with __CPROVER_).
func cbmcDialect(srcs []Source) bool {
	for _, s := range srcs {
		if strings.Contains(s.Content, "__CPROVER_") {
			return true
		}
	}
	return false
}

// Source is an in-memory source file. Headers (isHeader: names ending in
// .h, .inc or .def) are not translated but can be included by the
// others.
type Source struct{ Name, Content string }

// isHeader reports whether a source name is a header's, included by the
// translation units but not one itself (.h; .inc and .def, which projects
// include for tables and code, as mlkem-native's zetas.inc).
func isHeader(name string) bool {
	switch filepath.Ext(name) {
	case ".h", ".inc", ".def":
		return true
	}
	return false
}

// Translate parses and translates the C source files (.c, or preprocessed
// .i with gcc line markers) and links them into one program.
func Translate(cfg Options, files ...string) (*cfa.Program, error) {
	srcs := make([]Source, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, Source{Name: f, Content: string(b)})
	}
	return TranslateSources(cfg, srcs)
}

// TranslateSources is Translate over in-memory sources (name → content),
// for tests and fuzzing.
func TranslateSources(cfg Options, srcs []Source) (p *cfa.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			p = nil
			err = fmt.Errorf("frontend: internal error: %v\n%s", r, debug.Stack())
		}
	}()
	if cfg.Malloc == MallocAuto && (cfg.CBMC || cbmcDialect(srcs)) {
		cfg.Malloc = MallocMayFail
	}
	units, ctr, err := parseAll(cfg, srcs)
	if err != nil {
		return nil, err
	}
	t := newTranslator(cfg, units)
	if ctr != nil {
		t.writesNothing = ctr.WritesNothing(cfg.UseContracts)
		t.assignedParams = ctr.AssignedParams(cfg.UseContracts)
	}
	p, err = t.run()
	if err == nil && p != nil {
		p.CBMC = cfg.CBMC || cbmcDialect(srcs)
		contract.Instrument(p, cfg.UseContracts)
	}
	return p, err
}

func parseAll(cfg Options, srcs []Source) ([]*ccparse.Unit, *cbmctext.Contracts, error) {
	ccfg, err := ccparse.Config(cfg.DataModel)
	if err != nil {
		return nil, nil, err
	}
	c := *ccfg // shallow copy: per-translation include paths and FS
	mem := ccparse.MemFS{}
	for _, s := range srcs {
		mem[filepath.Clean(s.Name)] = s.Content
	}
	c.FS = mem
	dialect := cfg.CBMC || cbmcDialect(srcs)
	if dialect {
		for n, v := range mem {
			mem[n] = cbmctext.BlankQuantifiers(v)
		}
		c.FS = quantFS{mem}
	}
	c.ExpansionLimit = 1 << 23 // macro expansion bombs fail instead of hanging
	if len(cfg.IncludeDirs) > 0 {
		c.IncludePaths = append(append([]string{""}, cfg.IncludeDirs...), ccfg.IncludePaths[1:]...)
		c.SysIncludePaths = append(append([]string(nil), cfg.IncludeDirs...), ccfg.SysIncludePaths...)
	}
	// cc/v4 joins a quoted include's name to every include directory,
	// so `#include "/abs/x.h"` (a build's -DCONFIG_FILE="\"$(SRCDIR)/…\"")
	// is found only under "/", the last directory searched: gcc opens
	// an absolute name as it is
	c.IncludePaths = append(c.IncludePaths[:len(c.IncludePaths):len(c.IncludePaths)], "/")
	predef := ccfg.Predefined
	if len(cfg.Defines) > 0 {
		names := make([]string, 0, len(cfg.Defines))
		for n := range cfg.Defines {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		b.WriteString(predef)
		b.WriteString("\n")
		for _, n := range names {
			v := cfg.Defines[n]
			if v == "" {
				v = "1"
			}
			if strings.ContainsAny(n, " \n\t") || strings.Contains(v, "\n") {
				return nil, nil, fmt.Errorf("invalid define %q=%q", n, v)
			}
			fmt.Fprintf(&b, "#define %s %s\n", n, v)
		}
		predef = b.String()
	}
	var ctr *cbmctext.Contracts
	if dialect {
		predef += "\n" + csem.CBMCMacros(cfg.DataModel)
		var tus []cbmctext.File
		for _, s := range srcs {
			if !isHeader(s.Name) {
				tus = append(tus, cbmctext.File{Name: s.Name, Content: s.Content})
			}
		}
		if ctr, err = cbmctext.Prepare(tus, cfg.Defines, cfg.IncludeDirs, mem); err != nil {
			return nil, nil, err
		}
		if ctr != nil {
			predef += "\n" + contract.Prelude
		}
	}
	// Sources that name packed may define packed structs, whose sizes
	// cc/v4 folds otherwise than gcc in constant expressions (PackInfo).
	packedText := false
	for _, v := range mem {
		packedText = packedText || strings.Contains(v, "packed")
	}
	var units []*ccparse.Unit
	var errs []string
	for _, s := range srcs {
		if isHeader(s.Name) {
			continue
		}
		content := s.Content
		if dialect {
			content = cbmctext.BlankQuantifiers(content)
		}
		if ctr != nil {
			content = ctr.Text(s.Name)
			if ctr.Declares(s.Name) {
				// a first parse says which contracts' declarations
				// the preprocessor keeps (conditional compilation)
				first := ccparse.NewSourceFile(s.Name, content).CCContent()
				ast, err := ccparse.Translate(&c, []cc.Source{
					{Name: "<predefined>", Value: predef},
					{Name: "<builtin>", Value: cc.Builtin},
					{Name: s.Name, Value: first},
				}, len(first))
				if err != nil {
					errs = append(errs, ccparse.NewFileSet(ccparse.NewSourceFile(s.Name, content)).MapErrors(err.Error())...)
					continue
				}
				gen, err := ctr.Generate(s.Name, ast)
				if err != nil {
					return nil, nil, err
				}
				content += gen
			}
		}
		u, uerrs := ccparse.ParseUnit(&c, predef, s.Name, content, mem, ccfg.SysIncludePaths, packedText)
		if u == nil {
			errs = append(errs, uerrs...)
			continue
		}
		u.Idx = len(units)
		units = append(units, u)
	}
	if len(errs) > 0 {
		return nil, nil, errors.New(strings.Join(errs, "\n"))
	}
	texts := make([]string, len(srcs))
	for i, s := range srcs {
		texts[i] = s.Content
	}
	for _, m := range cmodel.Needed(texts) {
		if len(units) == 0 {
			break
		}
		// a model's unit (engine/frontend/cmodel)
		sf := ccparse.NewSourceFile(m.Name, m.Source)
		files := ccparse.NewFileSet(sf)
		files.Mem = mem
		ast, err := ccparse.Translate(&c, []cc.Source{
			{Name: "<predefined>", Value: predef},
			{Name: "<builtin>", Value: cc.Builtin},
			{Name: m.Name, Value: sf.CCContent()},
		}, len(m.Source))
		if err != nil {
			return nil, nil, fmt.Errorf("frontend: the model %s: %v", m.Name, err)
		}
		units = append(units, &ccparse.Unit{Idx: len(units), Name: m.Name, Src: sf, AST: ast, Files: files})
	}
	if len(units) == 0 {
		return nil, nil, errors.New("no C source files to translate")
	}
	return units, ctr, nil
}

// quantFS serves the in-memory sources, and the files on disk that hold
// a CBMC quantifier with the quantifier blanked (blankQuantifiers); cc/v4
// opens every other file itself.
type quantFS struct{ mem ccparse.MemFS }

func (q quantFS) Open(name string) (fs.File, error) {
	if f, err := q.mem.Open(name); err == nil {
		return f, nil
	}
	b, err := os.ReadFile(name)
	if err != nil || !strings.Contains(string(b), "__CPROVER_forall") && !strings.Contains(string(b), "__CPROVER_exists") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	s := cbmctext.BlankQuantifiers(string(b))
	return ccparse.NewFile(name, s), nil
}
