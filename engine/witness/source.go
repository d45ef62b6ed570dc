package witness

import (
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/ctext"
	"github.com/reverify/reverify/engine/frontend/csyntax"
)

// srcFile is one source file as the witness writers see it: the original
// bytes (hashed), a masked copy in which comments, string and character
// literals and preprocessor lines are blanked out (newlines kept, so that
// offsets, lines and columns agree), and the offsets of line starts.
//
// The CFA knows where each edge's construct starts and ends, but not the
// keyword of the statement a condition belongs to, nor where the statement
// after an assignment begins; the writers recover both from the source
// (see enclosingBranch and nextStatement).
type srcFile struct {
	name  string
	text  []byte
	code  []byte
	lines []int // lines[i] is the offset of line i+1
	// branches caches enclosingBranch by offset.
	branches map[int]*branchCtx
}

func newSrcFile(name string, text []byte) *srcFile {
	f := &srcFile{name: name, text: text, code: ctext.Mask(text), branches: map[int]*branchCtx{}}
	f.lines = append(f.lines, 0)
	for i, c := range text {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// offset converts a 1-based line and column (bytes) into an offset.
func (f *srcFile) offset(p cfa.Pos) (int, bool) {
	if f == nil || p.Line < 1 || p.Line > len(f.lines) || p.Col < 1 {
		return 0, false
	}
	off := f.lines[p.Line-1] + p.Col - 1
	end := len(f.text)
	if p.Line < len(f.lines) {
		end = f.lines[p.Line]
	}
	if off >= end {
		return 0, false
	}
	return off, true
}

// pos converts an offset into a position.
func (f *srcFile) pos(off int) cfa.Pos {
	lo, hi := 0, len(f.lines)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if f.lines[m] <= off {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return cfa.Pos{File: f.name, Line: lo + 1, Col: off - f.lines[lo] + 1}
}

// span returns the half-open offset range [lo, hi) of r (whose End is
// inclusive).
func (f *srcFile) span(r cfa.Range) (lo, hi int, ok bool) {
	lo, ok1 := f.offset(r.Start)
	e, ok2 := f.offset(r.End)
	if !ok1 || !ok2 || e < lo {
		return 0, 0, false
	}
	return lo, e + 1, true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '$'
}

// skipSpace returns the first offset ≥ i that is not blank in the masked
// code.
func (f *srcFile) skipSpace(i int) int {
	for i < len(f.code) && isSpace(f.code[i]) {
		i++
	}
	return i
}

// skipSpaceBack returns the last offset ≤ i that is not blank (or -1).
func (f *srcFile) skipSpaceBack(i int) int {
	for i >= 0 && isSpace(f.code[i]) {
		i--
	}
	return i
}

// wordAt returns the identifier starting at i.
func (f *srcFile) wordAt(i int) string {
	j := i
	for j < len(f.code) && isIdent(f.code[j]) {
		j++
	}
	return string(f.code[i:j])
}

// wordBefore returns the identifier ending just before offset i (after
// blanks) and its start.
func (f *srcFile) wordBefore(i int) (string, int) {
	j := f.skipSpaceBack(i - 1)
	end := j + 1
	for j >= 0 && isIdent(f.code[j]) {
		j--
	}
	return string(f.code[j+1 : end]), j + 1
}

// matchForward returns the offset of the bracket closing the one at i.
func (f *srcFile) matchForward(i int) (int, bool) {
	open := f.code[i]
	var close byte
	switch open {
	case '(':
		close = ')'
	case '[':
		close = ']'
	case '{':
		close = '}'
	default:
		return 0, false
	}
	depth := 0
	for j := i; j < len(f.code); j++ {
		switch f.code[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}

// matchBack returns the offset of the parenthesis opening the one
// closing at i.
func (f *srcFile) matchBack(i int) (int, bool) {
	depth := 0
	for j := i; j >= 0; j-- {
		switch f.code[j] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}

// trimSpan removes blanks around [lo, hi) and parentheses enclosing all of
// it, so that "(x > 0)" and "x > 0" compare equal.
func (f *srcFile) trimSpan(lo, hi int) (int, int) {
	for {
		for lo < hi && isSpace(f.code[lo]) {
			lo++
		}
		for hi > lo && isSpace(f.code[hi-1]) {
			hi--
		}
		if lo < hi && f.code[lo] == '(' {
			if m, ok := f.matchForward(lo); ok && m == hi-1 {
				lo++
				hi--
				continue
			}
		}
		return lo, hi
	}
}

// callCloseParen returns the offset of the right parenthesis closing the
// argument list of the call of fn (the last call of fn when fn is empty)
// that ends the range [lo, hi): the location of function_enter and
// function_return waypoints.
func (f *srcFile) callCloseParen(lo, hi int, fn string) (int, bool) {
	if hi <= lo || hi > len(f.code) || f.code[hi-1] != ')' {
		return 0, false
	}
	if fn == "" {
		return hi - 1, true
	}
	for i := lo; i+len(fn) <= hi; i++ {
		if string(f.code[i:i+len(fn)]) != fn || i > 0 && isIdent(f.code[i-1]) || i+len(fn) < len(f.code) && isIdent(f.code[i+len(fn)]) {
			continue
		}
		j := f.skipSpace(i + len(fn))
		if j >= hi || f.code[j] != '(' {
			continue
		}
		if m, ok := f.matchForward(j); ok && m == hi-1 {
			return m, true
		}
	}
	return 0, false
}

// nextStatement returns the start of the statement that follows the
// expression statement or declaration ending at offset end (exclusive),
// when that statement is the next one executed: the expression must be
// followed by ";" and the next token must start a statement of the same
// block (not "}", "else", the "while" ending a do loop, a case label, or
// the end of the file). It is where an assumption waypoint about the value just
// stored is evaluated.
func (f *srcFile) nextStatement(end int) (int, bool) {
	i := f.skipSpace(end)
	if i >= len(f.code) || f.code[i] != ';' {
		return 0, false
	}
	i = f.skipSpace(i + 1)
	if i >= len(f.code) {
		return 0, false
	}
	switch c := f.code[i]; {
	case c == '}':
		return 0, false
	case isIdent(c):
		switch f.wordAt(i) {
		case "else", "case", "default":
			return 0, false
		case "while":
			// The end of "do … while (c);" is no statement.
			j := f.skipSpace(i + len("while"))
			if j >= len(f.code) || f.code[j] != '(' {
				return 0, false
			}
			m, ok := f.matchForward(j)
			if !ok {
				return 0, false
			}
			if k := f.skipSpace(m + 1); k >= len(f.code) || f.code[k] == ';' {
				return 0, false
			}
		}
	}
	return i, true
}

// branchCtx is a branching statement whose controlling expression
// contains a condition of the CFA.
type branchCtx struct {
	keyword string // "if", "while", "for", "switch"
	kwOff   int    // offset of the keyword
	doWhile bool   // "while" ending a do statement
	tree    *cnode // the controlling expression; nil if it cannot be parsed
}

// enclosingBranch finds the branching statement (if, while, for, switch)
// whose controlling expression contains offset off, by scanning the masked
// code backwards for the unmatched "(" after the keyword. Conditions in
// value position (a && b as a value, ?: outside a controlling expression,
// __VERIFIER_assume(c), function arguments) have none.
func (f *srcFile) enclosingBranch(off int) *branchCtx {
	if b, ok := f.branches[off]; ok {
		return b
	}
	b := f.scanBranch(off)
	f.branches[off] = b
	return b
}

func (f *srcFile) scanBranch(off int) *branchCtx {
	depth, semis := 0, 0
	for i := off - 1; i >= 0; i-- {
		switch f.code[i] {
		case ')', ']':
			depth++
		case '[':
			if depth > 0 {
				depth--
				continue
			}
			return nil
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			word, ws := f.wordBefore(i)
			switch word {
			case "if", "while", "switch":
				if semis != 0 {
					return nil
				}
				return f.branchAt(word, ws, i)
			case "for":
				if semis != 1 {
					return nil
				}
				return f.branchAt(word, ws, i)
			case "":
				// A grouping parenthesis, unless it calls the value of
				// an expression: (*fp)(…), a[i](…).
				if j := f.skipSpaceBack(i - 1); j >= 0 && (f.code[j] == ')' || f.code[j] == ']') {
					return nil
				}
			default:
				// A call, sizeof, a cast's operand after return, …: value
				// position.
				return nil
			}
		case ';':
			if depth == 0 {
				semis++
				if semis > 1 {
					return nil
				}
			}
		case '{', '}':
			if depth == 0 {
				return nil
			}
		}
	}
	return nil
}

// branchAt builds the context of the statement with keyword kw at kwOff
// whose parenthesis opens at open.
func (f *srcFile) branchAt(kw string, kwOff, open int) *branchCtx {
	b := &branchCtx{keyword: kw, kwOff: kwOff}
	close, ok := f.matchForward(open)
	if !ok {
		return b
	}
	lo, hi := open+1, close
	if kw == "for" {
		// The controlling expression is the second clause.
		var semis []int
		depth := 0
		for i := lo; i < hi; i++ {
			switch f.code[i] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ';':
				if depth == 0 {
					semis = append(semis, i)
				}
			}
		}
		if len(semis) != 2 {
			return b
		}
		lo, hi = semis[0]+1, semis[1]
	}
	if kw == "while" {
		if j := f.skipSpace(close + 1); j < len(f.code) && f.code[j] == ';' {
			// "do … while (c);" (or an empty while loop, which is
			// indistinguishable here): its branching keyword is not
			// well defined, so no waypoint is placed.
			b.doWhile = true
		}
	}
	b.tree = parseCond(f, lo, hi)
	return b
}

// cnode is a node of a controlling expression, parsed only as far as the
// front end splits conditions into CFA assume edges: the comma operator,
// ?:, ||, &&, ! and parentheses; everything else is an atom evaluated by
// one pair of assume edges.
type cnode struct {
	kind   cnodeKind
	lo, hi int // trimmed source range
	kids   []*cnode
	parent *cnode
	konst  *bool // for atoms that are integer literals: their truth
}

type cnodeKind uint8

const (
	cAtom cnodeKind = iota
	cNot
	cAnd
	cOr
	cCond  // kids: condition, then, else
	cComma // value of the last kid
)

type ctok struct {
	lo, hi int
	s      string
	kind   byte // 'i' identifier or keyword, 'n' number, 'p' punctuator
}

var puncts = []string{
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
}

// tokenize splits the masked code in [lo, hi) into C tokens.
func tokenize(code []byte, lo, hi int) []ctok {
	var toks []ctok
	for i := lo; i < hi; {
		c := code[i]
		switch {
		case isSpace(c):
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < hi && code[i+1] >= '0' && code[i+1] <= '9':
			j := i + 1
			for j < hi && (isIdent(code[j]) || code[j] == '.' ||
				(code[j] == '+' || code[j] == '-') && strings.ContainsRune("eEpP", rune(code[j-1]))) {
				j++
			}
			toks = append(toks, ctok{i, j, string(code[i:j]), 'n'})
			i = j
		case isIdent(c):
			j := i + 1
			for j < hi && isIdent(code[j]) {
				j++
			}
			toks = append(toks, ctok{i, j, string(code[i:j]), 'i'})
			i = j
		default:
			n := 1
			for _, p := range puncts {
				if i+len(p) <= hi && string(code[i:i+len(p)]) == p {
					n = len(p)
					break
				}
			}
			toks = append(toks, ctok{i, i + n, string(code[i : i+n]), 'p'})
			i += n
		}
	}
	return toks
}

// parseCond parses the controlling expression in [lo, hi); nil if it is
// empty or unbalanced.
func parseCond(f *srcFile, lo, hi int) *cnode {
	toks := tokenize(f.code, lo, hi)
	if len(toks) == 0 {
		return nil
	}
	// match[i] is the index of the bracket matching toks[i].
	match := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		match[i] = -1
		switch t.s {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			if len(stack) == 0 {
				return nil
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			match[o], match[i] = i, o
		}
	}
	if len(stack) != 0 {
		return nil
	}
	p := &condParser{f: f, toks: toks, match: match}
	return p.parse(0, len(toks), nil)
}

type condParser struct {
	f     *srcFile
	toks  []ctok
	match []int
}

var assignOps = map[string]bool{"=": true, "*=": true, "/=": true, "%=": true, "+=": true, "-=": true,
	"<<=": true, ">>=": true, "&=": true, "^=": true, "|=": true}

// topLevel returns the indices of the tokens in [lo, hi) outside brackets.
func (p *condParser) topLevel(lo, hi int) []int {
	var idx []int
	for i := lo; i < hi; i++ {
		idx = append(idx, i)
		if p.match[i] > i {
			i = p.match[i]
		}
	}
	return idx
}

func (p *condParser) node(kind cnodeKind, lo, hi int, parent *cnode) *cnode {
	a, b := p.f.trimSpan(p.toks[lo].lo, p.toks[hi-1].hi)
	return &cnode{kind: kind, lo: a, hi: b, parent: parent}
}

func (p *condParser) parse(lo, hi int, parent *cnode) *cnode {
	if lo >= hi {
		return nil
	}
	// Outer parentheses.
	for p.toks[lo].s == "(" && p.match[lo] == hi-1 && hi-lo > 2 {
		lo, hi = lo+1, hi-1
	}
	top := p.topLevel(lo, hi)
	// Comma.
	var commas []int
	for _, i := range top {
		if p.toks[i].s == "," {
			commas = append(commas, i)
		}
	}
	if len(commas) > 0 {
		n := p.node(cComma, lo, hi, parent)
		start := lo
		for _, c := range append(commas, hi) {
			k := p.parse(start, c, n)
			if k == nil {
				return nil
			}
			n.kids = append(n.kids, k)
			start = c + 1
		}
		return n
	}
	// An assignment at the top makes the whole expression one value.
	for _, i := range top {
		if assignOps[p.toks[i].s] {
			return p.atom(lo, hi, parent)
		}
	}
	// ?: (right-associative: split at the first "?").
	for k, i := range top {
		if p.toks[i].s != "?" {
			continue
		}
		nest := 0
		for _, j := range top[k+1:] {
			switch p.toks[j].s {
			case "?":
				nest++
			case ":":
				if nest > 0 {
					nest--
					continue
				}
				n := p.node(cCond, lo, hi, parent)
				c, a, b := p.parse(lo, i, n), p.parse(i+1, j, n), p.parse(j+1, hi, n)
				if c == nil || a == nil || b == nil {
					return nil
				}
				n.kids = []*cnode{c, a, b}
				return n
			}
		}
		return nil
	}
	// || then && (left-associative: split at the last one).
	for _, op := range []string{"||", "&&"} {
		for k := len(top) - 1; k >= 0; k-- {
			i := top[k]
			if p.toks[i].s != op {
				continue
			}
			kind := cOr
			if op == "&&" {
				kind = cAnd
			}
			n := p.node(kind, lo, hi, parent)
			a, b := p.parse(lo, i, n), p.parse(i+1, hi, n)
			if a == nil || b == nil {
				return nil
			}
			n.kids = []*cnode{a, b}
			return n
		}
	}
	// ! applied to a whole unary expression.
	if p.toks[lo].s == "!" && p.isUnary(lo+1, hi) {
		n := p.node(cNot, lo, hi, parent)
		k := p.parse(lo+1, hi, n)
		if k == nil {
			return nil
		}
		n.kids = []*cnode{k}
		return n
	}
	return p.atom(lo, hi, parent)
}

func (p *condParser) atom(lo, hi int, parent *cnode) *cnode {
	n := p.node(cAtom, lo, hi, parent)
	if hi-lo == 1 && p.toks[lo].kind == 'n' {
		if v, ok := csyntax.ParseIntLiteral(p.toks[lo].s); ok {
			t := v != 0
			n.konst = &t
		}
	}
	return n
}

// isUnary reports whether the tokens in [lo, hi) form one unary expression:
// no binary operator outside brackets.
func (p *condParser) isUnary(lo, hi int) bool {
	if lo >= hi {
		return false
	}
	operand := false
	for _, i := range p.topLevel(lo, hi) {
		t := p.toks[i]
		switch {
		case t.kind == 'i' || t.kind == 'n':
			if t.s == "sizeof" || t.s == "_Alignof" {
				operand = false
				continue
			}
			operand = true
		case t.s == "(" || t.s == "[":
			operand = true
		case t.s == "." || t.s == "->":
			operand = false
		case t.s == "++" || t.s == "--":
			// prefix or postfix: neither binary
		case t.s == "!" || t.s == "~":
			if operand {
				return false
			}
		case t.s == "*" || t.s == "&" || t.s == "+" || t.s == "-":
			if operand {
				return false
			}
		default:
			// Every other punctuator is binary (or ?:, or ,).
			return false
		}
	}
	return true
}

// find returns the atom whose trimmed range is [lo, hi).
func (n *cnode) find(lo, hi int) *cnode {
	if n == nil {
		return nil
	}
	if n.kind == cAtom {
		if n.lo == lo && n.hi == hi {
			return n
		}
		return nil
	}
	for _, k := range n.kids {
		if a := k.find(lo, hi); a != nil {
			return a
		}
	}
	return nil
}

// outcome computes the value of the whole controlling expression after
// atom a evaluated to v, if a is the last atom evaluated: decisive is
// false when more atoms must be evaluated first. It relies on && and ||
// yielding the value of their last evaluated operand, and handles
// operands that are integer literals (which the front end folds into
// jumps without assume edges).
func outcome(a *cnode, v bool) (value, decisive bool) {
	cur := a
	for p := cur.parent; p != nil; cur, p = p, p.parent {
		switch p.kind {
		case cNot:
			v = !v
		case cAnd, cOr:
			if cur == p.kids[0] && v == (p.kind == cAnd) {
				// No short circuit: the right operand comes next.
				r := p.kids[1]
				if r.konst == nil {
					return false, false
				}
				v = *r.konst
			}
		case cCond:
			if cur == p.kids[0] {
				next := p.kids[2]
				if v {
					next = p.kids[1]
				}
				if next.konst == nil {
					return false, false
				}
				v = *next.konst
			}
		case cComma:
			if cur != p.kids[len(p.kids)-1] {
				return false, false
			}
		}
	}
	return v, true
}
