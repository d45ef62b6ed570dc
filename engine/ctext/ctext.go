package ctext

import "strings"

// Scan is the one scanner of C text outside the cc/v4 front end (used
// by diffslice for definitions' texts, by the front end's expression
// parser for witness expressions and its atexit check). It walks C source text, calling ident for every identifier and
// other for every other token character outside comments; string and
// character literals are passed to other whole. Backslash-newline line
// continuations are skipped.
func Scan(s string, ident func(string), other func(string)) {
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

// Normalize returns C text without comments and with white space only
// where it separates two words; when rename is not "", every identifier
// equal to it becomes "\x00" (a name-insensitive form). It is the one
// normal form of C text: the slice hash (engine/pdg) and the definition
// fingerprints (diffslice) compare texts by it.
func Normalize(s, rename string) string {
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
	Scan(s, func(id string) {
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

// Mask blanks comments, string and character literals and
// preprocessor lines (with their continuation lines) with spaces,
// keeping every newline and so every offset (engine/witness finds
// statements and branches in the masked text).
func Mask(text []byte) []byte {
	code := make([]byte, len(text))
	copy(code, text)
	blank := func(i int) {
		if code[i] != '\n' {
			code[i] = ' '
		}
	}
	lineStart := true
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case lineStart && c == '#':
			// Preprocessor line, with backslash continuations.
			for i < len(code) {
				if code[i] == '\n' {
					if i > 0 && text[i-1] == '\\' {
						i++
						continue
					}
					break
				}
				blank(i)
				i++
			}
			continue
		}
		lineStart = false
		switch {
		case c == '/' && i+1 < len(code) && code[i+1] == '/':
			for i < len(code) && code[i] != '\n' {
				blank(i)
				i++
			}
		case c == '/' && i+1 < len(code) && code[i+1] == '*':
			blank(i)
			blank(i + 1)
			i += 2
			for i < len(code) && !(code[i] == '*' && i+1 < len(code) && code[i+1] == '/') {
				blank(i)
				i++
			}
			if i < len(code) {
				blank(i)
				blank(i + 1)
				i += 2
			}
		case c == '"' || c == '\'':
			q := c
			blank(i)
			i++
			for i < len(code) && code[i] != q && code[i] != '\n' {
				if code[i] == '\\' && i+1 < len(code) {
					blank(i)
					i++
				}
				blank(i)
				i++
			}
			if i < len(code) && code[i] == q {
				blank(i)
				i++
			}
		default:
			i++
		}
	}
	return code
}
