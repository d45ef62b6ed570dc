package ccparse

import (
	"io"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"modernc.org/cc/v4"
)

// #pragma pack, as gcc reads it ("Structure-Layout Pragmas" in the GCC
// manual; gcc/c-family/c-pragma.cc, handle_pragma_pack): pack(N) sets
// the maximum alignment of the members of the structs and unions
// completed after it to N bytes (N in 1, 2, 4, 8, 16; pack() and pack(0)
// reset it), pack(push[, id][, N]) saves the current value on a stack
// before setting N, pack(pop[, id]) restores the saved value (popping
// down to the entry pushed with id). The value that counts for a struct
// is the one in effect at its closing brace, where gcc lays it out. A
// malformed pragma is ignored, as gcc ignores it with a warning.
//
// cc/v4 does not read #pragma pack, and its parser reads the tokens from
// the preprocessor lazily, so the position of a pragma among the tokens
// is not known from its PragmaHandler. A #pragma pack line is therefore
// rewritten, before cc/v4 sees the file, into a marker it parses where
// gcc accepts the pragma (at file scope, among the members of a struct,
// among the items of a block): a _Static_assert of 1 whose message holds
// the pragma. The sequence numbers of the markers and of the closing
// braces of the struct definitions then give the order gcc processes
// them in, also across included files and macro expansions (a
// _Pragma("pack(…)") in a macro's replacement list becomes the marker
// too). A pack pragma that is not rewritten (one cc/v4 meets through
// its PragmaHandler: an unusual spelling, or one where the marker did
// not parse) cannot be placed: every struct of its translation unit
// whose layout would differ under some pack value is then unsupported
// (the type map, engine/frontend/ctypes, answers PackUnknown).

// PackUnknown is the pack value of a struct whose #pragma pack state is
// not known (see above).
const PackUnknown = -1

// packMarker starts the message of the _Static_assert a #pragma pack
// becomes.
const packMarker = "reverify #pragma pack("

var (
	// packLineRE matches a #pragma pack directive line whose arguments
	// are words and commas: indentation, arguments, the rest of the line.
	packLineRE = regexp.MustCompile(`^([ \t]*)#[ \t]*pragma[ \t]+pack[ \t]*\(([\w \t,]*)\)(.*)$`)
	// packOperatorRE matches a _Pragma operator of a pack pragma.
	packOperatorRE = regexp.MustCompile(`\b_Pragma[ \t]*\([ \t]*"[ \t]*pack[ \t]*\(([\w \t,]*)\)[ \t]*"[ \t]*\)`)
)

// hasPackPragma reports whether content may hold a pack pragma (a cheap
// test before markPackPragmas).
func hasPackPragma(content string) bool {
	return strings.Contains(content, "pack") && (strings.Contains(content, "pragma") || strings.Contains(content, "_Pragma"))
}

// markPackPragmas rewrites the #pragma pack lines and _Pragma("pack(…)")
// operators of content into markers (see above), keeping every line
// where it is, and reports whether it rewrote any. A directive line
// continued from the line before (a macro's replacement list) is left
// alone, and so is one followed by more than a comment, whose marker
// would not stand alone.
func markPackPragmas(content string) (string, bool) {
	if !hasPackPragma(content) {
		return content, false
	}
	var b strings.Builder
	changed := false
	continued := false
	for off := 0; off < len(content); {
		end := strings.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += off
		}
		line := content[off:end]
		cr := ""
		if strings.HasSuffix(line, "\r") {
			line, cr = line[:len(line)-1], "\r"
		}
		out := line
		if !continued && strings.Contains(line, "pack") {
			if m := packLineRE.FindStringSubmatch(line); m != nil && onlyComment(m[3]) {
				out = m[1] + packMarkerDecl(m[2]) + m[3]
			}
		}
		if strings.Contains(out, "_Pragma") {
			out = packOperatorRE.ReplaceAllStringFunc(out, func(s string) string {
				return packMarkerDecl(packOperatorRE.FindStringSubmatch(s)[1])
			})
		}
		continued = strings.HasSuffix(line, `\`)
		if out != line {
			if !changed {
				b.Grow(len(content) + 64)
				b.WriteString(content[:off])
			}
			changed = true
		}
		if changed {
			b.WriteString(out)
			b.WriteString(cr)
			if end < len(content) {
				b.WriteByte('\n')
			}
		}
		off = end + 1
	}
	if !changed {
		return content, false
	}
	return b.String(), true
}

// packMarkerDecl is the marker of a pack pragma with the arguments args.
func packMarkerDecl(args string) string {
	return `_Static_assert(1, "` + packMarker + strings.Join(strings.Fields(args), " ") + `)");`
}

// onlyComment reports whether rest (what follows a directive) is blank
// or comments, the last of which may continue on the next lines.
func onlyComment(rest string) bool {
	for {
		rest = strings.TrimLeft(rest, " \t")
		switch {
		case rest == "", strings.HasPrefix(rest, "//"):
			return true
		case strings.HasPrefix(rest, "/*"):
			i := strings.Index(rest[2:], "*/")
			if i < 0 {
				return true
			}
			rest = rest[2+i+2:]
		default:
			return false
		}
	}
}

// packKind is what a pack pragma does.
type packKind uint8

const (
	packIgnored packKind = iota // malformed: gcc warns and ignores it
	packSet
	packPush
	packPop
)

// packAction is one #pragma pack.
type packAction struct {
	kind  packKind
	align int64 // packSet, packPush: bytes, 0 for none; -1: push keeps the current value
	id    string
}

// packTokens splits the arguments of a pack pragma (the text between its
// parentheses) into words and commas.
func packTokens(args string) []string {
	var r []string
	for i, part := range strings.Split(args, ",") {
		if i > 0 {
			r = append(r, ",")
		}
		r = append(r, strings.Fields(part)...)
	}
	return r
}

// parsePack reads the tokens between the parentheses of a pack pragma as
// gcc's handle_pragma_pack does.
func parsePack(toks []string) packAction {
	bad := packAction{kind: packIgnored}
	if len(toks) == 0 {
		return packAction{kind: packSet, align: 0}
	}
	var a packAction
	switch t := toks[0]; {
	case isPackNumber(t):
		n, ok := packNumber(t)
		if !ok || len(toks) != 1 {
			return bad
		}
		a = packAction{kind: packSet, align: n}
	case t == "push" || t == "pop":
		a = packAction{kind: packPush, align: -1}
		if t == "pop" {
			a.kind = packPop
		}
		i := 1
		for i < len(toks) && toks[i] == "," {
			if i+1 >= len(toks) {
				return bad
			}
			switch t := toks[i+1]; {
			case isPackName(t) && a.id == "":
				a.id = t
			case isPackNumber(t) && a.kind == packPush && a.align == -1:
				n, ok := packNumber(t)
				if !ok {
					return bad
				}
				a.align = n
			default:
				return bad
			}
			i += 2
		}
		if i != len(toks) {
			return bad
		}
	default:
		return bad
	}
	if a.kind != packPop {
		switch a.align {
		case 0, 1, 2, 4, 8, 16:
		case -1:
			if a.kind != packPush {
				return bad
			}
		default:
			return bad
		}
	}
	return a
}

func isPackName(s string) bool {
	return s != "" && (s[0] == '_' || s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

func isPackNumber(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// packNumber is the value of a C integer constant (decimal, octal,
// hexadecimal or binary, with u and l suffixes); false: not one, or out
// of range (gcc then ignores the pragma).
func packNumber(s string) (int64, bool) {
	s = strings.TrimRight(s, "uUlL")
	if s == "" || strings.ContainsAny(s, "_oO") {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// packState is gcc's maximum_field_alignment and its stack of saved
// values.
type packState struct {
	align int64
	stack []packEntry
}

type packEntry struct {
	saved int64
	id    string
}

func (s *packState) apply(a packAction) {
	switch a.kind {
	case packSet:
		s.align = a.align
	case packPush:
		s.stack = append(s.stack, packEntry{saved: s.align, id: a.id})
		if a.align >= 0 {
			s.align = a.align
		}
	case packPop:
		if len(s.stack) == 0 {
			return // gcc: pop without a matching push, ignored
		}
		if a.id != "" {
			for i := len(s.stack) - 1; i >= 0; i-- {
				if s.stack[i].id == a.id {
					s.stack = s.stack[:i+1]
					break
				}
			}
		}
		s.align = s.stack[len(s.stack)-1].saved
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// packDirective reads the tokens of a #pragma (after "pragma") that
// cc/v4 hands its PragmaHandler: ok when it is a pack pragma that has an
// effect.
func packDirective(toks []cc.Token) (packAction, bool) {
	var words []string
	for _, t := range toks {
		if s := strings.TrimSpace(t.SrcStr()); s != "" {
			words = append(words, s)
		}
	}
	if len(words) == 0 || words[0] != "pack" {
		return packAction{}, false
	}
	if len(words) < 2 || words[1] != "(" {
		return packAction{}, false // gcc: missing '(', ignored
	}
	var args []string
	for _, s := range words[2:] {
		if s == ")" {
			a := parsePack(args)
			return a, a.kind != packIgnored
		}
		args = append(args, s)
	}
	return packAction{}, false
}

// packFS serves the files of base, and those on disk, with their pack
// pragmas marked (markPackPragmas); a file on disk without one is left to
// cc/v4, which opens it itself.
type packFS struct {
	base   fs.FS
	marked atomic.Bool // a file was served with markers
}

func (p *packFS) Open(name string) (fs.File, error) {
	f, err := p.base.Open(name)
	var content string
	if err == nil {
		b, rerr := io.ReadAll(f)
		f.Close()
		if rerr != nil {
			return nil, rerr
		}
		content = string(b)
	} else {
		b, rerr := os.ReadFile(name)
		if rerr != nil {
			return nil, err
		}
		content = string(b)
	}
	if m, ok := markPackPragmas(content); ok {
		p.marked.Store(true)
		content = m
	} else if err != nil {
		return nil, err
	}
	return &memFile{name: name, r: strings.NewReader(content), size: int64(len(content))}, nil
}

// PackInfo is what a translation unit's pack pragmas do: the pack value
// of each struct and union definition (by LayoutKey; only those defined
// while a value was set, or all of them, PackUnknown, when a pragma could
// not be placed), and the constant expressions the layouts may change.
type PackInfo struct {
	Packs map[cc.Type]int64
	// Unplaced is the position of a pack pragma that could not be placed.
	Unplaced string
	// Consts are the constant expressions cc/v4 folds and the
	// translation takes as they are (array lengths, enumerators, bit-field
	// widths, alignments, designators): checked against the layouts the
	// type map owns (engine/frontend checks them).
	Consts []cc.ExpressionNode
}

// LayoutKey identifies the definition of the struct or union t: cc/v4
// copies its types (for typedef names, qualifiers, attributes), but the
// fields of every copy name the defining type as their parent. Nil for
// other types and those without a member.
func LayoutKey(t cc.Type) cc.Type {
	switch x := t.(type) {
	case *cc.StructType:
		if f := x.FieldByIndex(0); f != nil {
			return f.ParentType()
		}
	case *cc.UnionType:
		if f := x.FieldByIndex(0); f != nil {
			return f.ParentType()
		}
	}
	return nil
}

// scanPacks replays the pack markers of ast in the order of its tokens
// and records the value in effect at the closing brace of every struct
// and union definition; with unplaced set (a pragma cc/v4 met unmarked),
// every definition gets PackUnknown. It also collects the constant
// expressions of ast that the layouts may change.
func scanPacks(ast *cc.AST, unplaced string) *PackInfo {
	info := &PackInfo{Packs: map[cc.Type]int64{}, Unplaced: unplaced}
	type event struct {
		seq int
		act packAction
		def cc.Type // a definition, else a marker
	}
	var events []event
	WalkNodes(reflect.ValueOf(ast.TranslationUnit), func(n any) {
		switch x := n.(type) {
		case *cc.StaticAssertDeclaration:
			msg := x.Token4.SrcStr()
			if strings.HasPrefix(msg, `"`+packMarker) && strings.HasSuffix(msg, `)"`) {
				args := msg[1+len(packMarker) : len(msg)-2]
				events = append(events, event{seq: x.Token.Seq(), act: parsePack(packTokens(args))})
			}
		case *cc.StructOrUnionSpecifier:
			if x.Case == cc.StructOrUnionSpecifierDef {
				if k := LayoutKey(x.Type()); k != nil {
					events = append(events, event{seq: x.Token3.Seq(), def: k})
				}
			}
		case *cc.DirectDeclarator:
			info.addConst(x.AssignmentExpression)
		case *cc.DirectAbstractDeclarator:
			info.addConst(x.AssignmentExpression)
		case *cc.Enumerator:
			info.addConst(x.ConstantExpression)
		case *cc.StructDeclarator:
			info.addConst(x.ConstantExpression)
		case *cc.AlignmentSpecifier:
			info.addConst(x.ConstantExpression)
		case *cc.Designator:
			info.addConst(x.ConstantExpression)
			info.addConst(x.ConstantExpression2)
		}
	})
	sort.SliceStable(events, func(i, j int) bool { return events[i].seq < events[j].seq })
	var st packState
	for _, e := range events {
		switch {
		case e.def == nil:
			st.apply(e.act)
		case unplaced != "":
			info.Packs[e.def] = PackUnknown
		case st.align != 0:
			info.Packs[e.def] = st.align
		}
	}
	return info
}

func (p *PackInfo) addConst(n cc.ExpressionNode) {
	if n != nil && !reflect.ValueOf(n).IsNil() {
		p.Consts = append(p.Consts, n)
	}
}

// WalkNodes calls f for every AST node below v (pointers to the node
// structs of cc/v4), parents first. Lists are followed iteratively.
func WalkNodes(v reflect.Value, f func(any)) {
	for {
		switch v.Kind() {
		case reflect.Interface:
			if v.IsNil() {
				return
			}
			v = v.Elem()
			continue
		case reflect.Pointer:
			if v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type() == tokenType {
				return
			}
			f(v.Interface())
			e := v.Elem()
			fields := nodeFields(e.Type())
			// The last child that is a node of the same type (the rest of
			// a list) is walked by the loop, the others recursively.
			next := -1
			for _, i := range fields {
				if fv := e.Field(i); fv.Kind() == reflect.Pointer && fv.Type() == v.Type() && !fv.IsNil() {
					next = i
				}
			}
			for _, i := range fields {
				if i != next {
					WalkNodes(e.Field(i), f)
				}
			}
			if next < 0 {
				return
			}
			v = e.Field(next)
		default:
			return
		}
	}
}
