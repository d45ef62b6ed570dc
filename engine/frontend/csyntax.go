package frontend

import "strings"

// This file serves C syntax to the packages that read C text without
// translating it: identifiers, normalised token text and the uses of a
// macro or an enum (diffslice), and expressions (ParseExpr, cexpr.go).

// ScanC is the one scanner of C text outside the cc/v4 front end (used
// by diffslice for definitions' texts and by ParseExpr for witness
// expressions). It walks C source text, calling ident for every identifier and
// other for every other token character outside comments; string and
// character literals are passed to other whole. Backslash-newline line
// continuations are skipped.
func ScanC(s string, ident func(string), other func(string)) {
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return
			}
			i += end + 3
			other(" ")
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return
			}
			i += end - 1
			other(" ")
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				j = len(s) - 1
			}
			other(s[i : j+1])
			i = j
		case isWord(c):
			j := i
			for j < len(s) && isWord(s[j]) {
				j++
			}
			if c >= '0' && c <= '9' {
				other(s[i:j]) // a number
			} else {
				ident(s[i:j])
			}
			i = j - 1
		default:
			other(s[i : i+1])
		}
	}
}

// NormalizeSource returns C text without comments and with white space only
// where it separates two words; when rename is not "", every identifier
// equal to it becomes "\x00" (a name-insensitive form).
func NormalizeSource(s, rename string) string {
	var b strings.Builder
	lastWord, space := false, false
	emit := func(tok string, word bool) {
		if space && lastWord && word {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(tok)
		lastWord = word
	}
	ScanC(s, func(id string) {
		if rename != "" && id == rename {
			id = "\x00"
		}
		emit(id, true)
	}, func(t string) {
		switch t {
		case " ", "\t", "\n", "\r", "\f", "\v":
			space = true
			return
		}
		w := t[0] >= '0' && t[0] <= '9'
		emit(t, w)
	})
	return b.String()
}

// Identifiers returns the distinct Identifiers of C text (outside
// comments and literals), in order of first appearance.
func Identifiers(s string) []string {
	var out []string
	seen := map[string]bool{}
	ScanC(s, func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}, func(string) {})
	return out
}

// MacroUses returns the Identifiers of a #define's replacement list (its
// parameters excluded).
func MacroUses(text, name string) []string {
	ids := Identifiers(text)
	// Skip "define" and the name; then the parameters of a function-like
	// macro, which follow the name immediately in parentheses.
	params := map[string]bool{}
	if i := strings.Index(text, name); i >= 0 {
		rest := text[i+len(name):]
		if strings.HasPrefix(rest, "(") {
			if j := strings.IndexByte(rest, ')'); j > 0 {
				for _, p := range Identifiers(rest[1:j]) {
					params[p] = true
				}
			}
		}
	}
	var out []string
	for _, id := range ids {
		if id == "define" || id == name || params[id] || id == "__VA_ARGS__" {
			continue
		}
		out = append(out, id)
	}
	return out
}

// Enumerators returns the constants an enum definition declares: the
// first identifier of each comma-separated item inside its braces.
func Enumerators(text string) []string {
	open := strings.IndexByte(text, '{')
	close := strings.LastIndexByte(text, '}')
	if open < 0 || close < open {
		return nil
	}
	var out []string
	depth := 0
	start := true
	ScanC(text[open+1:close], func(id string) {
		if start && depth == 0 {
			out = append(out, id)
		}
		start = false
	}, func(t string) {
		switch t {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				start = true
			}
		}
	})
	return out
}

// Mentions reports whether identifier id occurs in C text.
func Mentions(text, id string) bool {
	if !strings.Contains(text, id) {
		return false
	}
	found := false
	ScanC(text, func(x string) {
		if x == id {
			found = true
		}
	}, func(string) {})
	return found
}
