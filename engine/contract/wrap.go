package contract

import (
	"fmt"
	"strings"
)

// RealPrefix names a function's definition in the text WrapRequires
// returns: the name as written is then the wrapper's.
const RealPrefix = "__rv_real_"

// WrapRequires returns file's text with the definition of fn renamed
// (RealPrefix ## fn) and, after its body, a definition of fn that
// asserts one conjunct of its requires clauses and then calls the
// renamed definition with its arguments: the conjunct whose property
// description is desc (as Generate writes it in the contract as a
// function, "requires clause of fn: conjunct"; an is_fresh conjunct is
// its __CPROVER_r_ok; two fresh objects that must not overlap, their
// address ranges). The assertion is a __CPROVER_assert under a #line
// directive to the clause, so a reproducer that judges the failing
// assertion by the line of its call (engine/witness/reproduce) sees the
// clause's. Every call of fn after the definition, in the file, then
// passes through the assertion; calls before it still reach the
// renamed body through a prototype of fn, which the wrapper defines.
//
// It fails when the file does not define fn with a contract, when desc
// names no conjunct, and for a function whose name or parameters a
// macro gives.
func WrapRequires(file, text, fn, desc string) (string, error) {
	al := FindAliases(text)
	_, fns, err := Rewrite(file, text, al)
	if err != nil {
		return "", err
	}
	var f *Func
	for _, g := range fns {
		if g.Name == fn && g.Def {
			f = g
		}
	}
	if f == nil {
		return "", fmt.Errorf("%s does not define %s with its contract", file, fn)
	}
	ps, err := params(f.Params)
	if err != nil {
		return "", fmt.Errorf("contract of %s: %v", fn, err)
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	// the conjunct, under its clause's line
	var assert string
	var sb strings.Builder
	var fresh [][2]string
	for _, c := range f.Clauses {
		if c.Kind != Requires {
			continue
		}
		for _, conj := range splitTop(c.Text, "&&") {
			conj = oneLine(conj)
			if a, ok := al.callOf(conj, "__CPROVER_is_fresh"); ok && len(a) == 2 {
				p := [2]string{strings.TrimSpace(a[0]), strings.TrimSpace(a[1])}
				for _, q := range fresh {
					if d := disjointDesc(f.Name, q[0], p[0]); d == desc && assert == "" {
						// in a compiled program, objects never overlap:
						// the address ranges tell the byte ranges apart
						sb.WriteString(line(f.File, c.Line))
						qa, pa := "(__UINTPTR_TYPE__)("+q[0]+")", "(__UINTPTR_TYPE__)("+p[0]+")"
						fmt.Fprintf(&sb, "  __CPROVER_assert((%s < %s && %s + (%s) <= %s) || (%s < %s && %s + (%s) <= %s), %q);\n", qa, pa, qa, q[1], pa, pa, qa, pa, p[1], qa, d)
						assert = sb.String()
					}
				}
				fresh = append(fresh, p)
				conj = fmt.Sprintf("__CPROVER_r_ok(%s, %s)", a[0], a[1])
			}
			d := "requires clause of " + f.Name + ": " + short(conj)
			if d == desc && assert == "" {
				sb.WriteString(line(f.File, c.Line))
				fmt.Fprintf(&sb, "  __CPROVER_assert(%s, %q);\n", conj, d)
				assert = sb.String()
			}
		}
	}
	if assert == "" {
		return "", fmt.Errorf("%q is no requires conjunct of %s with a C test", desc, fn)
	}
	// the definition's name: at depth 0 on its line, before '('
	ts := tokens(text)
	depth, at, body := 0, -1, -1
	for i, t := range ts {
		switch t.text {
		case "{":
			if depth == 0 && at >= 0 && body < 0 {
				body = i
			}
			depth++
		case "}":
			depth--
		}
		if at < 0 && depth == 0 && t.text == fn && i+1 < len(ts) && ts[i+1].text == "(" {
			if l, _ := lineCol(text, t.start); l == f.Line {
				at = i
			}
		}
		if body >= 0 {
			break
		}
	}
	if at < 0 || body < 0 {
		return "", fmt.Errorf("%s:%d: cannot find the definition of %s", file, f.Line, fn)
	}
	end := match(ts, body)
	if end < 0 {
		return "", fmt.Errorf("%s:%d: the body of %s is unbalanced", file, f.Line, fn)
	}
	decl := make([]string, len(ps))
	for i, p := range ps {
		decl[i] = p.decl
	}
	plist := strings.Join(decl, ", ")
	if plist == "" {
		plist = "void"
	}
	ret := strings.TrimSpace(f.Ret)
	call := fmt.Sprintf("%s%s(%s)", RealPrefix, fn, strings.Join(names, ", "))
	if retType(f.Ret) == "void" {
		call += ";\n"
	} else {
		call = "return " + call + ";\n"
	}
	endLine, _ := lineCol(text, ts[end].end)
	var w strings.Builder
	fmt.Fprintf(&w, "\n/* reverify: %s checks %s before it runs (the reproducer of a requires clause broken at a call) */\n%s %s(%s)\n{\n", fn, desc, ret, fn, plist)
	w.WriteString(assert)
	w.WriteString(line(file, endLine))
	w.WriteString("  " + call + "}\n")
	// the rest of the body's last line keeps its number
	w.WriteString(line(file, endLine))
	return text[:ts[at].start] + RealPrefix + fn + text[ts[at].end:ts[end].end] + w.String() + text[ts[end].end:], nil
}
