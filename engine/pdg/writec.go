package pdg

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// WriteC writes the slice as a C program built from the original source
// lines (sources maps file names to their contents; files missing from it
// are skipped with a comment). Everything outside function bodies (types,
// globals, prototypes, macros) is kept, and so is the structure of every
// function body: braces, labels, declarations, returns, jumps. Inside
// bodies, the source of every irrelevant operation is removed: an
// irrelevant assignment or call becomes an empty statement, an irrelevant
// condition becomes __VERIFIER_nondet_int() (relevant operations nested in
// either are kept, joined by commas); calls that end the execution (abort,
// exit) stay. The result has the slice's behaviour on the relevant
// operations, compiles when the original does (in the usual cases), and
// keeps every line at its original line number (#line directives).
func (s *Slice) WriteC(w io.Writer, sources map[string]string) error {
	p := s.g.Prog
	// Edges by file.
	byFile := map[string][]*cfa.Edge{}
	var files []string
	for _, f := range p.Funcs {
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if file := e.Pos.Start.File; file != "" {
					if _, ok := byFile[file]; !ok {
						files = append(files, file)
					}
					byFile[file] = append(byFile[file], e)
				}
			}
		}
	}
	for _, f := range p.Files {
		if _, ok := byFile[f]; !ok {
			files = append(files, f)
			byFile[f] = nil
		}
	}
	sort.Strings(files)
	var b strings.Builder
	b.WriteString("extern int __VERIFIER_nondet_int(void);\n")
	for _, file := range files {
		src, ok := sources[file]
		if !ok {
			fmt.Fprintf(&b, "/* %s: source not available */\n", file)
			continue
		}
		fmt.Fprintf(&b, "#line 1 %q\n", file)
		b.WriteString(s.sliceFile(src, byFile[file]))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// span is a character range of a source file: line and column of its
// first and last character (1-based, inclusive).
type span struct{ l1, c1, l2, c2 int }

func spanOf(e *cfa.Edge) (span, bool) {
	st, en := e.Pos.Start, e.Pos.End
	if st.Line <= 0 || st.Col <= 0 {
		return span{}, false
	}
	if en.Line < st.Line || en.Line == st.Line && en.Col < st.Col || en.File != "" && en.File != st.File {
		en = st
	}
	return span{st.Line, st.Col, en.Line, en.Col}, true
}

func (a span) contains(b span) bool {
	return (a.l1 < b.l1 || a.l1 == b.l1 && a.c1 <= b.c1) && (b.l2 < a.l2 || b.l2 == a.l2 && b.c2 <= a.c2)
}

func (a span) before(b span) bool { return a.l1 < b.l1 || a.l1 == b.l1 && a.c1 < b.c1 }

// sliceFile rewrites one file's source.
func (s *Slice) sliceFile(src string, edges []*cfa.Edge) string {
	lines := strings.SplitAfter(src, "\n")
	// Kept spans: relevant edges, declarations, returns, no-ops.
	var kept []span
	type cut struct {
		sp   span
		cond bool
	}
	var cuts []cut
	for _, e := range edges {
		sp, ok := spanOf(e)
		if !ok {
			continue
		}
		switch op := e.Op.(type) {
		case *cfa.Decl, *cfa.Return, *cfa.Noop, *cfa.Unsupported:
			kept = append(kept, sp)
			continue
		case *cfa.Call:
			// Calls that end the execution are control flow.
			if e.To.Terminal || op.Fn != "" && s.g.Prog.Func(op.Fn) == nil && externKindIn(s.g.Prog, op.Fn).mayStop() {
				kept = append(kept, sp)
				continue
			}
			if s.Contains(e) {
				kept = append(kept, sp)
			} else {
				cuts = append(cuts, cut{sp, false})
			}
		case *cfa.Assume:
			if t := strings.TrimSpace(e.Text); strings.HasPrefix(t, "case ") || strings.HasPrefix(t, "default") {
				kept = append(kept, sp)
				continue
			}
			if s.Contains(e) {
				kept = append(kept, sp)
			} else {
				cuts = append(cuts, cut{sp, true})
			}
		default:
			if s.Contains(e) {
				kept = append(kept, sp)
			} else {
				cuts = append(cuts, cut{sp, false})
			}
		}
	}
	// A cut that overlaps a kept declaration or return stays (a
	// declaration's initializer, a return's value).
	overlaps := func(a, b span) bool {
		return !(a.l2 < b.l1 || a.l2 == b.l1 && a.c2 < b.c1 || b.l2 < a.l1 || b.l2 == a.l1 && b.c2 < a.c1)
	}
	// Outermost cuts only; drop cuts overlapping kept spans that they do
	// not contain.
	slices.SortFunc(cuts, func(a, b cut) int {
		switch {
		case a.sp.before(b.sp):
			return -1
		case b.sp.before(a.sp):
			return 1
		case a.sp == b.sp:
			return 0
		case a.sp.contains(b.sp):
			return -1 // the outer span first
		}
		return 1
	})
	var outer []cut
	for _, c := range cuts {
		if len(outer) > 0 && outer[len(outer)-1].sp.contains(c.sp) {
			continue
		}
		bad := false
		for _, k := range kept {
			if overlaps(c.sp, k) && !c.sp.contains(k) {
				bad = true
				break
			}
		}
		if !bad {
			outer = append(outer, c)
		}
	}
	// Apply cuts from the last to the first, so earlier columns stay
	// valid.
	for i := len(outer) - 1; i >= 0; i-- {
		c := outer[i]
		var islands []string
		for _, k := range kept {
			if c.sp.contains(k) && !containedInAny(k, kept) {
				islands = append(islands, spanText(lines, k))
			}
		}
		repl := strings.Join(islands, ", ")
		if c.cond {
			if repl != "" {
				repl += ", "
			}
			repl += "__VERIFIER_nondet_int()"
		}
		replace(lines, c.sp, repl)
	}
	return strings.Join(lines, "")
}

// containedInAny reports whether k lies strictly inside another span of
// ks (so only the outermost kept spans become islands).
func containedInAny(k span, ks []span) bool {
	for _, o := range ks {
		if o != k && o.contains(k) {
			return true
		}
	}
	return false
}

func spanText(lines []string, sp span) string {
	if sp.l1 > len(lines) {
		return ""
	}
	var b strings.Builder
	for l := sp.l1; l <= sp.l2 && l <= len(lines); l++ {
		line := strings.TrimRight(lines[l-1], "\n")
		from, to := 0, len(line)
		if l == sp.l1 {
			from = min(sp.c1-1, len(line))
		}
		if l == sp.l2 {
			to = min(sp.c2, len(line))
		}
		if from < to {
			b.WriteString(line[from:to])
		}
		if l < sp.l2 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// replace puts repl in place of span sp, blanking the span's further
// lines (so line numbers stay).
func replace(lines []string, sp span, repl string) {
	if sp.l1 > len(lines) {
		return
	}
	for l := sp.l1; l <= sp.l2 && l <= len(lines); l++ {
		line := lines[l-1]
		nl := ""
		if strings.HasSuffix(line, "\n") {
			line, nl = line[:len(line)-1], "\n"
		}
		from, to := 0, len(line)
		if l == sp.l1 {
			from = min(sp.c1-1, len(line))
		}
		if l == sp.l2 {
			to = min(sp.c2, len(line))
		}
		if from > to {
			continue
		}
		r := ""
		if l == sp.l1 {
			r = repl
		}
		lines[l-1] = line[:from] + r + line[to:] + nl
	}
}
