package cbmctext

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reverify/reverify/engine/contract"
)

// BlankQuantifiers turns CBMC's quantifiers, __CPROVER_forall { int i;
// cond ==> expr } and __CPROVER_exists { … }, which are not C, into calls
// without arguments, __CPROVER_forall(   …   ), blanking the braces'
// contents but for line continuations and newlines, so every position in
// the file stays where it was. The call is then an Unsupported edge
// naming the quantifier (in engine/frontend), UNKNOWN where it matters.
func BlankQuantifiers(s string) string {
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
// loop stops at INT_MAX), and the value is the conjunction of B over
// those i; B is evaluated only where the premise holds, as the
// implication's meaning asks, and at every such i, as every instance of
// the quantifier is: the loop has no other exit, so its iterations are
// H for a constant H, which bounded model checking unrolls at once
// (engine/bmc's floors), where an early exit costs a join per instance. Since {i | i >= 0 && i < H} is the interval
// [0, H) (i >= 0 makes the conversion of i to an unsigned H exact), this
// is the quantifier over every int, both as an assumption and as an
// assertion. __CPROVER_exists has its bounded shape (lowerExists); other
// shapes are not lowered.
func lowerQuantifier(q, inner string) (string, bool) {
	if q == "__CPROVER_exists" {
		return lowerExists(inner)
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
	return fmt.Sprintf("({ _Bool __cprover_forall = 1; for (int %s = 0; %s < (%s); %s++) { __cprover_forall &= !!(%s); if (%s == 0x7fffffff) break; } __cprover_forall; })",
		i, i, h, i, body, i), true
}

// intervalRE matches the inside of a quantifier over an interval with
// any lower bound, as contracts write it (mlkem-native's forall: T i;
// (lb <= i && i < ub) ==> body, the bounds and i possibly cast and
// parenthesised).
var intervalRE = regexp.MustCompile(`^\s*((?:unsigned|signed|const|long|short|int|char|[A-Za-z_]\w*_t|size_t)(?:\s+(?:unsigned|signed|long|short|int|char))*)\s+([A-Za-z_]\w*)\s*;\s*(.+?)\s*==>\s*(.+?)\s*$`)

// lowerInterval lowers __CPROVER_forall { T i; (lb <= i && i < ub) ==>
// body } (or i >= lb) to a statement expression that runs i over [lb,
// ub) in T, exactly the values the premise admits (i < ub bounds i + 1
// by ub, so i never wraps).
func lowerInterval(flat string) (string, bool) {
	m := intervalRE.FindStringSubmatch(flat)
	if m == nil {
		return "", false
	}
	t, i, premise, body := m[1], m[2], strings.TrimSpace(m[3]), m[4]
	for strings.HasPrefix(premise, "(") && contract.Closes(premise) {
		premise = strings.TrimSpace(premise[1 : len(premise)-1])
	}
	parts := splitAnd(premise)
	if len(parts) != 2 || strings.Contains(body, "==>") {
		return "", false
	}
	iv := `\(?\s*` + i + `\s*\)?`
	lowRE := regexp.MustCompile(`^(.+?)\s*<=\s*` + iv + `$`)
	lowRE2 := regexp.MustCompile(`^` + iv + `\s*>=\s*(.+)$`)
	highRE := regexp.MustCompile(`^` + iv + `\s*<\s*(.+)$`)
	lo := lowRE.FindStringSubmatch(strings.TrimSpace(parts[0]))
	if lo == nil {
		lo = lowRE2.FindStringSubmatch(strings.TrimSpace(parts[0]))
	}
	hi := highRE.FindStringSubmatch(strings.TrimSpace(parts[1]))
	if lo == nil || hi == nil {
		return "", false
	}
	if regexp.MustCompile(`\b` + i + `\b`).MatchString(lo[1] + hi[1]) {
		return "", false
	}
	// the loop from lb upwards meets every value the premise admits when
	// i < ub is monotone in i: i unsigned, or i signed and lb >= 0 (a
	// negative i would compare as a large unsigned value)
	if !unsignedType(t) && !nonNegativeRE.MatchString(lo[1]) {
		return "", false
	}
	guard := ""
	if t == "int" {
		guard = fmt.Sprintf(" if (%s == 0x7fffffff) break;", i)
	}
	return fmt.Sprintf("({ _Bool __cprover_forall = 1; for (%s %s = (%s); %s < (%s); %s++) { __cprover_forall &= !!(%s);%s } __cprover_forall; })",
		t, i, lo[1], i, hi[1], i, body, guard), true
}

var nonNegativeRE = regexp.MustCompile(`^[(\s]*[0-9]+[uUlL]*[)\s]*$`)

// unsignedType reports whether the type named t is unsigned.
func unsignedType(t string) bool {
	return strings.HasPrefix(t, "unsigned") || strings.HasPrefix(t, "uint") || t == "size_t" || strings.HasPrefix(t, "u_")
}

// splitAnd splits s at its top-level &&.
func splitAnd(s string) []string {
	var parts []string
	depth, from := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '&':
			if depth == 0 && k+1 < len(s) && s[k+1] == '&' {
				parts = append(parts, s[from:k])
				from = k + 2
				k++
			}
		}
	}
	return append(parts, s[from:])
}

// existsHeadRE and existsPremiseRE match the bounded existential
// quantifier __CPROVER_exists { int i; (i >= 0 && i < H) && B } (the
// shape of __CPROVER_forall's, lowerQuantifier, with a conjunction).
var (
	existsHeadRE    = regexp.MustCompile(`^\s*int\s+([A-Za-z_]\w*)\s*;\s*\(`)
	existsPremiseRE = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*>=\s*0\s*&&\s*([A-Za-z_]\w*)\s*<\s*(.+?)\s*$`)
	existsTailRE    = regexp.MustCompile(`^\s*&&\s*(.+?)\s*$`)
)

// topLevel reports whether s has one of the operators ops outside
// parentheses and brackets (a cheap scan; strings and characters in s
// make it answer true, so the caller refuses them).
func topLevel(s string, ops ...string) bool {
	if strings.ContainsAny(s, "\"'") {
		return true
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
		if depth == 0 {
			for _, op := range ops {
				if strings.HasPrefix(s[i:], op) {
					return true
				}
			}
		}
	}
	return depth != 0
}

// lowerExists turns the inside of __CPROVER_exists { int i; (i >= 0 && i
// < H) && B } into a GNU statement expression evaluating it exactly, as
// lowerQuantifier does for __CPROVER_forall: i runs over [0, H) (stopping
// at INT_MAX), and the value is the disjunction of B over those i (B
// evaluated at every one).
// The premise is the parenthesised group after the declaration; H must
// not mention i, and neither H nor B may have an operator binding looser
// than && at their top level (||, ?:, comma, ==>), and B may not
// assign (=, op=, ++, --), so that
// the quantifier's body is the conjunction of the two. Other shapes are
// not lowered (an Unsupported edge naming __CPROVER_exists).
func lowerExists(inner string) (string, bool) {
	flat := strings.NewReplacer("\\\r\n", " ", "\\\n", " ", "\n", " ", "\r", " ").Replace(inner)
	m := existsHeadRE.FindStringSubmatch(flat)
	if m == nil {
		return "", false
	}
	i := m[1]
	rest := flat[len(m[0]):]
	depth, end := 1, -1
	for k := 0; k < len(rest) && end < 0; k++ {
		switch rest[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				end = k
			}
		}
	}
	if end < 0 {
		return "", false
	}
	pm := existsPremiseRE.FindStringSubmatch(rest[:end])
	tm := existsTailRE.FindStringSubmatch(rest[end+1:])
	if pm == nil || tm == nil || pm[1] != i || pm[2] != i {
		return "", false
	}
	h, body := pm[3], tm[1]
	loose := []string{"||", "?", ",", "==>"}
	if topLevel(h, loose...) || topLevel(body, loose...) || regexp.MustCompile(`\b`+i+`\b`).MatchString(h) ||
		regexp.MustCompile(`(^|[^=!<>])=($|[^=])|\+\+|--|<<=|>>=`).MatchString(body) {
		return "", false
	}
	return fmt.Sprintf("({ _Bool __cprover_exists = 0; for (int %s = 0; %s < (%s); %s++) { __cprover_exists |= !!(%s); if (%s == 0x7fffffff) break; } __cprover_exists; })",
		i, i, h, i, body, i), true
}
