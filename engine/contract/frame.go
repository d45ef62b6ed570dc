package contract

import (
	"regexp"
	"strings"
)

// AssignedParams returns the positions of the parameters of f whose
// pointees its assigns clauses name, when every target of every assigns
// clause lies in an object a pointer parameter points to: the object as
// a whole or a range of it (__CPROVER_object_whole(p), object_from(p),
// object_upto(p, n), under a project's aliases such as mlkem-native's
// memory_slice), or an lvalue selected from *p by members and indices
// only (*p, p->m, p[i], p->m[i].n). A write of a parameter itself (a
// by-value copy) names nothing of the caller and is left out. The
// positions count the parameters as the preprocessor leaves them (Kept,
// when Real is set). ok is false when a target names anything else (a
// global, an object reached through a pointer member, a call), or f has
// no assigns clause: then nothing bounds what a use of the contract
// writes. A caller's loop contract havocs the objects of these
// arguments (engine/frontend, loopcontract.go): a superset of what the
// contract's use havocs at each call (CBMC, "Code Contracts": assigns
// clauses).
func AssignedParams(f *Func, al Aliases) (pos []int, ok bool) {
	ps, err := params(f.Params)
	if err != nil {
		return nil, false
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	if f.Real != "" {
		names = f.Kept
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	seen := map[int]bool{}
	add := func(name string) bool {
		i, ok := index[name]
		if !ok {
			return false
		}
		if !seen[i] {
			seen[i] = true
			pos = append(pos, i)
		}
		return true
	}
	has := false
	for _, c := range f.Clauses {
		if c.Kind != Assigns {
			continue
		}
		has = true
		for _, t := range al.targets(c.Text) {
			switch t.kind {
			case "whole", "from", "upto":
				if !add(bareName(t.ptr)) {
					return nil, false
				}
			default:
				name, through := lvalueRoot(t.ptr)
				if name == "" {
					return nil, false
				}
				if !through {
					if _, param := index[name]; param {
						continue // the callee's own copy
					}
					return nil, false
				}
				if !add(name) {
					return nil, false
				}
			}
		}
	}
	if !has {
		return nil, false
	}
	return pos, true
}

var (
	identRE = regexp.MustCompile(`^[A-Za-z_]\w*$`)
	leadRE  = regexp.MustCompile(`^[A-Za-z_]\w*`)
	castRE  = regexp.MustCompile(`^\(\s*(?:const\s+|volatile\s+)*[A-Za-z_][\w\s]*\*?\s*\)`)
	// selRE matches member and index selections: .m, [i] (one level of
	// brackets).
	selRE = regexp.MustCompile(`^(?:\.\s*[A-Za-z_]\w*|\[[^\[\]]*\])`)
)

// bareName returns the identifier text is, around parentheses and one
// cast ("(uint8_t *)r" is r), or "".
func bareName(text string) string {
	s := strings.TrimSpace(text)
	for {
		switch {
		case strings.HasPrefix(s, "(") && Closes(s):
			s = strings.TrimSpace(s[1 : len(s)-1])
			continue
		case castRE.MatchString(s):
			s = strings.TrimSpace(s[len(castRE.FindString(s)):])
			continue
		}
		break
	}
	if identRE.MatchString(s) {
		return s
	}
	return ""
}

// lvalueRoot returns the variable an lvalue's text starts from and
// whether the lvalue lies in the object that variable points to (*p,
// p->m…, p[i]…, with only members and indices after it); through is
// false for the variable itself or a member of it (v, v.m). name is ""
// for any other lvalue.
func lvalueRoot(text string) (name string, through bool) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "*") {
		if n := bareName(s[1:]); n != "" {
			return n, true
		}
		return "", false
	}
	m := leadRE.FindString(s)
	if m == "" {
		return "", false
	}
	rest := strings.TrimSpace(s[len(m):])
	switch {
	case rest == "":
		return m, false
	case strings.HasPrefix(rest, "->"):
		rest = strings.TrimSpace(rest[2:])
		f := leadRE.FindString(rest)
		if f == "" {
			return "", false
		}
		rest = strings.TrimSpace(rest[len(f):])
		through = true
	case strings.HasPrefix(rest, "["):
		through = true
	}
	for rest != "" {
		sel := selRE.FindString(rest)
		if sel == "" {
			return "", false
		}
		rest = strings.TrimSpace(rest[len(sel):])
	}
	return m, through
}

// Closes reports whether the '(' at s[0] closes at s's last byte.
func Closes(s string) bool {
	depth := 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k == len(s)-1
			}
		}
	}
	return false
}
