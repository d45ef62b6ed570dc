package llvmir

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"

	"github.com/reverify/reverify/engine/cfa"
)

// sources gives positions and source text: the C position of an
// instruction's debug location (!dbg) when the module has one, else
// the line of the instruction in the IR text.
type sources struct {
	opts      Options
	name      string
	irLines   map[any]int // instruction, terminator, function or global → line in the IR text
	irText    []string
	files     map[string][]string // source file → lines (nil: unreadable)
	names     map[*ir.InstAlloca]string
	last      map[*ir.Func]cfa.Pos // the last debug position seen in a function
	given     map[string]string    // absolute path → the name given (Options.Files)
	fileNames map[*metadata.DIFile]string
	// modelLine is the line of the text where the atexit model starts
	// (0: not linked in); atexitModel says that it is
	modelLine   int
	atexitModel bool
}

// inModel reports whether f is a function of the atexit model.
func (s *sources) inModel(f *ir.Func) bool {
	return s.atexitModel && s.irLines[f] >= s.modelLine
}

var (
	defineRE = regexp.MustCompile(`^define\b.*@("[^"]+"|[-a-zA-Z$._0-9]+)\(`)
	globalRE = regexp.MustCompile(`^@("[^"]+"|[-a-zA-Z$._0-9]+)\s*=`)
	labelRE  = regexp.MustCompile(`^("[^"]+"|[-a-zA-Z$._0-9]+):`)
)

func newSources(opts Options, name, text string, m *ir.Module, modelLine int) *sources {
	s := &sources{opts: opts, name: name, irLines: map[any]int{}, files: map[string][]string{},
		names: map[*ir.InstAlloca]string{}, last: map[*ir.Func]cfa.Pos{}, modelLine: modelLine, atexitModel: modelLine > 0,
		given: map[string]string{}, fileNames: map[*metadata.DIFile]string{}}
	for _, f := range opts.Files {
		if abs, err := filepath.Abs(f); err == nil {
			s.given[filepath.Clean(abs)] = f
		}
	}
	for abs, n := range opts.Names {
		s.given[filepath.Clean(abs)] = n
	}
	s.irText = strings.Split(text, "\n")
	defLine := map[string]int{}
	globLine := map[string]int{}
	for i, l := range s.irText {
		if m := defineRE.FindStringSubmatch(l); m != nil {
			defLine[strings.Trim(m[1], `"`)] = i + 1
		} else if m := globalRE.FindStringSubmatch(l); m != nil {
			globLine[strings.Trim(m[1], `"`)] = i + 1
		}
	}
	for _, g := range m.Globals {
		s.irLines[g] = globLine[g.Name()]
	}
	for _, f := range m.Funcs {
		start, ok := defLine[f.Name()]
		if !ok || len(f.Blocks) == 0 {
			continue
		}
		s.irLines[f] = start
		// the instructions of the body, one per line in order
		var items []any
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				items = append(items, in)
			}
			items = append(items, b.Term)
		}
		k := 0
		for i := start; i < len(s.irText) && k < len(items); i++ {
			l := s.irText[i]
			tl := strings.TrimSpace(l)
			if tl == "" || strings.HasPrefix(tl, ";") || labelRE.MatchString(tl) {
				continue
			}
			if tl == "}" {
				break
			}
			s.irLines[items[k]] = i + 1
			k++
		}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				c, ok := in.(*ir.InstCall)
				if !ok || !isDbg(c) || len(c.Args) < 2 {
					continue
				}
				a, ok1 := c.Args[0].(*metadata.Value)
				v, ok2 := c.Args[1].(*metadata.Value)
				if !ok1 || !ok2 {
					continue
				}
				var alloca *ir.InstAlloca
				switch x := a.Value.(type) {
				case *metadata.Value:
					alloca, _ = x.Value.(*ir.InstAlloca)
				default:
					alloca, _ = a.Value.(*ir.InstAlloca)
				}
				if dv, ok := v.Value.(*metadata.DILocalVariable); ok && alloca != nil && dv.Name != "" {
					s.names[alloca] = dv.Name
				}
			}
		}
	}
	return s
}

// dbgLoc returns the debug location attached to md, or nil.
func dbgLoc(md []*metadata.Attachment) *metadata.DILocation {
	for _, a := range md {
		if a.Name == "dbg" {
			if l, ok := a.Node.(*metadata.DILocation); ok {
				return l
			}
		}
	}
	return nil
}

// scopeFile is the file of a debug scope.
func scopeFile(f metadata.Field) *metadata.DIFile {
	switch s := f.(type) {
	case *metadata.DILexicalBlock:
		if s.File != nil {
			return s.File
		}
		return scopeFile(s.Scope)
	case *metadata.DILexicalBlockFile:
		return s.File
	case *metadata.DISubprogram:
		return s.File
	case *metadata.DIFile:
		return s
	}
	return nil
}

// fileName is the name positions give a debug file: the name the
// translation was given for it (Options.Files, matched by absolute
// path), else its name relative to the working directory when it is
// below it, else its absolute path. clang records a file as a directory
// and a name relative to it, sharing the longest prefix with its
// working directory (/tmp/x/b.c compiled in /tmp/y is "x/b.c" in
// "/tmp").
func (s *sources) fileName(f *metadata.DIFile) string {
	if n, ok := s.fileNames[f]; ok {
		return n
	}
	name := f.Filename
	abs := name
	if !filepath.IsAbs(abs) && f.Directory != "" {
		abs = filepath.Join(f.Directory, abs)
	}
	if filepath.IsAbs(abs) {
		name = abs
		if given, ok := s.given[filepath.Clean(abs)]; ok {
			name = given
		} else if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
				name = rel
			}
		}
	}
	s.fileNames[f] = name
	return name
}

// sourceLine is the text of line n of file (trimmed), "" if unreadable.
func (s *sources) sourceLine(file *metadata.DIFile, n int) string {
	path := file.Filename
	if p, ok := s.opts.Sources[path]; ok {
		path = p
	} else if !filepath.IsAbs(path) {
		if _, err := os.Stat(path); err != nil && file.Directory != "" {
			path = filepath.Join(file.Directory, path)
		}
	}
	lines, ok := s.files[path]
	if !ok {
		if b, err := os.ReadFile(path); err == nil {
			lines = strings.Split(string(b), "\n")
		}
		s.files[path] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

// instPos is the position and text of the edges of the instruction it
// (with metadata md and LLVM text ll) in f.
func (s *sources) instPos(f *ir.Func, it any, md []*metadata.Attachment, ll string) (cfa.Range, string) {
	if l := dbgLoc(md); l != nil && l.Line > 0 {
		if file := scopeFile(l.Scope); file != nil {
			p := cfa.Pos{File: s.fileName(file), Line: int(l.Line), Col: int(l.Column)}
			s.last[f] = p
			text := s.sourceLine(file, p.Line)
			if text == "" {
				text = strings.TrimSpace(ll)
			}
			return cfa.Range{Start: p}, text
		}
	}
	if p, ok := s.last[f]; ok {
		// an instruction without a location in a function with debug
		// information: where the function's code last was
		return cfa.Range{Start: p}, strings.TrimSpace(ll)
	}
	if sp := subprogram(f); sp != nil && sp.File != nil {
		return cfa.Range{Start: cfa.Pos{File: s.fileName(sp.File), Line: int(sp.Line)}}, strings.TrimSpace(ll)
	}
	if s.inModel(f) {
		return cfa.Range{Start: cfa.Pos{File: atexitName, Line: s.irLines[it] - s.modelLine, Col: 1}}, strings.TrimSpace(ll)
	}
	return cfa.Range{Start: cfa.Pos{File: s.name, Line: s.irLines[it], Col: 1}}, strings.TrimSpace(ll)
}

func subprogram(f *ir.Func) *metadata.DISubprogram {
	for _, a := range f.Metadata {
		if a.Name == "dbg" {
			if sp, ok := a.Node.(*metadata.DISubprogram); ok {
				return sp
			}
		}
	}
	return nil
}

// funcPos is the position of a function: its debug line, else its
// define line in the IR text.
func (s *sources) funcPos(f *ir.Func) cfa.Pos {
	if sp := subprogram(f); sp != nil && sp.File != nil {
		return cfa.Pos{File: s.fileName(sp.File), Line: int(sp.Line), Col: 1}
	}
	if s.inModel(f) {
		return cfa.Pos{File: atexitName, Line: s.irLines[f] - s.modelLine, Col: 1}
	}
	return cfa.Pos{File: s.name, Line: s.irLines[f], Col: 1}
}

// funcEnd is the last line of a function: the largest debug line in its
// body, else the line of its closing brace in the IR text.
func (s *sources) funcEnd(f *ir.Func) int {
	end := 0
	if subprogram(f) != nil {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if m, ok := in.(interface{ MDAttachments() []*metadata.Attachment }); ok {
					if l := dbgLoc(m.MDAttachments()); l != nil && int(l.Line) > end {
						end = int(l.Line)
					}
				}
			}
		}
		if end > 0 {
			return end
		}
	}
	start := s.irLines[f]
	for i := start; i < len(s.irText); i++ {
		if strings.TrimSpace(s.irText[i]) == "}" {
			return i + 1
		}
	}
	return start
}

// globalPos is the position of a global: its debug line, else its line
// in the IR text.
func (s *sources) globalPos(g *ir.Global) cfa.Pos {
	if gv := globalDbg(g); gv != nil && gv.File != nil {
		return cfa.Pos{File: s.fileName(gv.File), Line: int(gv.Line), Col: 1}
	}
	return cfa.Pos{File: s.name, Line: s.irLines[g], Col: 1}
}

func globalDbg(g *ir.Global) *metadata.DIGlobalVariable {
	for _, a := range g.Metadata {
		if a.Name != "dbg" {
			continue
		}
		if e, ok := a.Node.(*metadata.DIGlobalVariableExpression); ok {
			return e.Var
		}
	}
	return nil
}

// globalName is the source name of a global: its debug name, else its
// LLVM name.
func (s *sources) globalName(g *ir.Global) string {
	if gv := globalDbg(g); gv != nil && gv.Name != "" {
		return gv.Name
	}
	return g.Name()
}

// allocaName is the variable name of an alloca and its source name: the
// name llvm.dbg.declare gives it, else its LLVM name (t_N when unnamed).
func (s *sources) allocaName(f *ir.Func, a *ir.InstAlloca) (name, orig string) {
	if n, ok := s.names[a]; ok {
		return n, n
	}
	n := localName(a.LocalIdent)
	return n, n
}
