package csyntax

import (
	"strings"

	"github.com/reverify/reverify/engine/ctext"
)

// This file serves C syntax to the packages that read C text without
// translating it: identifiers, normalised token text and the uses of a
// macro or an enum (diffslice), and expressions (ParseExpr, cexpr.go).

// Identifiers returns the distinct Identifiers of C text (outside
// comments and literals), in order of first appearance.
func Identifiers(s string) []string {
	var out []string
	seen := map[string]bool{}
	ctext.Scan(s, func(id string) {
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
	ctext.Scan(text[open+1:close], func(id string) {
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
	ctext.Scan(text, func(x string) {
		if x == id {
			found = true
		}
	}, func(string) {})
	return found
}
