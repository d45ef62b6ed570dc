package ccparse

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
	"modernc.org/token"

	"github.com/reverify/reverify/engine/cfa"
)

// A marker is a gcc line marker (# 12 "foo.c" 1 3) or a #line directive:
// the physical line after it is line Line of File.
type marker struct {
	phys int // physical line number (1-based) of the line after the marker
	file string
	line int
	sys  bool // flag 3: the following text comes from a system header
}

// SourceFile is the content of one file cc/v4 scanned, with its line
// starts and line markers.
type SourceFile struct {
	name       string
	content    string
	lineStarts []int
	markers    []marker
	sys        bool // a system header (by include path)
}

var markerRE = regexp.MustCompile(`^[ \t]*#[ \t]*(?:line[ \t]+)?([0-9]+)(?:[ \t]+"((?:[^"\\]|\\.)*)")?(.*)$`)

func NewSourceFile(name, content string) *SourceFile {
	sf := &SourceFile{name: name}
	// Rewrite #line directives into gcc line markers, which cc/v4 ignores
	// (so positions are physical and mapped only here), and record both.
	var b strings.Builder
	changed := false
	phys := 1
	for off := 0; off < len(content); {
		end := strings.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += off
		}
		line := content[off:end]
		if strings.Contains(line, "#") {
			if m := markerRE.FindStringSubmatch(line); m != nil {
				ln, err := strconv.Atoi(m[1])
				if err == nil && ln >= 0 && ln < 1<<30 {
					file := sf.name
					if len(sf.markers) > 0 {
						file = sf.markers[len(sf.markers)-1].file
					}
					if m[2] != "" || strings.Contains(line, `""`) {
						file = unescapeMarker(m[2])
					}
					sys := false
					for _, f := range strings.Fields(m[3]) {
						if f == "3" {
							sys = true
						}
					}
					sf.markers = append(sf.markers, marker{phys: phys + 1, file: file, line: ln, sys: sys})
					if i := strings.Index(line, "line"); i >= 0 && strings.TrimSpace(line[:i]) == "#" {
						line = "#" + strings.Repeat(" ", i) + line[i+4:]
						changed = true
					}
				}
			}
		}
		if changed {
			if b.Len() == 0 {
				b.WriteString(content[:off])
			}
			b.WriteString(line)
			if end < len(content) {
				b.WriteByte('\n')
			}
		}
		off = end + 1
		phys++
	}
	if changed {
		sf.content = b.String()
	} else {
		sf.content = content
	}
	sf.index()
	return sf
}

func unescapeMarker(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}

// Text is the file's content as cc/v4 reads it (#line directives turned
// into gcc line markers), without the sentinel of CCContent.
func (sf *SourceFile) Text() string { return sf.content }

func (sf *SourceFile) index() {
	sf.lineStarts = append(sf.lineStarts[:0], 0)
	for i := 0; i < len(sf.content); i++ {
		if sf.content[i] == '\n' {
			sf.lineStarts = append(sf.lineStarts, i+1)
		}
	}
}

// CCContent is the content handed to cc/v4 (with #line directives turned
// into gcc markers). Offsets of cc/v4 positions index into it. It ends in
// a sentinel: an empty declaration ";", after closing an unterminated
// block comment and conditional groups, because cc/v4's parser can loop
// forever on some constructs cut off by the end of the file ("enum").
func (sf *SourceFile) CCContent() string { return sf.content + terminator(sf.content) }

// terminator returns the text that closes what content leaves open and
// then adds the sentinel.
func terminator(content string) string {
	const (
		normal = iota
		line
		block
		str
		chr
	)
	state := normal
	depth := 0
	bol := true // at the beginning of a line (only blanks so far)
	for i := 0; i < len(content); i++ {
		c := content[i]
		switch state {
		case normal:
			switch {
			case c == '\n':
				bol = true
				continue
			case c == '#' && bol:
				j := i + 1
				for j < len(content) && (content[j] == ' ' || content[j] == '\t') {
					j++
				}
				k := j
				for k < len(content) && content[k] >= 'a' && content[k] <= 'z' {
					k++
				}
				switch content[j:k] {
				case "if", "ifdef", "ifndef":
					depth++
				case "endif":
					if depth > 0 {
						depth--
					}
				}
			case c == '/' && i+1 < len(content) && content[i+1] == '/':
				state = line
				i++
			case c == '/' && i+1 < len(content) && content[i+1] == '*':
				state = block
				i++
			case c == '"':
				state = str
			case c == '\'':
				state = chr
			}
			if c != ' ' && c != '\t' {
				bol = false
			}
		case line:
			if c == '\\' {
				i++
			} else if c == '\n' {
				state, bol = normal, true
			}
		case block:
			if c == '*' && i+1 < len(content) && content[i+1] == '/' {
				state = normal
				i++
			}
		case str, chr:
			q := byte('"')
			if state == chr {
				q = '\''
			}
			if c == '\\' {
				i++
			} else if c == q || c == '\n' {
				state = normal
				bol = c == '\n'
			}
		}
	}
	var b strings.Builder
	b.WriteString("\n")
	if state == block {
		b.WriteString("*/\n")
	}
	for ; depth > 0; depth-- {
		b.WriteString("#endif\n")
	}
	b.WriteString(";\n")
	return b.String()
}

// mapLine maps a physical line to the original file and line, and reports
// whether it lies in a system header.
func (sf *SourceFile) mapLine(phys int) (string, int, bool) {
	ms := sf.markers
	i := sort.Search(len(ms), func(i int) bool { return ms[i].phys > phys }) - 1
	if i < 0 {
		return sf.name, phys, sf.sys
	}
	m := ms[i]
	return m.file, m.line + phys - m.phys, m.sys
}

// lineCol returns the physical 1-based line and column of offset off.
func (sf *SourceFile) lineCol(off int) (int, int) {
	i := sort.Search(len(sf.lineStarts), func(i int) bool { return sf.lineStarts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - sf.lineStarts[i] + 1
}

// FileSet maps cc/v4 positions of one translation unit back to original
// files and extracts source text.
type FileSet struct {
	// Mem holds the in-memory sources, read before the disk.
	Mem MemFS
	// packMarks: cc/v4 read the files with their pack pragmas marked
	// (markPackPragmas), and so are they here.
	packMarks bool
	main      *SourceFile
	files     map[string]*SourceFile
	sysDirs   []string
}

func NewFileSet(main *SourceFile) *FileSet {
	return &FileSet{main: main, files: map[string]*SourceFile{main.name: main}}
}

// file returns the source file named name (reading headers lazily), or nil.
func (fs *FileSet) file(name string) *SourceFile {
	if sf, ok := fs.files[name]; ok {
		return sf
	}
	var sf *SourceFile
	if c, ok := fs.Mem[filepath.Clean(name)]; ok {
		if fs.packMarks {
			c, _ = markPackPragmas(c)
		}
		sf = &SourceFile{name: name, content: c}
		sf.index()
	} else if !strings.HasPrefix(name, "<") {
		if b, err := os.ReadFile(name); err == nil {
			c := string(b)
			if fs.packMarks {
				c, _ = markPackPragmas(c)
			}
			sf = &SourceFile{name: name, content: c}
			sf.index()
			for _, d := range fs.sysDirs {
				if strings.HasPrefix(filepath.Clean(name), d+string(filepath.Separator)) {
					sf.sys = true
				}
			}
		}
	}
	fs.files[name] = sf
	return sf
}

// Pos maps a cc/v4 position.
func (fs *FileSet) Pos(p token.Position) cfa.Pos {
	if !p.IsValid() {
		return cfa.Pos{}
	}
	if p.Filename == fs.main.name {
		f, l, _ := fs.main.mapLine(p.Line)
		return cfa.Pos{File: f, Line: l, Col: p.Column}
	}
	return cfa.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// IsSys reports whether p lies in a system header or in cc/v4's predefined
// text.
func (fs *FileSet) IsSys(p token.Position) bool {
	if strings.HasPrefix(p.Filename, "<") {
		return true
	}
	if p.Filename == fs.main.name {
		_, _, sys := fs.main.mapLine(p.Line)
		return sys
	}
	sf := fs.file(p.Filename)
	if sf == nil {
		for _, d := range fs.sysDirs {
			if strings.HasPrefix(filepath.Clean(p.Filename), d+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	return sf.sys
}

var errPosRE = regexp.MustCompile(`^(.*?):([0-9]+):([0-9]+):(.*)$`)

// MapErrors maps the positions of cc/v4 error messages, one per line.
// Errors in the sentinel after the end of the file (see CCContent) are
// dropped when there are others.
func (fs *FileSet) MapErrors(msg string) []string {
	var r, tail []string
	last := len(fs.main.lineStarts)
	if n := len(fs.main.content); n > 0 && fs.main.content[n-1] == '\n' {
		last--
	}
	for _, line := range strings.Split(msg, "\n") {
		if line == "" {
			continue
		}
		if m := errPosRE.FindStringSubmatch(line); m != nil && m[1] == fs.main.name {
			ln, _ := strconv.Atoi(m[2])
			beyond := ln > last
			if beyond {
				ln = max(last, 1)
			}
			f, l, _ := fs.main.mapLine(ln)
			line = f + ":" + strconv.Itoa(l) + ":" + m[3] + ":" + m[4]
			if beyond {
				tail = append(tail, line)
				continue
			}
		}
		r = append(r, line)
	}
	if len(r) == 0 {
		return tail
	}
	// cc/v4 follows a syntax error with position-less complaints about
	// the end of input ("-: unexpected <EOF>, expected ')'"): they
	// repeat the error above and name no place, so they are dropped when
	// a positioned error exists.
	var kept []string
	for _, line := range r {
		if !strings.HasPrefix(line, "-: ") {
			kept = append(kept, line)
		}
	}
	if len(kept) > 0 {
		return kept
	}
	return r
}

// RangeText returns the mapped source range of the span and its original
// source text.
func (fs *FileSet) RangeText(s Span) (cfa.Range, string) {
	if !s.OK {
		return cfa.Range{}, ""
	}
	p0 := s.First.Position()
	p1 := s.Last.Position()
	r := cfa.Range{Start: fs.Pos(p0)}
	sf := fs.file(p0.Filename)
	if sf == nil || p1.Filename != p0.Filename || p1.Offset < p0.Offset || p1.Offset > len(sf.content) || p0.Offset < 0 {
		r.End = fs.Pos(p1)
		return r, cc.NodeSource(s.First, s.Last)
	}
	end := tokenEnd(sf.content, p1.Offset, s.Last.Src())
	if end <= p0.Offset {
		end = min(p0.Offset+len(s.First.Src()), len(sf.content))
	}
	l, c := sf.lineCol(end - 1)
	r.End = fs.Pos(token.Position{Filename: p1.Filename, Line: l, Column: c, Offset: end - 1})
	return r, sf.content[p0.Offset:end]
}

// tokenEnd returns the offset after the token spelled src at off in
// content; when the token came from a macro expansion (its spelling is not
// at off), the end of the macro invocation.
func tokenEnd(content string, off int, src []byte) int {
	if off+len(src) <= len(content) && content[off:off+len(src)] == string(src) {
		return off + len(src)
	}
	// A macro invocation: an identifier, optionally followed by arguments.
	i := off
	for i < len(content) && isIdent(content[i]) {
		i++
	}
	if i == off {
		return min(off+1, len(content))
	}
	j := i
	for j < len(content) && (content[j] == ' ' || content[j] == '\t' || content[j] == '\n' || content[j] == '\r') {
		j++
	}
	if j >= len(content) || content[j] != '(' {
		return i
	}
	depth := 0
	for k := j; k < len(content); k++ {
		switch content[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k + 1
			}
		case '"', '\'':
			q := content[k]
			for k++; k < len(content) && content[k] != q; k++ {
				if content[k] == '\\' {
					k++
				}
			}
		}
	}
	return i
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
