package frontend

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
	"github.com/reverify/reverify/engine/contract"
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
		t.writesNothing = ctr.writesNothing(cfg.UseContracts)
	}
	p, err = t.run()
	if err == nil && p != nil {
		p.CBMC = cfg.CBMC || cbmcDialect(srcs)
		contract.Instrument(p, cfg.UseContracts)
	}
	return p, err
}

// unit is one parsed translation unit.
type unit struct {
	idx   int
	name  string // the source name given
	src   *sourceFile
	ast   *cc.AST
	files *fileSet
	packs *packInfo // nil: no pack pragma, no packed struct
}

// parseStats, when not nil, receives the time spent in cc/v4 (benchmarks).
var parseStats func(d time.Duration)

func parseAll(cfg Options, srcs []Source) ([]*unit, *contracts, error) {
	ccfg, err := ccConfig(cfg.DataModel)
	if err != nil {
		return nil, nil, err
	}
	c := *ccfg // shallow copy: per-translation include paths and FS
	mem := memFS{}
	for _, s := range srcs {
		mem[filepath.Clean(s.Name)] = s.Content
	}
	c.FS = mem
	dialect := cfg.CBMC || cbmcDialect(srcs)
	if dialect {
		for n, v := range mem {
			mem[n] = blankQuantifiers(v)
		}
		c.FS = quantFS{mem}
	}
	c.ExpansionLimit = 1 << 23 // macro expansion bombs fail instead of hanging
	if len(cfg.IncludeDirs) > 0 {
		c.IncludePaths = append(append([]string{""}, cfg.IncludeDirs...), ccfg.IncludePaths[1:]...)
		c.SysIncludePaths = append(append([]string(nil), cfg.IncludeDirs...), ccfg.SysIncludePaths...)
	}
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
	var ctr *contracts
	if dialect {
		predef += "\n" + csem.CBMCMacros(cfg.DataModel)
		if ctr, err = prepareContracts(cfg, srcs, mem); err != nil {
			return nil, nil, err
		}
		if ctr != nil {
			predef += "\n" + contract.Prelude
		}
	}
	// Sources that name packed may define packed structs, whose sizes
	// cc/v4 folds otherwise than gcc in constant expressions (packInfo).
	packedText := false
	for _, v := range mem {
		packedText = packedText || strings.Contains(v, "packed")
	}
	var units []*unit
	var errs []string
	for _, s := range srcs {
		if isHeader(s.Name) {
			continue
		}
		content := s.Content
		if dialect {
			content = blankQuantifiers(content)
		}
		if ctr != nil {
			content = ctr.units[s.Name]
			if len(ctr.cands[s.Name]) > 0 {
				// a first parse says which contracts' declarations
				// the preprocessor keeps (conditional compilation)
				first := newSourceFile(s.Name, content).ccContent()
				ast, err := ccTranslate(&c, []cc.Source{
					{Name: "<predefined>", Value: predef},
					{Name: "<builtin>", Value: cc.Builtin},
					{Name: s.Name, Value: first},
				}, len(first))
				if err != nil {
					errs = append(errs, newFileSet(newSourceFile(s.Name, content)).mapErrors(err.Error())...)
					continue
				}
				gen, err := ctr.generate(s.Name, declaredLines(ast))
				if err != nil {
					return nil, nil, err
				}
				content += gen
			}
		}
		u, uerrs := parseUnit(&c, predef, s.Name, content, mem, ccfg.SysIncludePaths, packedText)
		if u == nil {
			errs = append(errs, uerrs...)
			continue
		}
		u.idx = len(units)
		units = append(units, u)
	}
	if len(errs) > 0 {
		return nil, nil, errors.New(strings.Join(errs, "\n"))
	}
	if len(units) > 0 && needsAtexit(srcs) {
		// the atexit model's unit (atexit.go)
		sf := newSourceFile(atexitName, atexitSource)
		files := newFileSet(sf)
		files.mem = mem
		ast, err := ccTranslate(&c, []cc.Source{
			{Name: "<predefined>", Value: predef},
			{Name: "<builtin>", Value: cc.Builtin},
			{Name: atexitName, Value: sf.ccContent()},
		}, len(atexitSource))
		if err != nil {
			return nil, nil, fmt.Errorf("frontend: atexit model: %v", err)
		}
		units = append(units, &unit{idx: len(units), name: atexitName, src: sf, ast: ast, files: files})
	}
	if len(units) == 0 {
		return nil, nil, errors.New("no C source files to translate")
	}
	return units, ctr, nil
}

// parseUnit runs cc/v4 on the translation unit name (its content, the
// other sources in mem) with its #pragma pack pragmas marked (pack.go),
// in the files it includes too. When cc/v4 rejects the marked unit (a
// pragma where gcc accepts one and cc/v4 no declaration, such as the
// body of an if without braces), it parses the unit again unmarked, its
// pack pragmas then not placed; the errors are those of the unmarked
// unit. The unit's packInfo is computed when it has pack pragmas, or
// when scan says its sources may define packed structs.
func parseUnit(base *cc.Config, predef, name, content string, mem memFS, sysDirs []string, scan bool) (*unit, []string) {
	for _, marks := range []bool{true, false} {
		c := *base
		text := content
		pfs := &packFS{base: base.FS}
		marked := false
		if marks {
			text, marked = markPackPragmas(content)
			c.FS = pfs
		}
		sf := newSourceFile(name, text)
		files := newFileSet(sf)
		files.mem = mem
		files.packMarks = marks
		for _, d := range sysDirs {
			files.sysDirs = append(files.sysDirs, filepath.Clean(d))
		}
		var unplaced atomic.Pointer[string]
		c.PragmaHandler = func(toks []cc.Token) error {
			if _, ok := packDirective(toks); ok {
				p := "#pragma pack at " + toks[0].Position().String()
				if toks[0].Position().Filename == name {
					p = "#pragma pack at " + files.pos(toks[0].Position()).String()
				}
				unplaced.CompareAndSwap(nil, &p)
			}
			return nil
		}
		cct := sf.ccContent()
		start := time.Now()
		ast, err := ccTranslate(&c, []cc.Source{
			{Name: "<predefined>", Value: predef},
			{Name: "<builtin>", Value: cc.Builtin},
			{Name: name, Value: cct},
		}, len(cct))
		if parseStats != nil {
			parseStats(time.Since(start))
		}
		marked = marked || pfs.marked.Load()
		if err != nil {
			if marks && marked {
				continue
			}
			return nil, files.mapErrors(err.Error())
		}
		u := &unit{name: name, src: sf, ast: ast, files: files}
		up := ""
		if p := unplaced.Load(); p != nil {
			up = *p
		}
		if marked || up != "" || scan {
			u.packs = scanPacks(ast, up)
		}
		return u, nil
	}
	return nil, nil // not reached: the unmarked parse returns
}

// ccTimeout bounds the time cc/v4 may take for one translation unit:
// ccTimeout plus one second per 10 kB of source. cc/v4 v4.31.0 loops
// forever on a few invalid inputs (an initialised array of an incomplete
// struct type, "struct t a[2] = {1};"); the translation then fails with an
// error (the parser goroutine cannot be stopped and is abandoned).
var ccTimeout = 60 * time.Second

// ccTranslate runs cc/v4, turning a panic inside it into an error.
func ccTranslate(c *cc.Config, srcs []cc.Source, size int) (*cc.AST, error) {
	type result struct {
		ast *cc.AST
		err error
	}
	name := srcs[len(srcs)-1].Name
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{nil, fmt.Errorf("%s: C parser failed: %v", name, r)}
			}
		}()
		ast, err := cc.Translate(c, srcs)
		ch <- result{ast, err}
	}()
	limit := ccTimeout + time.Duration(size/10000)*time.Second
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.ast, r.err
	case <-timer.C:
		return nil, fmt.Errorf("%s: C parser (cc/v4) did not finish within %v", name, limit)
	}
}

var (
	ccConfigMu    sync.Mutex
	ccConfigCache = map[cfa.DataModel]*cc.Config{}
)

// ccConfig returns the cc/v4 configuration of the data model, cached in
// the process and on disk (ccconfig_cache.go): it asks the host C
// compiler for its predefined macros and include paths.
// ILP32 uses the linux/386 ABI with gcc -m32's macros; when the host has no
// 32-bit multiarch headers, the host's (64-bit) include directories are
// used, whose glibc headers select their 32-bit definitions by __i386__.
func ccConfig(m cfa.DataModel) (*cc.Config, error) {
	ccConfigMu.Lock()
	defer ccConfigMu.Unlock()
	if c := ccConfigCache[m]; c != nil {
		return c, nil
	}
	key := ccCacheKey(m)
	if c := loadCCConfig(key); c != nil {
		ccConfigCache[m] = c
		return c, nil
	}
	var c *cc.Config
	var err error
	abiOS, abiArch := "linux", "386"
	switch m {
	case cfa.ILP32:
		c, err = cc.NewConfig("linux", "386", "-m32")
		if err != nil {
			return nil, fmt.Errorf("frontend: C compiler configuration for ILP32: %v", err)
		}
		host, err := cc.NewConfig(runtime.GOOS, runtime.GOARCH)
		if err == nil {
			c.SysIncludePaths = mergePaths(host.SysIncludePaths, c.SysIncludePaths)
			c.IncludePaths = append([]string{""}, mergePaths(c.IncludePaths[1:], c.SysIncludePaths)...)
		}
	default:
		goarch := runtime.GOARCH
		if goarch != "amd64" && goarch != "arm64" {
			goarch = "amd64"
		}
		abiArch = goarch
		c, err = cc.NewConfig("linux", goarch)
		if err != nil {
			return nil, fmt.Errorf("frontend: C compiler configuration for LP64: %v", err)
		}
	}
	storeCCConfig(key, c, abiOS, abiArch)
	ccConfigCache[m] = c
	return c, nil
}

// mergePaths returns a followed by the elements of b not in a.
func mergePaths(a, b []string) []string {
	r := append([]string(nil), a...)
	seen := map[string]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			seen[x] = true
			r = append(r, x)
		}
	}
	return r
}

// quantFS serves the in-memory sources, and the files on disk that hold
// a CBMC quantifier with the quantifier blanked (blankQuantifiers); cc/v4
// opens every other file itself.
type quantFS struct{ mem memFS }

func (q quantFS) Open(name string) (fs.File, error) {
	if f, err := q.mem.Open(name); err == nil {
		return f, nil
	}
	b, err := os.ReadFile(name)
	if err != nil || !strings.Contains(string(b), "__CPROVER_forall") && !strings.Contains(string(b), "__CPROVER_exists") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	s := blankQuantifiers(string(b))
	return &memFile{name: name, r: strings.NewReader(s), size: int64(len(s))}, nil
}

// blankQuantifiers turns CBMC's quantifiers, __CPROVER_forall { int i;
// cond ==> expr } and __CPROVER_exists { … }, which are not C, into calls
// without arguments, __CPROVER_forall(   …   ), blanking the braces'
// contents but for line continuations and newlines, so every position in
// the file stays where it was. The call is then an Unsupported edge
// naming the quantifier (special), UNKNOWN where it matters.
func blankQuantifiers(s string) string {
	if !strings.Contains(s, "__CPROVER_forall") && !strings.Contains(s, "__CPROVER_exists") {
		return s
	}
	b := []byte(s)
	for _, q := range []string{"__CPROVER_forall", "__CPROVER_exists"} {
		for from := 0; ; {
			i := strings.Index(string(b[from:]), q)
			if i < 0 {
				break
			}
			j := from + i + len(q)
			from = j
			k := j
			for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\\' || b[k] == '\n' || b[k] == '\r') {
				k++
			}
			if k >= len(b) || b[k] != '{' {
				continue
			}
			depth, end := 0, -1
			for m := k; m < len(b); m++ {
				if b[m] == '{' {
					depth++
				} else if b[m] == '}' {
					depth--
					if depth == 0 {
						end = m
						break
					}
				}
			}
			if end < 0 {
				break
			}
			if inComment(b, j-len(q)) {
				continue
			}
			if r, ok := lowerQuantifier(q, string(b[k+1:end])); ok {
				// the loop on the quantifier's first line, then its line
				// breaks, the last line padded to the column after '}'
				start := j - len(q)
				var nb strings.Builder
				nb.WriteString(r)
				col := 0
				for m := start; m <= end; m++ {
					col++
					switch {
					case b[m] == '\\' && m+1 <= end && b[m+1] == '\n':
						nb.WriteString(" \\\n") // cc/v4 misreads a line holding only a backslash
						m++
						col = 0
					case b[m] == '\n':
						nb.WriteByte('\n')
						col = 0
					}
				}
				if strings.Contains(string(b[start:end]), "\n") {
					nb.WriteString(strings.Repeat(" ", col))
				} else if pad := end + 1 - start - len(r); pad > 0 {
					nb.WriteString(strings.Repeat(" ", pad))
				}
				b = append(b[:start], append([]byte(nb.String()), b[end+1:]...)...)
				from = start + len(r)
				continue
			}
			b[k], b[end] = '(', ')'
			for m := k + 1; m < end; m++ {
				if b[m] != '\n' && b[m] != '\r' && !(b[m] == '\\' && m+1 < end && (b[m+1] == '\n' || b[m+1] == '\r')) {
					b[m] = ' '
				}
			}
		}
	}
	return string(b)
}

// inComment reports whether the byte at pos of the C source b is inside a
// comment, a string or a character constant.
func inComment(b []byte, pos int) bool {
	const (
		code = iota
		line
		block
		str
	)
	state, quote := code, byte(0)
	for i := 0; i < pos && i < len(b); i++ {
		c := b[i]
		switch state {
		case code:
			switch {
			case c == '/' && i+1 < len(b) && b[i+1] == '/':
				state = line
				i++
			case c == '/' && i+1 < len(b) && b[i+1] == '*':
				state = block
				i++
			case c == '"' || c == '\'':
				state, quote = str, c
			}
		case line:
			if c == '\n' && b[i-1] != '\\' {
				state = code
			}
		case block:
			if c == '*' && i+1 < len(b) && b[i+1] == '/' {
				state = code
				i++
			}
		case str:
			switch c {
			case '\\':
				i++
			case quote, '\n':
				state = code
			}
		}
	}
	return state != code
}

// quantRE matches the bounded quantifiers proof harnesses write (aws-c-common's
// AWS_IS_ZEROED and AWS_BYTES_EQ): int i; (i >= 0 && i < H) ==> B, with
// line continuations already turned into blanks.
var quantRE = regexp.MustCompile(`^\s*int\s+([A-Za-z_]\w*)\s*;\s*\(\s*([A-Za-z_]\w*)\s*>=\s*0\s*&&\s*([A-Za-z_]\w*)\s*<\s*(.+?)\)\s*==>\s*(.+?)\s*$`)

// lowerQuantifier turns the inside of __CPROVER_forall { int i; (i >= 0
// && i < H) ==> B } into a GNU statement expression that evaluates the
// quantifier exactly: i runs from 0 while i < H (i never overflows: the
// loop stops at INT_MAX), and the value is 0 as soon as B is false for
// one i, else 1; B is evaluated only where the premise holds, as the
// implication's meaning asks. Since {i | i >= 0 && i < H} is the interval
// [0, H) (i >= 0 makes the conversion of i to an unsigned H exact), this
// is the quantifier over every int, both as an assumption and as an
// assertion. __CPROVER_exists has its bounded shape (lowerExists); other
// shapes are not lowered.
func lowerQuantifier(q, inner string) (string, bool) {
	if q == "__CPROVER_exists" {
		return lowerExists(inner) // cbmc_builtins.go
	}
	if q != "__CPROVER_forall" {
		return "", false
	}
	flat := strings.NewReplacer("\\\r\n", " ", "\\\n", " ", "\n", " ", "\r", " ").Replace(inner)
	m := quantRE.FindStringSubmatch(flat)
	if m == nil || m[1] != m[2] || m[1] != m[3] || strings.Contains(m[4], "==>") || strings.Contains(m[5], "==>") ||
		strings.Count(m[4], "(") != strings.Count(m[4], ")") {
		return lowerInterval(flat)
	}
	i, h, body := m[1], strings.TrimSpace(m[4]), m[5]
	if regexp.MustCompile(`\b` + i + `\b`).MatchString(h) {
		return "", false // the bound depends on i: not an interval from 0
	}
	return fmt.Sprintf("({ _Bool __cprover_forall = 1; for (int %s = 0; %s < (%s); %s++) { if (!(%s)) { __cprover_forall = 0; break; } if (%s == 0x7fffffff) break; } __cprover_forall; })",
		i, i, h, i, body, i), true
}

// memFS serves in-memory sources (headers of TranslateSources) to cc/v4;
// names it does not hold fall back to the host file system.
type memFS map[string]string

func (m memFS) Open(name string) (fs.File, error) {
	if s, ok := m[filepath.Clean(name)]; ok {
		return &memFile{name: name, r: strings.NewReader(s), size: int64(len(s))}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type memFile struct {
	name string
	r    *strings.Reader
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f}, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return filepath.Base(i.f.name) }
func (i memInfo) Size() int64        { return i.f.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

var _ io.Reader = (*memFile)(nil)
