package contract

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Names of the generated functions and variables. NAME is the function's
// name as written, expanded by the preprocessor (CheckPrefix ## NAME).
const (
	// CheckPrefix names the function that checks NAME against its
	// contract: an entry without parameters (a most general context under
	// the requires clauses) that calls NAME and asserts the ensures
	// clauses.
	CheckPrefix = cfa.ContractCheckPrefix
	// UsePrefix names NAME's contract as a function: asserts the requires
	// clauses, havocs the assigns frame, assumes the ensures clauses. A
	// call of NAME outside its own check becomes a call of it
	// (Instrument).
	UsePrefix = cfa.ContractUsePrefix
	// OfPrefix names a global holding NAME's expansion as a string, from
	// which Instrument reads the function's name after translation (one
	// a macro names).
	OfPrefix = "__reverify_contract_of_"
	// FramePrefix names the assigns frame of a check: FramePrefix ## NAME
	// ## _p<j> (the target's address), _n<j> (its size, or frameWhole /
	// frameFrom), FreshPrefix the objects the check allocated.
	FramePrefix = "__reverify_frame_"
	FreshPrefix = "__reverify_fresh_"
	// OnPrefix names the flags of a contract's use that record which
	// is_fresh inside a requires conjunct (a disjunction's operand) the
	// call evaluated: only those objects must be apart from the later
	// ones.
	OnPrefix = "__reverify_on"
	// AssignablePrefix names the function deciding whether a write of n
	// bytes at q is allowed in NAME's check (Instrument calls it before
	// every write the check executes).
	AssignablePrefix = "__reverify_assignable_"
	// ActivePrefix names the flag that NAME's check is under way: set by
	// the check around its call, read by the assigns tests (one per
	// contract, so a property's slice holds only its own check).
	ActivePrefix = "__reverify_active_"
)

// Prelude is the C text every unit of a program with contracts starts
// with: token pasting that expands a name first, the return value's
// name inside the generated functions, and the allocation of fresh
// objects (CBMC's __CPROVER_is_fresh).
const Prelude = `#define __reverify_cat2(a, b) a##b
#define __reverify_cat(a, b) __reverify_cat2(a, b)
#define __reverify_str2(x) #x
#define __reverify_str(x) __reverify_str2(x)
#define __reverify_cat3_(a, b, c) a##b##c
#define __reverify_cat3(a, b, c) __reverify_cat3_(a, b, c)
#define __CPROVER_return_value __reverify_ret
#define __CPROVER_is_fresh(p, n) __CPROVER_r_ok((p), (n))
#define __CPROVER_old(e) (*(__typeof__(e) *)__reverify_old(&(e)))
#define __CPROVER_loop_entry(e) (*(__typeof__(e) *)__reverify_old(&(e)))
void __reverify_snapshot(void);
void __reverify_check(_Bool, const char *);
void __reverify_unsupported(const char *);
void *__reverify_old();
void *__CPROVER_object_whole(const void *);
void *__CPROVER_object_from(const void *);
void *__CPROVER_object_upto(const void *, __SIZE_TYPE__);
`

// frame sizes that are not byte counts
const (
	frameWhole = "((__SIZE_TYPE__)-1)"
	frameFrom  = "((__SIZE_TYPE__)-2)"
)

// param is one parameter: its declaration as a local (arrays as
// pointers, const dropped) and its name.
type param struct{ decl, name string }

var constRE = regexp.MustCompile(`\bconst\b`)

// params splits a parameter list's text.
func params(text string) ([]param, error) {
	text = strings.TrimSpace(text)
	if text == "" || text == "void" {
		return nil, nil
	}
	var ps []param
	for _, p := range splitTop(text, ",") {
		p = strings.TrimSpace(p)
		if p == "..." {
			return nil, fmt.Errorf("variadic function")
		}
		ts := tokens(p)
		// the name: after "(*" for a function pointer, else the last
		// identifier before the first '[' at depth 0
		name, at := "", -1
		for i := 0; i+2 < len(ts); i++ {
			if ts[i].text == "(" && ts[i+1].text == "*" && isIdent(ts[i+2].text) {
				name, at = ts[i+2].text, i+2
				break
			}
		}
		bracket := -1
		if name == "" {
			for i, t := range ts {
				if t.text == "[" {
					bracket = i
					break
				}
				if isIdent(t.text) && !typeWord[t.text] {
					name, at = t.text, i
				}
			}
		}
		if name == "" || at == 0 && bracket < 0 {
			return nil, fmt.Errorf("parameter %q has no name", p)
		}
		decl := p
		if bracket >= 0 {
			// T a[N][M] → T (*a)[M]
			cl := match(ts, bracket)
			if cl < 0 {
				return nil, fmt.Errorf("parameter %q", p)
			}
			decl = p[:ts[at].start] + "(*" + name + ")" + p[ts[cl].end:]
		}
		ps = append(ps, param{decl: constRE.ReplaceAllString(decl, ""), name: name})
	}
	return ps, nil
}

var typeWord = map[string]bool{"int": true, "char": true, "short": true, "long": true, "unsigned": true, "signed": true,
	"float": true, "double": true, "void": true, "_Bool": true, "const": true, "volatile": true, "restrict": true,
	"__restrict": true, "__restrict__": true, "struct": true, "union": true, "enum": true, "static": true}

// splitTop splits s at sep outside brackets (and string literals).
func splitTop(s, sep string) []string {
	var parts []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		default:
			if depth == 0 && strings.HasPrefix(s[i:], sep) {
				parts = append(parts, s[from:i])
				i += len(sep) - 1
				from = i + 1
			}
		}
	}
	return append(parts, s[from:])
}

// callOf reports whether text is one call of a name al resolves to want,
// and returns its arguments.
func (al Aliases) callOf(text, want string) ([]string, bool) {
	ts := tokens(text)
	if len(ts) < 3 || !isIdent(ts[0].text) || ts[1].text != "(" || al.Resolve(ts[0].text) != want {
		return nil, false
	}
	if match(ts, 1) != len(ts)-1 {
		return nil, false
	}
	return splitTop(text[ts[1].end:ts[len(ts)-1].start], ","), true
}

// replaceCalls returns text with each call of a name al resolves to want
// replaced by repl of its arguments, left to right (calls inside an
// argument are left as they are). A call with other than two arguments
// is left alone: is_fresh takes a pointer and a size.
func (al Aliases) replaceCalls(text, want string, repl func(args []string) string) string {
	ts := tokens(text)
	var out strings.Builder
	last := 0
	for i := 0; i+1 < len(ts); i++ {
		if !isIdent(ts[i].text) || ts[i+1].text != "(" || al.Resolve(ts[i].text) != want {
			continue
		}
		end := match(ts, i+1)
		if end < 0 {
			break
		}
		args := splitTop(text[ts[i+1].end:ts[end].start], ",")
		if len(args) != 2 {
			continue
		}
		out.WriteString(text[last:ts[i].start])
		out.WriteString(repl(args))
		last = ts[end].end
		i = end
	}
	out.WriteString(text[last:])
	return out.String()
}

// line is a #line directive to the clause's position.
func line(file string, l int) string {
	return fmt.Sprintf("#line %d %s\n", l, strconv.Quote(file))
}

var storageWords = map[string]bool{"static": true, "inline": true, "__inline": true, "__inline__": true, "extern": true, "_Noreturn": true}

// retType is the function's return type from the text before its name:
// storage classes, inline, attributes and the all-capital macros of
// projects' API annotations (MLK_INTERNAL_API) dropped.
func retType(ret string) string {
	ts := tokens(ret)
	var kept []string
	for i := 0; i < len(ts); i++ {
		t := ts[i].text
		if t == "__attribute__" && i+1 < len(ts) && ts[i+1].text == "(" {
			i = match(ts, i+1)
			if i < 0 {
				break
			}
			continue
		}
		if storageWords[t] || isIdent(t) && strings.ToUpper(t) == t && strings.Contains(t, "_") && len(ts) > 1 {
			continue
		}
		kept = append(kept, t)
	}
	return strings.Join(kept, " ")
}

// Generate returns the C text that checks and uses the contracts fns
// (their clauses' text copied under #line directives, so every property
// is at its clause): for each, the check (CheckPrefix), the contract as
// a function (UsePrefix), the address global (OfPrefix), the assigns
// frame and the assignable test.
func Generate(fns []*Func, al Aliases) (string, error) {
	var b strings.Builder
	// one definition in every unit, at one position: the units' copies
	// link as one (not static: builds may define static away)
	b.WriteString("\n#line 1 \"<reverify contracts>\"\nvoid *malloc(__SIZE_TYPE__);\nvoid *__reverify_fresh(__SIZE_TYPE__ n) { void *p = malloc(n); __CPROVER_assume(p != 0); return p; }\n")
	for _, f := range fns {
		if err := generate(&b, f, al); err != nil {
			return "", fmt.Errorf("%s:%d: contract of %s: %v", f.File, f.Line, f.Name, err)
		}
	}
	return b.String(), nil
}

type target struct {
	kind string // "lvalue", "whole", "from", "upto"
	ptr  string // the lvalue, or the pointer
	n    string // upto's size
	cond string // a conditional target's condition ("" : always)
}

// targets reads an assigns clause: targets separated by commas, in
// groups separated by ';', a group possibly conditional (cond: targets).
func (al Aliases) targets(text string) []target {
	var ts []target
	for _, group := range splitTop(text, ";") {
		cond := ""
		if parts := splitTop(group, ":"); len(parts) == 2 && len(splitTop(group, "?")) == 1 {
			cond, group = strings.TrimSpace(parts[0]), parts[1]
		}
		for _, t := range al.targetList(group) {
			t.cond = cond
			ts = append(ts, t)
		}
	}
	return ts
}

func (al Aliases) targetList(text string) []target {
	var ts []target
	for _, t := range splitTop(text, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		switch {
		case callArgs(al, t, "__CPROVER_object_whole") != nil:
			ts = append(ts, target{kind: "whole", ptr: callArgs(al, t, "__CPROVER_object_whole")[0]})
		case callArgs(al, t, "__CPROVER_object_from") != nil:
			ts = append(ts, target{kind: "from", ptr: callArgs(al, t, "__CPROVER_object_from")[0]})
		case len(callArgs(al, t, "__CPROVER_object_upto")) == 2:
			a := callArgs(al, t, "__CPROVER_object_upto")
			ts = append(ts, target{kind: "upto", ptr: a[0], n: a[1]})
		default:
			ts = append(ts, target{kind: "lvalue", ptr: t})
		}
	}
	return ts
}

func callArgs(al Aliases, text, want string) []string {
	a, ok := al.callOf(text, want)
	if !ok {
		return nil
	}
	return a
}

func generate(b *strings.Builder, f *Func, al Aliases) error {
	ps, err := params(f.Params)
	if err != nil {
		return err
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	args := strings.Join(names, ", ")
	name := f.Name
	if f.Real != "" {
		keep := map[string]bool{}
		for _, n := range f.Kept {
			keep[n] = true
		}
		var kept []param
		for _, p := range ps {
			if keep[p.name] {
				kept = append(kept, p)
			}
		}
		if len(kept) != len(f.Kept) {
			return fmt.Errorf("its parameters as written (%s) do not name its parameters after preprocessing (%s)", f.Params, strings.Join(f.Kept, ", "))
		}
		// the generated names are spelled out (pasting would expand a
		// macro); the function is called through its macro when that is
		// still defined (it drops what it drops), else by its name
		ps = kept
		if !f.CallAsWritten {
			name, args = f.Real, strings.Join(f.Kept, ", ")
		}
	}
	void := retType(f.Ret) == "void"
	for _, c := range f.Clauses {
		if c.Kind == Frees {
			return fmt.Errorf("frees clauses are not supported")
		}
		if c.Kind == Ensures && strings.Contains(c.Text, "__CPROVER_return_value") && void {
			return fmt.Errorf("ensures clause names the return value of a void function")
		}
	}
	cat := func(prefix string) string { return fmt.Sprintf("__reverify_cat(%s, %s)", prefix, name) }
	cat3 := func(prefix, suffix string) string {
		return fmt.Sprintf("__reverify_cat3(%s, %s, %s)", prefix, name, suffix)
	}
	nameString := fmt.Sprintf("__reverify_str(%s)", name)
	if f.Real != "" {
		cat = func(prefix string) string { return prefix + f.Real }
		cat3 = func(prefix, suffix string) string { return prefix + f.Real + suffix }
		nameString = strconv.Quote(f.Real)
	}
	display := f.Name
	var frame []target
	var frameLines []int
	for _, c := range f.Clauses {
		if c.Kind == Assigns {
			for _, t := range al.targets(c.Text) {
				frame = append(frame, t)
				frameLines = append(frameLines, c.Line)
			}
		}
	}

	// the frame and the assignable test of the check
	fmt.Fprintf(b, "%s", line(f.File, f.Line))
	fmt.Fprintf(b, "int %s;\n", cat(ActivePrefix))
	for j := range frame {
		fmt.Fprintf(b, "char *%s; __SIZE_TYPE__ %s;\n", cat3(FramePrefix, fmt.Sprintf("_p%d", j)), cat3(FramePrefix, fmt.Sprintf("_n%d", j)))
	}
	nFresh, nNested := 0, 0
	eachRequires(&strings.Builder{}, f, al, func(conj string, fresh []string) {
		if fresh != nil {
			nFresh++
			return
		}
		al.replaceCalls(conj, "__CPROVER_is_fresh", func([]string) string { nFresh++; nNested++; return "" })
	})
	for j := 0; j < nFresh; j++ {
		fmt.Fprintf(b, "char *%s;\n", cat3(FreshPrefix, fmt.Sprintf("_%d", j)))
	}
	// no assigns clause: nothing that existed before the call may be
	// written (the use of the contract havocs nothing)
	fmt.Fprintf(b, "_Bool %s(char *q, __SIZE_TYPE__ m, _Bool global) {\n", cat(AssignablePrefix))
	for j := range frame {
		p, n := cat3(FramePrefix, fmt.Sprintf("_p%d", j)), cat3(FramePrefix, fmt.Sprintf("_n%d", j))
		fmt.Fprintf(b, "  if (%s && __CPROVER_same_object(q, %s) && (%s == %s || __CPROVER_POINTER_OFFSET(q) >= __CPROVER_POINTER_OFFSET(%s) && (%s == %s || (__SIZE_TYPE__)(__CPROVER_POINTER_OFFSET(q) - __CPROVER_POINTER_OFFSET(%s)) + m <= %s))) return 1;\n",
			p, p, n, frameWhole, p, n, frameFrom, p, n)
	}
	for j := 0; j < nFresh; j++ {
		fmt.Fprintf(b, "  if (__CPROVER_same_object(q, %s)) return 0;\n", cat3(FreshPrefix, fmt.Sprintf("_%d", j)))
	}
	b.WriteString("  return !global;\n}\n\n")
	// the check
	fmt.Fprintf(b, "%svoid %s(void) {\n", line(f.File, f.Line), cat(CheckPrefix))
	for _, p := range ps {
		fmt.Fprintf(b, "  %s;\n", p.decl)
	}
	nFresh = 0
	eachRequires(b, f, al, func(conj string, fresh []string) {
		if fresh != nil {
			fmt.Fprintf(b, "  (%s) = __reverify_fresh(%s); %s = (char *)(%s);", fresh[0], fresh[1], cat3(FreshPrefix, fmt.Sprintf("_%d", nFresh)), fresh[0])
			nFresh++
			return
		}
		// an is_fresh inside a conjunct (a disjunction's operand)
		// allocates its object where the expression evaluates it, as
		// CBMC's does in an assumed requires clause
		conj = al.replaceCalls(conj, "__CPROVER_is_fresh", func(a []string) string {
			s := fmt.Sprintf("((%s) = __reverify_fresh(%s), %s = (char *)(%s), 1)", a[0], a[1], cat3(FreshPrefix, fmt.Sprintf("_%d", nFresh)), a[0])
			nFresh++
			return s
		})
		fmt.Fprintf(b, "  __CPROVER_assume(%s);", conj)
	})
	var ensures []string
	var ensLines []int
	for _, c := range f.Clauses {
		if c.Kind == Ensures {
			ensures = append(ensures, oneLine(c.Text))
			ensLines = append(ensLines, c.Line)
		}
	}
	b.WriteString("  __reverify_snapshot();\n")
	for j, t := range frame {
		b.WriteString(line(f.File, frameLines[j]))
		p, n := cat3(FramePrefix, fmt.Sprintf("_p%d", j)), cat3(FramePrefix, fmt.Sprintf("_n%d", j))
		if t.cond != "" {
			fmt.Fprintf(b, "  if (%s)", t.cond)
		}
		switch t.kind {
		case "lvalue":
			fmt.Fprintf(b, "  { %s = (char *)&(%s); %s = sizeof(%s); }\n", p, t.ptr, n, t.ptr)
		case "whole":
			fmt.Fprintf(b, "  { %s = (char *)(%s); %s = %s; }\n", p, t.ptr, n, frameWhole)
		case "from":
			fmt.Fprintf(b, "  { %s = (char *)(%s); %s = %s; }\n", p, t.ptr, n, frameFrom)
		case "upto":
			fmt.Fprintf(b, "  { %s = (char *)(%s); %s = (%s); }\n", p, t.ptr, n, t.n)
		}
	}
	b.WriteString(line(f.File, f.Line))
	fmt.Fprintf(b, "  %s = 1;\n", cat(ActivePrefix))
	if void {
		fmt.Fprintf(b, "  %s(%s);\n", name, args)
	} else {
		fmt.Fprintf(b, "  __typeof__(%s(%s)) __reverify_ret = %s(%s);\n", name, args, name, args)
	}
	fmt.Fprintf(b, "  %s = 0;\n", cat(ActivePrefix))
	for j, t := range ensures {
		b.WriteString(line(f.File, ensLines[j]))
		if al.mentions(t, "__CPROVER_is_fresh") {
			// is_fresh in an ensures clause reads as r_ok here: the
			// object's freshness would go unchecked
			b.WriteString("  __reverify_unsupported(\"__CPROVER_is_fresh in an ensures clause\");")
		}
		fmt.Fprintf(b, "  __reverify_check(%s, %s);\n", t, strconv.Quote("ensures clause of "+display+": "+short(t)))
	}
	b.WriteString("}\n")

	// the contract as a function
	ret := retType(f.Ret)
	decl := make([]string, len(ps))
	for i, p := range ps {
		decl[i] = p.decl
	}
	plist := strings.Join(decl, ", ")
	if plist == "" {
		plist = "void"
	}
	fmt.Fprintf(b, "%s%s %s(%s) {\n", line(f.File, f.Line), ret, cat(UsePrefix), plist)
	for k := 0; k < nNested; k++ {
		fmt.Fprintf(b, "  _Bool %s_%d = 0;\n", OnPrefix, k)
	}
	// the fresh objects asserted so far, in evaluation order; on names
	// the flag an is_fresh inside a conjunct sets when it is evaluated
	type seenFresh struct {
		pn [2]string
		on string
	}
	var seen []seenFresh
	apart := func(q seenFresh, p [2]string) string {
		if q.on == "" {
			return disjoint(q.pn, p)
		}
		return "!" + q.on + " || (" + disjoint(q.pn, p) + ")"
	}
	nNested = 0
	eachRequires(b, f, al, func(conj string, fresh []string) {
		desc := "requires clause of " + display + ": " + short(conj)
		if fresh != nil {
			// a fresh object: valid for n bytes, and disjoint from the
			// other fresh objects of the requires clauses
			p := [2]string{strings.TrimSpace(fresh[0]), strings.TrimSpace(fresh[1])}
			for _, q := range seen {
				fmt.Fprintf(b, "  __reverify_check(%s, %s);", apart(q, p), strconv.Quote(disjointDesc(display, q.pn[0], p[0])))
			}
			seen = append(seen, seenFresh{pn: p})
			conj = fmt.Sprintf("__CPROVER_r_ok(%s, %s)", fresh[0], fresh[1])
			desc = "requires clause of " + display + ": " + short(conj)
		} else {
			// an is_fresh inside a conjunct: where it is evaluated, its
			// object must be valid and disjoint from those before it,
			// within the conjunct's own property
			conj = al.replaceCalls(conj, "__CPROVER_is_fresh", func(a []string) string {
				p := [2]string{strings.TrimSpace(a[0]), strings.TrimSpace(a[1])}
				parts := []string{fmt.Sprintf("__CPROVER_r_ok(%s, %s)", p[0], p[1])}
				for _, q := range seen {
					parts = append(parts, "("+apart(q, p)+")")
				}
				on := fmt.Sprintf("%s_%d", OnPrefix, nNested)
				nNested++
				seen = append(seen, seenFresh{pn: p, on: on})
				return fmt.Sprintf("(%s = 1, %s)", on, strings.Join(parts, " && "))
			})
		}
		fmt.Fprintf(b, "  __reverify_check(%s, %s);", conj, strconv.Quote(desc))
	})
	b.WriteString("  __reverify_snapshot();\n")
	for j, t := range frame {
		b.WriteString(line(f.File, frameLines[j]))
		if t.cond != "" {
			fmt.Fprintf(b, "  if (%s)", t.cond)
		}
		switch t.kind {
		case "lvalue":
			fmt.Fprintf(b, "  { __typeof__(%s) __reverify_h; __builtin_memcpy(&(%s), &__reverify_h, sizeof(%s)); }\n", t.ptr, t.ptr, t.ptr)
		case "upto":
			// the n bytes from p, not the rest of p's object (a row of
			// an array, a field of a struct)
			fmt.Fprintf(b, "  __CPROVER_havoc_slice((void *)(%s), (%s));\n", t.ptr, t.n)
		case "from":
			// from p to the end of its object: the whole object when p
			// is its start; otherwise no havoc says "the bytes before p
			// keep their values", and the call is unsupported
			fmt.Fprintf(b, "  { if (__CPROVER_POINTER_OFFSET((void *)(%s)) == 0) __CPROVER_havoc_object((void *)(%s)); else __reverify_unsupported(\"__CPROVER_object_from at an offset other than 0\"); }\n", t.ptr, t.ptr)
		default:
			fmt.Fprintf(b, "  __CPROVER_havoc_object((void *)(%s));\n", t.ptr)
		}
	}
	b.WriteString(line(f.File, f.Line))
	if !void {
		fmt.Fprintf(b, "  __typeof__(%s(%s)) __reverify_ret;\n", name, args)
	}
	for j, t := range ensures {
		b.WriteString(line(f.File, ensLines[j]))
		for _, conj := range splitTop(t, "&&") {
			if a, ok := al.callOf(strings.TrimSpace(conj), "__CPROVER_is_fresh"); ok && len(a) == 2 {
				fmt.Fprintf(b, "  (%s) = __reverify_fresh(%s);", a[0], a[1])
				continue
			}
			fmt.Fprintf(b, "  __CPROVER_assume(%s);", conj)
		}
		b.WriteString("\n")
	}
	b.WriteString(line(f.File, f.Line))
	if !void {
		b.WriteString("  return __reverify_ret;\n")
	}
	b.WriteString("}\n")
	// the function's name as the preprocessor expands it (a string: its
	// address would make it a target of every call through a pointer)
	fmt.Fprintf(b, "const char *const %s = %s;\n", cat(OfPrefix), nameString)
	return nil
}

// disjoint returns the C test that two fresh objects of a requires
// clause, each a pointer and a size in bytes, do not overlap where a
// call asserts the clause: they lie in different objects, or in
// disjoint byte ranges of one object. It is CBMC's is_fresh asserted
// (at a call that uses the contract), which separates by byte range
// since diffblue/cbmc pull request 8603 ("is_fresh now tracks
// separation at the byte level instead of whole objects", 2025):
// mlkem-native's calls pass the four rows of one array to four is_fresh
// parameters. The check of the function's own contract still assumes
// separate objects, so a body cannot depend on more than the byte
// ranges being apart (the analyses take neither the order nor the
// distance of two objects as known, and let one end where another
// starts). The offsets are compared by difference, which cannot wrap
// where the sizes are large; two ranges that start at one address
// overlap even when empty (the check's objects are different addresses).
func disjoint(q, p [2]string) string {
	oq := fmt.Sprintf("(__SIZE_TYPE__)__CPROVER_POINTER_OFFSET(%s)", q[0])
	op := fmt.Sprintf("(__SIZE_TYPE__)__CPROVER_POINTER_OFFSET(%s)", p[0])
	return fmt.Sprintf("!__CPROVER_same_object(%s, %s) || (%s < %s && %s - %s >= (__SIZE_TYPE__)(%s)) || (%s < %s && %s - %s >= (__SIZE_TYPE__)(%s))",
		q[0], p[0], oq, op, op, oq, q[1], op, oq, oq, op, p[1])
}

// disjointDesc is the description of the property that the fresh
// objects q and p of fn's requires clauses do not overlap at a call.
func disjointDesc(fn, q, p string) string {
	return "requires clause of " + fn + ": " + short(q) + " and " + short(p) + " do not overlap"
}

// short is a clause's text for a property's description: one line, at
// most 72 characters.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 72 {
		return string(r[:71]) + "…"
	}
	return s
}

// mentions reports whether text calls name or a macro forwarding to it.
func (al Aliases) mentions(text, name string) bool {
	ts := tokens(text)
	for i := 0; i+1 < len(ts); i++ {
		if ts[i+1].text == "(" && al.Resolve(ts[i].text) == name {
			return true
		}
	}
	return false
}

// eachRequires calls fn for every conjunct of f's requires clauses, in
// order, each clause under its #line in b: the conjunct on one line, and
// the arguments of __CPROVER_is_fresh (or an alias) when it is one.
func eachRequires(b *strings.Builder, f *Func, al Aliases, fn func(conj string, fresh []string)) {
	for _, c := range f.Clauses {
		if c.Kind != Requires {
			continue
		}
		b.WriteString(line(f.File, c.Line))
		for _, conj := range splitTop(c.Text, "&&") {
			conj = oneLine(conj)
			if a, ok := al.callOf(conj, "__CPROVER_is_fresh"); ok && len(a) == 2 {
				fn(conj, a)
				continue
			}
			fn(conj, nil)
		}
		b.WriteString("\n")
	}
}

// oneLine joins a clause's lines (a #line directive then places all of
// it on its first line).
func oneLine(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\\\r\n", " ", "\\\n", " ", "\r\n", " ", "\n", " ").Replace(s))
}
