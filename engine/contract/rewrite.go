package contract

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Kind is the kind of a contract clause (CBMC 6's contract language,
// https://diffblue.github.io/cbmc/contracts-user.html).
type Kind uint8

// Clause kinds: a function's requires, ensures and assigns, a loop's
// invariant, decreases and assigns.
const (
	Requires Kind = iota
	Ensures
	Assigns
	Frees
	LoopInvariant
	Decreases
)

var kindNames = [...]string{"requires", "ensures", "assigns", "frees", "loop invariant", "decreases"}

func (k Kind) String() string { return kindNames[k] }

// clauseKeywords are CBMC's clause names.
var clauseKeywords = map[string]Kind{
	"__CPROVER_requires":       Requires,
	"__CPROVER_ensures":        Ensures,
	"__CPROVER_assigns":        Assigns,
	"__CPROVER_frees":          Frees,
	"__CPROVER_loop_invariant": LoopInvariant,
	"__CPROVER_decreases":      Decreases,
}

// Clause is one clause as written: its kind and the text between its
// parentheses, exactly as in the file (macros unexpanded), and where that
// text starts.
type Clause struct {
	Kind Kind
	Text string
	Line int // 1-based line of the first byte of Text
	Col  int // 1-based column
}

// Func is the contract of one function as its declaration or definition
// states it: the declarator's name (as written: a macro that names the
// function expands where the generated text uses it), the text before the
// name (return type and specifiers) and between the parameter list's
// parentheses, and the clauses in order.
type Func struct {
	Name    string
	Ret     string
	Params  string
	File    string
	Line    int // line of the name
	Def     bool
	Clauses []Clause
	// Real and Kept, when Real is not "", are the function's name and
	// its parameters' names as the preprocessor leaves them (a macro
	// that names the function may add a namespace and drop parameters:
	// mlkem-native's context parameter); the generated text then names
	// the function by Real and declares and passes only Kept.
	Real string
	Kept []string
	// CallAsWritten: the name as written is still a macro where the
	// generated text goes; the function is called through it with every
	// parameter as written (the macro drops what it drops), else by Real
	// with Kept.
	CallAsWritten bool
}

// Aliases maps the names of the macros a project writes contracts with to
// what they forward to: a CBMC clause or memory predicate
// (mlkem-native's `requires(...)` → "__CPROVER_requires"), or "" for a
// transparent wrapper (`__contract__(x) x`, `__loop__(x) x`).
type Aliases map[string]string

var (
	defineRE   = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)[ \t]*(.*)$`)
	forwardRE  = regexp.MustCompile(`^\(?\s*([A-Za-z_]\w*)\s*\(`)
	identityRE = regexp.MustCompile(`^\(?\s*([A-Za-z_]\w*)\s*\)?$`)
)

// FindAliases reads the function-like #define lines of texts: a macro
// whose replacement calls a CBMC contract name (or an alias of one) is an
// alias of it; a macro of one parameter whose replacement is that
// parameter is a transparent wrapper. Conditional compilation is not
// evaluated: of several definitions, one that forwards wins.
func FindAliases(texts ...string) Aliases {
	al := Aliases{}
	type def struct{ name, params, body string }
	var defs []def
	for _, t := range texts {
		if !strings.Contains(t, "define") {
			continue
		}
		for _, m := range defineRE.FindAllStringSubmatch(t, -1) {
			body := strings.TrimSpace(stripComments(m[3]))
			if i := strings.Index(body, "/*"); i >= 0 { // a comment going on below
				body = strings.TrimSpace(body[:i])
			}
			defs = append(defs, def{m[1], strings.TrimSpace(m[2]), strings.TrimSpace(strings.TrimSuffix(body, "\\"))})
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range defs {
			if _, ok := al[d.name]; ok {
				continue
			}
			if m := identityRE.FindStringSubmatch(d.body); m != nil && m[1] == d.params && !strings.Contains(d.params, ",") {
				if _, ok := al[d.name]; !ok {
					al[d.name] = ""
					changed = true
				}
				continue
			}
			m := forwardRE.FindStringSubmatch(d.body)
			if m == nil {
				continue
			}
			target := m[1]
			if t, ok := al[target]; ok && t != "" {
				target = t
			}
			if strings.HasPrefix(target, "__CPROVER_") {
				al[d.name] = target
				changed = true
			}
		}
	}
	return al
}

// kindOf resolves name to a clause kind.
func (al Aliases) kindOf(name string) (Kind, bool) {
	if t, ok := al[name]; ok && t != "" {
		name = t
	}
	k, ok := clauseKeywords[name]
	return k, ok
}

// wrapper reports whether name is a transparent wrapper.
func (al Aliases) wrapper(name string) bool {
	t, ok := al[name]
	return ok && t == ""
}

// Resolve returns the CBMC name name forwards to, or name.
func (al Aliases) Resolve(name string) string {
	if t, ok := al[name]; ok && t != "" {
		return t
	}
	return name
}

type token struct {
	text       string
	start, end int // byte offsets
}

// tokens splits C text into identifiers, numbers and punctuators, skipping
// comments, string and character literals (kept as one token) and
// preprocessor lines.
func tokens(s string) []token {
	var ts []token
	lineStart := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				i = len(s)
			} else {
				i += j + 4
			}
			continue
		case c == '#' && lineStart:
			for i < len(s) && s[i] != '\n' {
				if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n' {
					i++
				} else if s[i] == '/' && i+1 < len(s) && s[i+1] == '*' {
					j := strings.Index(s[i+2:], "*/")
					if j < 0 {
						i = len(s)
						break
					}
					i += j + 3
				}
				i++
			}
			continue
		}
		lineStart = false
		start := i
		switch {
		case c == '"' || c == '\'':
			i++
			for i < len(s) && s[i] != c && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		default:
			i++
		}
		if i > len(s) {
			i = len(s)
		}
		ts = append(ts, token{s[start:i], start, i})
	}
	return ts
}

// isIdent reports whether t is an identifier.
func isIdent(t string) bool {
	if t == "" {
		return false
	}
	c := t[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// match returns the index of the token closing the bracket at ts[i], or -1.
func match(ts []token, i int) int {
	open := ts[i].text
	closer := map[string]string{"(": ")", "{": "}", "[": "]"}[open]
	depth := 0
	for j := i; j < len(ts); j++ {
		switch ts[j].text {
		case open:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// call is one clause call or wrapper in a region: the head token, the
// open and close parentheses.
type call struct{ head, open, close int }

// region reads the clause calls starting at ts[i]: clauses and the
// wrappers around them. It returns the calls (clauses and wrappers) and
// the index after the region; ok is false when ts[i] starts no clause.
func (al Aliases) region(ts []token, i int) (calls []call, end int, ok bool) {
	j := i
	for j+1 < len(ts) && ts[j+1].text == "(" {
		_, isClause := al.kindOf(ts[j].text)
		if !isClause && !al.wrapper(ts[j].text) {
			break
		}
		cl := match(ts, j+1)
		if cl < 0 {
			return nil, i, false
		}
		if isClause {
			calls = append(calls, call{j, j + 1, cl})
			j = cl + 1
			continue
		}
		inner, e, ok := al.region(ts, j+2)
		if !ok || e != cl {
			return nil, i, false
		}
		calls = append(calls, call{j, j + 1, cl})
		calls = append(calls, inner...)
		j = cl + 1
	}
	return calls, j, len(calls) > 0
}

// Rewrite finds the contract clauses of file's text: after a function
// declarator, before its body or the declaration's ';', and after a
// for/while loop's header, before its body. A function's clauses are
// blanked (every newline kept, so every other position stays) and
// returned; a loop's clauses become declarations
// `__typeof__((text)) __reverify_loop_<kind>_<n>;` at the start of its
// body (the body's '{' moves before them), which the translator reads as
// the loop's contract. A clause anywhere else, or a loop contract before
// a body without braces, is an error naming the position.
func Rewrite(file, text string, al Aliases) (string, []*Func, error) {
	if !strings.Contains(text, "__CPROVER_") && !mentionsAny(text, al) {
		return text, nil, nil
	}
	ts := tokens(text)
	b := []byte(text)
	type insert struct {
		at   int
		text string
	}
	var inserts []insert
	var funcs []*Func
	depth := 0
	loopN := 0
	lastTop := -1 // index of the last ';' or '}' at depth 0
	for i := 0; i < len(ts); i++ {
		t := ts[i].text
		switch t {
		case "{":
			depth++
			continue
		case "}":
			depth--
			if depth == 0 {
				lastTop = i
			}
			continue
		case ";":
			if depth == 0 {
				lastTop = i
			}
			continue
		}
		_, isClause := al.kindOf(t)
		if !isIdent(t) || !(isClause || al.wrapper(t)) || i+1 >= len(ts) || ts[i+1].text != "(" {
			continue
		}
		calls, end, ok := al.region(ts, i)
		if !ok {
			continue
		}
		line, col := lineCol(text, ts[i].start)
		if !isClause && !hasClause(calls, ts, al) {
			continue // a wrapper around no clause: not a contract
		}
		if i == 0 || ts[i-1].text != ")" {
			return "", nil, fmt.Errorf("%s:%d:%d: contract clause %s is not after a function declarator or a loop header", file, line, col, t)
		}
		open := matchBack(ts, i-1)
		if open < 1 {
			return "", nil, fmt.Errorf("%s:%d:%d: contract clause %s: unbalanced parentheses before it", file, line, col, t)
		}
		head := ts[open-1].text
		clauses := make([]Clause, 0, len(calls))
		for _, c := range calls {
			k, isClause := al.kindOf(ts[c.head].text)
			if !isClause {
				continue
			}
			from, to := ts[c.open].end, ts[c.close].start
			l, cl := lineCol(text, from)
			clauses = append(clauses, Clause{Kind: k, Text: Implies(stripComments(text[from:to])), Line: l, Col: cl})
		}
		regionStart, regionEnd := ts[i].start, ts[end-1].end
		switch {
		case head == "for" || head == "while":
			if end >= len(ts) || ts[end].text != "{" {
				return "", nil, fmt.Errorf("%s:%d:%d: a loop contract needs a body in braces", file, line, col)
			}
			for _, c := range clauses {
				switch c.Kind {
				case LoopInvariant, Decreases, Assigns:
				default:
					return "", nil, fmt.Errorf("%s:%d:%d: %s clause on a loop", file, c.Line, c.Col, c.Kind)
				}
			}
			blank(b, regionStart, regionEnd)
			blank(b, ts[end].start, ts[end].end)
			inserts = append(inserts, insert{regionStart, "{"})
			for _, c := range calls {
				k, isClause := al.kindOf(ts[c.head].text)
				if !isClause {
					continue
				}
				loopN++
				// flattened: the clause's own newlines stay in the blanked text
				text := Implies(strings.Join(strings.Fields(strings.ReplaceAll(stripComments(text[ts[c.open].end:ts[c.close].start]), "\\\n", " ")), " "))
				if text == "" {
					text = "0"
				}
				inserts = append(inserts, insert{ts[c.head].start, fmt.Sprintf("__typeof__((%s)) %s%s_%d;", text, LoopPrefix, loopKindName[k], loopN)})
			}
		case depth == 0 && isIdent(head):
			if end >= len(ts) || ts[end].text != "{" && ts[end].text != ";" {
				return "", nil, fmt.Errorf("%s:%d:%d: contract of %s: expected '{' or ';' after its clauses", file, line, col, head)
			}
			specFrom := 0
			if lastTop >= 0 {
				specFrom = ts[lastTop].end
			}
			if lastTop+1 < len(ts) {
				specFrom = ts[lastTop+1].start
			}
			nl, _ := lineCol(text, ts[open-1].start)
			funcs = append(funcs, &Func{
				Name:    head,
				Ret:     strings.TrimSpace(text[specFrom:ts[open-1].start]),
				Params:  strings.TrimSpace(text[ts[open].end:ts[i-1].start]),
				File:    file,
				Line:    nl,
				Def:     ts[end].text == "{",
				Clauses: clauses,
			})
			blank(b, regionStart, regionEnd)
		default:
			return "", nil, fmt.Errorf("%s:%d:%d: contract clause %s is not after a function declarator or a loop header", file, line, col, t)
		}
		i = end - 1
	}
	if len(inserts) == 0 {
		return string(b), funcs, nil
	}
	// in order of position (a region's '{' before its first clause)
	out := string(b)
	sort.SliceStable(inserts, func(x, y int) bool { return inserts[x].at < inserts[y].at })
	var sb strings.Builder
	prev := 0
	for _, in := range inserts {
		sb.WriteString(out[prev:in.at])
		sb.WriteString(in.text)
		prev = in.at
	}
	sb.WriteString(out[prev:])
	return sb.String(), funcs, nil
}

// LoopPrefix starts the names of the declarations Rewrite makes of a
// loop's clauses: __reverify_loop_invariant_3, __reverify_loop_decreases_4,
// __reverify_loop_assigns_5.
const LoopPrefix = "__reverify_loop_"

var loopKindName = map[Kind]string{LoopInvariant: "invariant", Decreases: "decreases", Assigns: "assigns"}

// LoopClause returns the kind of the loop clause whose declaration is
// named name, and whether it is one.
func LoopClause(name string) (Kind, bool) {
	if !strings.HasPrefix(name, LoopPrefix) {
		return 0, false
	}
	rest := name[len(LoopPrefix):]
	for k, n := range loopKindName {
		if strings.HasPrefix(rest, n+"_") {
			return k, true
		}
	}
	return 0, false
}

func hasClause(calls []call, ts []token, al Aliases) bool {
	for _, c := range calls {
		if _, ok := al.kindOf(ts[c.head].text); ok {
			return true
		}
	}
	return false
}

func mentionsAny(text string, al Aliases) bool {
	for n := range al {
		if strings.Contains(text, n) {
			return true
		}
	}
	return false
}

// matchBack returns the index of the '(' matching the ')' at ts[i], or -1.
func matchBack(ts []token, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch ts[j].text {
		case ")":
			depth++
		case "(":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func blank(b []byte, from, to int) {
	for k := from; k < to; k++ {
		if b[k] != '\n' && b[k] != '\r' {
			b[k] = ' '
		}
	}
}

// lineCol returns the 1-based line and column of byte offset off.
func lineCol(s string, off int) (int, int) {
	line := 1 + strings.Count(s[:off], "\n")
	col := off - strings.LastIndexByte(s[:off], '\n')
	return line, col
}

// Implies rewrites CBMC's implication a ==> b in C text into
// (!(a) || (b)): ==> binds weaker than || and && and associates to the
// right; its operands end at the brackets, commas and conditional
// operators around it.
func Implies(s string) string {
	i := strings.Index(s, "==>")
	if i < 0 {
		return s
	}
	// the operand extents around the first ==>
	depth := 0
	from := 0
	for k := i - 1; k >= 0; k-- {
		switch s[k] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth == 0 {
				from = k + 1
				k = -1
				continue
			}
			depth--
		case ',', '?', ':', ';':
			if depth == 0 {
				from = k + 1
				k = -1
				continue
			}
		}
	}
	depth = 0
	to := len(s)
	for k := i + 3; k < len(s); k++ {
		switch s[k] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				to = k
				k = len(s)
				continue
			}
			depth--
		case ',', '?', ':', ';':
			if depth == 0 {
				to = k
				k = len(s)
				continue
			}
		}
	}
	a, b := strings.TrimSpace(s[from:i]), strings.TrimSpace(s[i+3:to])
	return s[:from] + "(!(" + Implies(a) + ") || (" + Implies(b) + "))" + Implies(s[to:])
}

// stripComments replaces the comments of C text by blanks (newlines
// kept).
func stripComments(s string) string {
	if !strings.Contains(s, "/") {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"' || b[i] == '\'':
			q := b[i]
			for i++; i < len(b) && b[i] != q; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			b[i], b[i+1] = ' ', ' '
			for i += 2; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		}
	}
	return string(b)
}
