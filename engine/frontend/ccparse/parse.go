package ccparse

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
)

// Unit is one parsed translation unit.
type Unit struct {
	Idx   int
	Name  string // the source name given
	Src   *SourceFile
	AST   *cc.AST
	Files *FileSet
	Packs *PackInfo // nil: no pack pragma, no packed struct
}

// ParseStats, when not nil, receives the time spent in cc/v4 (benchmarks).
var ParseStats func(d time.Duration)

// ParseUnit runs cc/v4 on the translation unit name (its content, the
// other sources in mem) with its #pragma pack pragmas marked (pack.go),
// in the files it includes too. When cc/v4 rejects the marked unit (a
// pragma where gcc accepts one and cc/v4 no declaration, such as the
// body of an if without braces), it parses the unit again unmarked, its
// pack pragmas then not placed; the errors are those of the unmarked
// unit. The unit's PackInfo is computed when it has pack pragmas, or
// when scan says its sources may define packed structs.
func ParseUnit(base *cc.Config, predef, name, content string, mem MemFS, sysDirs []string, scan bool) (*Unit, []string) {
	for _, marks := range []bool{true, false} {
		c := *base
		text := content
		pfs := &packFS{base: base.FS}
		marked := false
		if marks {
			text, marked = markPackPragmas(content)
			c.FS = pfs
		}
		sf := NewSourceFile(name, text)
		files := NewFileSet(sf)
		files.Mem = mem
		files.packMarks = marks
		for _, d := range sysDirs {
			files.sysDirs = append(files.sysDirs, filepath.Clean(d))
		}
		var unplaced atomic.Pointer[string]
		c.PragmaHandler = func(toks []cc.Token) error {
			if _, ok := packDirective(toks); ok {
				p := "#pragma pack at " + toks[0].Position().String()
				if toks[0].Position().Filename == name {
					p = "#pragma pack at " + files.Pos(toks[0].Position()).String()
				}
				unplaced.CompareAndSwap(nil, &p)
			}
			return nil
		}
		cct := sf.CCContent()
		start := time.Now()
		ast, err := Translate(&c, []cc.Source{
			{Name: "<predefined>", Value: predef},
			{Name: "<builtin>", Value: cc.Builtin},
			{Name: name, Value: cct},
		}, len(cct))
		if ParseStats != nil {
			ParseStats(time.Since(start))
		}
		marked = marked || pfs.marked.Load()
		if err != nil {
			if marks && marked {
				continue
			}
			return nil, files.MapErrors(err.Error())
		}
		u := &Unit{Name: name, Src: sf, AST: ast, Files: files}
		up := ""
		if p := unplaced.Load(); p != nil {
			up = *p
		}
		if marked || up != "" || scan {
			u.Packs = scanPacks(ast, up)
		}
		return u, nil
	}
	return nil, nil // not reached: the unmarked parse returns
}

// Timeout bounds the time cc/v4 may take for one translation unit:
// Timeout plus one second per 10 kB of source. cc/v4 v4.31.0 loops
// forever on a few invalid inputs (an initialised array of an incomplete
// struct type, "struct t a[2] = {1};"); the translation then fails with an
// error (the parser goroutine cannot be stopped and is abandoned).
var Timeout = 60 * time.Second

// Translate runs cc/v4, turning a panic inside it into an error.
func Translate(c *cc.Config, srcs []cc.Source, size int) (*cc.AST, error) {
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
	limit := Timeout + time.Duration(size/10000)*time.Second
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

// Config returns the cc/v4 configuration of the data model, cached in
// the process and on disk (ccconfig_cache.go): it asks the host C
// compiler for its predefined macros and include paths.
// ILP32 uses the linux/386 ABI with gcc -m32's macros; when the host has no
// 32-bit multiarch headers, the host's (64-bit) include directories are
// used, whose glibc headers select their 32-bit definitions by __i386__.
func Config(m cfa.DataModel) (*cc.Config, error) {
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

// MemFS serves in-memory sources (headers of TranslateSources) to cc/v4;
// names it does not hold fall back to the host file system.
type MemFS map[string]string

func (m MemFS) Open(name string) (fs.File, error) {
	if s, ok := m[filepath.Clean(name)]; ok {
		return &memFile{name: name, r: strings.NewReader(s), size: int64(len(s))}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// NewFile is an fs.File of content named name, as MemFS serves them.
func NewFile(name, content string) fs.File {
	return &memFile{name: name, r: strings.NewReader(content), size: int64(len(content))}
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
