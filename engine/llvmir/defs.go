package llvmir

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strings"

	"github.com/llir/llvm/ir"

	"github.com/reverify/reverify/engine/cfa"
)

// The definitions of an IR program for change analysis (cfa.Program.Defs,
// read by diffslice): each function with a body and each global variable,
// under its CFA name, at its C lines (debug information), fingerprinted
// by its IR text. What a definition's meaning depends on besides its own
// text is part of its fingerprint: the struct and union types it names
// (transitively) and the contents of the string constants it uses. So
// a macro or a type changed in a header changes the fingerprint of every
// definition whose code it changes; callees and globals are definitions
// of their own, which the slice follows. The text is normalised so that
// what only moves does not count as a change: metadata references (debug
// locations and variables, which renumber with any edit) are dropped,
// and string constants are named by their contents, not by their
// numbering (@.str.3). Line numbers that the code itself holds (the
// __LINE__ of assert.h) do change the fingerprint.

var (
	mdRef     = regexp.MustCompile(`!([0-9]+|[A-Za-z_.][A-Za-z0-9_.]*)\b`)
	dbgAttach = regexp.MustCompile(`, !dbg ![0-9]+`)
	typeRef   = regexp.MustCompile(`%(?:"[^"]*"|[-A-Za-z$._][-A-Za-z$._0-9]*)`)
	globalRef = regexp.MustCompile(`@(?:"[^"]*"|[-A-Za-z$._][-A-Za-z$._0-9]*)`)
	typeDef   = regexp.MustCompile(`^(%(?:"[^"]*"|[-A-Za-z$._][-A-Za-z$._0-9]*)) = type (.*)$`)
)

// defs fills t.p.Defs with the module's functions (under the names of
// their CFA functions) and global variables (their CFA variables' names),
// each fingerprinted with what it depends on. bodies are the functions
// translated, names their CFA names.
func (t *translator) defs(bodies []*ir.Func, names map[*ir.Func]string) {
	s := t.src
	types := map[string]string{}
	for _, l := range s.irText {
		if m := typeDef.FindStringSubmatch(l); m != nil {
			types[m[1]] = m[2]
		}
	}
	strs := map[string]string{}
	for g, lit := range t.strs {
		strs["@"+g.Name()] = lit.Val
	}
	fp := func(lines []string) string {
		text := strings.Join(lines, "\n")
		text = dbgAttach.ReplaceAllString(text, "")
		text = mdRef.ReplaceAllString(text, "!")
		text = globalRef.ReplaceAllStringFunc(text, func(g string) string {
			if v, ok := strs[g]; ok {
				return "@str" + quote(v)
			}
			return g
		})
		h := sha256.New()
		h.Write([]byte(text))
		// the types it names, transitively, sorted
		seen := map[string]bool{}
		var order []string
		var visit func(string)
		visit = func(x string) {
			for _, r := range typeRef.FindAllString(x, -1) {
				if def, ok := types[r]; ok && !seen[r] {
					seen[r] = true
					order = append(order, r)
					visit(def)
				}
			}
		}
		visit(text)
		sort.Strings(order)
		for _, r := range order {
			h.Write([]byte("\n" + r + " = type " + types[r]))
		}
		return hex.EncodeToString(h.Sum(nil))
	}
	for _, f := range bodies {
		if s.inModel(f) {
			continue
		}
		start := s.irLines[f] - 1
		end := start
		for end < len(s.irText) && strings.TrimSpace(s.irText[end]) != "}" {
			end++
		}
		if start < 0 || end >= len(s.irText) {
			continue
		}
		pos := s.funcPos(f)
		t.p.Defs = append(t.p.Defs, cfa.Definition{Kind: cfa.DefFunc, Name: names[f], File: pos.File, Line: pos.Line,
			EndLine: max(s.funcEnd(f), pos.Line), Fingerprint: fp(s.irText[start : end+1])})
	}
	for _, g := range t.m.Globals {
		v := t.globals[g]
		if v == nil {
			continue
		}
		l := s.irLines[g] - 1
		if l < 0 || l >= len(s.irText) {
			continue
		}
		pos := s.globalPos(g)
		t.p.Defs = append(t.p.Defs, cfa.Definition{Kind: cfa.DefGlobal, Name: v.Name, File: pos.File, Line: pos.Line,
			EndLine: pos.Line, Fingerprint: fp(s.irText[l : l+1])})
	}
}

// quote is a string constant's contents as one token of the normalised
// text.
func quote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < ' ' || c > '~' || c == '"' || c == '\\' {
			b.WriteString("\\" + hex.EncodeToString([]byte{c}))
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}
