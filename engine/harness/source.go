package harness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// offset returns the byte offset of line and column (both from 1) in
// src, or -1.
func offset(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	if off+col-1 > len(src) {
		return -1
	}
	return off + col - 1
}

// skipSpace returns the offset of the first byte at or after i that is
// not white space or inside a comment.
func skipSpace(src string, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return len(src)
			}
			i += j
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return len(src)
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// paramList returns the text between the parentheses of f's parameter
// list in src: the first "name (" from the start of f's definition.
func paramList(f *cfa.Function, src string) (string, error) {
	name := SourceName(f)
	start := offset(src, f.Pos.Start.Line, f.Pos.Start.Col)
	if start < 0 {
		return "", fmt.Errorf("the definition of %s is not in %s's text", name, f.Pos.Start.File)
	}
	for i := start; i < len(src); {
		j := strings.Index(src[i:], name)
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(name)
		if at > 0 && identByte(src[at-1]) || i < len(src) && identByte(src[i]) {
			continue
		}
		open := skipSpace(src, i)
		if open >= len(src) || src[open] != '(' {
			continue
		}
		depth := 0
		for k := open; k < len(src); k++ {
			switch src[k] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return src[open+1 : k], nil
				}
			}
		}
		break
	}
	return "", fmt.Errorf("the parameter list of %s is not in its source text (made by a macro?)", name)
}

// splitTop splits s at the commas outside parentheses and brackets.
func splitTop(s string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// stripComments replaces the comments of s by a blank.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "/*") || strings.HasPrefix(s[i:], "//") {
			j := skipSpace(s, i)
			b.WriteByte(' ')
			i = j
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// paramDecls returns a local declaration for each parameter of f (in
// order, without the semicolon): the parameter's declaration in the
// source without const qualifiers (the context assigns them), an array
// parameter as the pointer it is ("int a[static 4]" is "int (*a)"),
// with the number of elements its brackets give (4; 0 when they give
// none or not as a number) in elems.
func paramDecls(f *cfa.Function, src string) (decls []string, elems []int, err error) {
	if len(f.Params) == 0 {
		return nil, nil, nil
	}
	list, err := paramList(f, src)
	if err != nil {
		return nil, nil, err
	}
	var pieces []string
	for _, p := range splitTop(stripComments(list)) {
		p = strings.TrimSpace(p)
		if p == "..." || p == "void" || p == "" {
			continue
		}
		pieces = append(pieces, p)
	}
	if len(pieces) != len(f.Params) {
		return nil, nil, fmt.Errorf("the parameter list of %s has %d declarations for %d parameters (a macro?)", SourceName(f), len(pieces), len(f.Params))
	}
	decls, elems = make([]string, len(pieces)), make([]int, len(pieces))
	for i, p := range pieces {
		v := f.Params[i]
		if v.Orig == "" {
			return nil, nil, fmt.Errorf("parameter %d of %s has no name", i+1, SourceName(f))
		}
		if p == v.Orig {
			return nil, nil, fmt.Errorf("%s is a K&R-style definition", SourceName(f))
		}
		if identAt(p, v.Orig) < 0 {
			return nil, nil, fmt.Errorf("parameter %s of %s is not named in its declaration %q (a macro?)", v.Orig, SourceName(f), p)
		}
		p = dropWord(p, "const")
		p = dropWord(p, "__const")
		at := identAt(p, v.Orig)
		end := at + len(v.Orig)
		if k := skipSpace(p, end); k < len(p) && p[k] == '[' {
			depth := 0
			for j := k; j < len(p); j++ {
				if p[j] == '[' {
					depth++
				} else if p[j] == ']' {
					depth--
					if depth == 0 {
						size := strings.TrimSpace(dropWord(dropWord(p[k+1:j], "static"), "restrict"))
						if n, err := strconv.Atoi(size); err == nil && n > 0 {
							elems[i] = n
						}
						p = p[:at] + "(*" + v.Orig + ")" + p[j+1:]
						break
					}
				}
			}
		}
		decls[i] = p
	}
	return decls, elems, nil
}

// identAt returns the offset of the last whole-word occurrence of id in
// s (a declarator's name comes after its type's words), or -1.
func identAt(s, id string) int {
	last := -1
	for i := 0; i+len(id) <= len(s); i++ {
		if s[i:i+len(id)] == id && (i == 0 || !identByte(s[i-1])) && (i+len(id) == len(s) || !identByte(s[i+len(id)])) {
			last = i
		}
	}
	return last
}

// dropWord removes every whole-word occurrence of w from s.
func dropWord(s, w string) string {
	for {
		i := identAt(s, w)
		if i < 0 {
			return s
		}
		s = s[:i] + s[i+len(w):]
	}
}
