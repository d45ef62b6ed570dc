package proofs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// mvar is a make variable: a recursive one holds its raw text, expanded
// when used; a simple one (:=) its text expanded at assignment.
type mvar struct {
	val      string
	simple   bool
	override bool // set before reading (as on make's command line)
}

// makefile reads the variable assignments of a makefile and the files it
// includes, as GNU make would in the directory cwd. Rules, recipes and
// define blocks are skipped: only variables matter here.
type makefile struct {
	cwd  string
	vars map[string]*mvar
	// unresolved collects what expansion could not do, by message.
	unresolved map[string]bool
	// included are the files read, in order.
	included []string
	depth    int
}

func newMakefile(cwd string) *makefile {
	return &makefile{cwd: cwd, vars: map[string]*mvar{}, unresolved: map[string]bool{}}
}

var assignRE = regexp.MustCompile(`^([A-Za-z0-9_.\-]+)\s*(::=|:=|\?=|\+=|!=|=)\s*(.*)$`)

// readFile reads path (relative to cwd). A file named Makefile.common
// is the starter kit's: its directory is PROOF_ROOT and the parent of
// that CBMC_ROOT (which Makefile.common derives from MAKEFILE_LIST and
// $(shell dirname …), which are not evaluated here).
func (m *makefile) readFile(path string, optional bool) error {
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.cwd, path)
	}
	path = filepath.Clean(path)
	if m.depth > 20 {
		return fmt.Errorf("%s: includes nested too deeply", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if optional {
			return nil
		}
		return err
	}
	m.included = append(m.included, path)
	if filepath.Base(path) == "Makefile.common" {
		root := filepath.Dir(path)
		m.vars["PROOF_ROOT"] = &mvar{val: root + "/", simple: true, override: true}
		m.vars["CBMC_ROOT"] = &mvar{val: filepath.Dir(root), simple: true, override: true}
	}
	m.depth++
	defer func() { m.depth-- }()
	return m.read(path, string(data))
}

// cond is one level of ifeq/ifdef nesting.
type cond struct {
	active bool // this branch is being read
	done   bool // some branch of this conditional was taken
	parent bool // the enclosing level is active
}

func (m *makefile) read(name, text string) error {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cont strings.Builder
	for sc.Scan() {
		l := sc.Text()
		if strings.HasSuffix(l, "\\") && !strings.HasPrefix(l, "\t") {
			cont.WriteString(strings.TrimSuffix(l, "\\"))
			cont.WriteString(" ")
			continue
		}
		cont.WriteString(l)
		lines = append(lines, cont.String())
		cont.Reset()
	}
	if cont.Len() > 0 {
		lines = append(lines, cont.String())
	}
	var stack []cond
	active := func() bool { return len(stack) == 0 || stack[len(stack)-1].active }
	inDefine := false
	for i, line := range lines {
		if strings.HasPrefix(line, "\t") {
			continue // a recipe
		}
		line = stripComment(line)
		t := strings.TrimSpace(line)
		if inDefine {
			if t == "endef" {
				inDefine = false
			}
			continue
		}
		word, rest, _ := strings.Cut(t, " ")
		rest = strings.TrimSpace(rest)
		switch word {
		case "ifeq", "ifneq", "ifdef", "ifndef":
			c := cond{parent: active()}
			c.active = c.parent && m.test(word, rest)
			c.done = c.active
			stack = append(stack, c)
			continue
		case "else":
			if len(stack) == 0 {
				return fmt.Errorf("%s:%d: else without if", name, i+1)
			}
			c := &stack[len(stack)-1]
			if c.done {
				c.active = false
				continue
			}
			c.active = c.parent
			if w2, r2, _ := strings.Cut(rest, " "); w2 != "" {
				c.active = c.parent && m.test(w2, strings.TrimSpace(r2))
			}
			c.done = c.active
			continue
		case "endif":
			if len(stack) == 0 {
				return fmt.Errorf("%s:%d: endif without if", name, i+1)
			}
			stack = stack[:len(stack)-1]
			continue
		case "define":
			inDefine = true
			continue
		}
		if !active() || t == "" {
			continue
		}
		switch word {
		case "include", "sinclude", "-include":
			for _, f := range strings.Fields(m.expand(rest, "include")) {
				if err := m.readFile(f, word != "include"); err != nil {
					return fmt.Errorf("%s:%d: %v", name, i+1, err)
				}
			}
			continue
		case "export", "unexport", "override", "vpath":
			if word != "override" && word != "export" {
				continue
			}
			t = rest
		}
		a := assignRE.FindStringSubmatch(t)
		if a == nil {
			continue // a rule or a directive without effect on variables
		}
		m.assign(a[1], a[2], a[3])
	}
	if len(stack) > 0 {
		return fmt.Errorf("%s: missing endif", name)
	}
	return nil
}

func stripComment(l string) string {
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' {
			i++
			continue
		}
		if l[i] == '#' {
			return l[:i]
		}
	}
	return l
}

func (m *makefile) assign(name, op, val string) {
	v := m.vars[name]
	if v != nil && v.override {
		return
	}
	switch op {
	case "=":
		m.vars[name] = &mvar{val: val}
	case ":=", "::=":
		m.vars[name] = &mvar{val: m.expand(val, name), simple: true}
	case "?=":
		if v == nil {
			m.vars[name] = &mvar{val: val}
		}
	case "+=":
		if v == nil {
			m.vars[name] = &mvar{val: val}
			return
		}
		if v.simple {
			val = m.expand(val, name)
		}
		if v.val == "" {
			v.val = val
		} else if val != "" {
			v.val += " " + val
		}
	case "!=":
		m.unresolved[fmt.Sprintf("%s: shell assignment (!=) not run", name)] = true
		m.vars[name] = &mvar{simple: true}
	}
}

// test evaluates the condition of ifeq/ifneq/ifdef/ifndef.
func (m *makefile) test(kind, arg string) bool {
	switch kind {
	case "ifdef", "ifndef":
		v := m.vars[strings.TrimSpace(m.expand(arg, "ifdef"))]
		def := v != nil && v.val != ""
		return def == (kind == "ifdef")
	}
	a, b, ok := splitCond(arg)
	if !ok {
		m.unresolved[fmt.Sprintf("conditional %s %s not understood (taken as false)", kind, arg)] = true
		return false
	}
	eq := m.expand(a, kind) == m.expand(b, kind)
	return eq == (kind == "ifeq")
}

// splitCond splits "(a,b)", "'a' 'b'" or "\"a\" \"b\"".
func splitCond(s string) (string, string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		inner := s[1 : len(s)-1]
		depth := 0
		for i, c := range inner {
			switch c {
			case '(', '{':
				depth++
			case ')', '}':
				depth--
			case ',':
				if depth == 0 {
					return strings.TrimSpace(inner[:i]), strings.TrimSpace(inner[i+1:]), true
				}
			}
		}
		return "", "", false
	}
	f := strings.Fields(s)
	if len(f) == 2 && len(f[0]) >= 2 && len(f[1]) >= 2 {
		return strings.Trim(f[0], `'"`), strings.Trim(f[1], `'"`), true
	}
	return "", "", false
}

// value returns the expansion of variable name (empty if undefined);
// ctx names the variable being resolved in unresolved messages.
func (m *makefile) value(name string) string {
	v := m.vars[name]
	if v == nil {
		return ""
	}
	if v.simple {
		return v.val
	}
	return m.expand(v.val, name)
}

// expand performs make's expansion of s: $(VAR), ${VAR}, $$ and the
// text functions abspath, realpath, dir, notdir, basename, suffix,
// strip, subst, patsubst, filter, filter-out, addprefix, addsuffix,
// sort, wildcard, firstword and words, and $(shell echo …) with
// arithmetic expansions (shellEcho: no shell runs). Other functions
// (other commands of $(shell …), $(foreach …), …) and undefined
// variables expand to nothing and are
// recorded in m.unresolved with ctx, the variable being expanded.
func (m *makefile) expand(s, ctx string) string {
	return m.expandDepth(s, ctx, 0)
}

func (m *makefile) expandDepth(s, ctx string, depth int) string {
	if depth > 50 {
		m.unresolved[ctx+": recursive variable"] = true
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch n {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(', '{':
			closeCh := byte(')')
			if n == '{' {
				closeCh = '}'
			}
			j, level := i+2, 1
			for ; j < len(s); j++ {
				if s[j] == n {
					level++
				} else if s[j] == closeCh {
					level--
					if level == 0 {
						break
					}
				}
			}
			if j >= len(s) {
				m.unresolved[fmt.Sprintf("%s: unterminated reference in %q", ctx, s)] = true
				return b.String()
			}
			b.WriteString(m.ref(s[i+2:j], ctx, depth))
			i = j
		default:
			// $@, $<, $X: automatic or one-letter variables
			b.WriteString(m.ref(string(n), ctx, depth))
			i++
		}
	}
	return b.String()
}

// ref expands the inside of one $(…).
func (m *makefile) ref(in, ctx string, depth int) string {
	fn, args, hasArgs := strings.Cut(in, " ")
	if !hasArgs || strings.ContainsAny(fn, "$:=") {
		name := m.expandDepth(in, ctx, depth+1)
		if k, repl, ok := substRef(name); ok {
			return m.substRef(k, repl, ctx, depth)
		}
		v := m.vars[name]
		if v == nil {
			m.unresolved[fmt.Sprintf("%s: $(%s) is not defined", ctx, name)] = true
			return ""
		}
		if v.simple {
			return v.val
		}
		return m.expandDepth(v.val, name, depth+1)
	}
	var parts []string
	if fn == "subst" || fn == "patsubst" || fn == "filter" || fn == "filter-out" || fn == "addprefix" || fn == "addsuffix" {
		parts = splitArgs(args)
		for k := range parts {
			parts[k] = m.expandDepth(parts[k], ctx, depth+1)
		}
	}
	arg := func() string { return m.expandDepth(strings.TrimSpace(args), ctx, depth+1) }
	mapWords := func(f func(string) string) string {
		var out []string
		for _, w := range strings.Fields(arg()) {
			out = append(out, f(w))
		}
		return strings.Join(out, " ")
	}
	switch fn {
	case "abspath", "realpath":
		return mapWords(func(w string) string {
			if !filepath.IsAbs(w) {
				w = filepath.Join(m.cwd, w)
			}
			return filepath.Clean(w)
		})
	case "dir":
		return mapWords(func(w string) string {
			if i := strings.LastIndex(w, "/"); i >= 0 {
				return w[:i+1]
			}
			return "./"
		})
	case "notdir":
		return mapWords(func(w string) string { return w[strings.LastIndex(w, "/")+1:] })
	case "basename":
		return mapWords(func(w string) string { return strings.TrimSuffix(w, filepath.Ext(w)) })
	case "suffix":
		return mapWords(filepath.Ext)
	case "strip":
		return strings.Join(strings.Fields(arg()), " ")
	case "sort":
		w := strings.Fields(arg())
		sort.Strings(w)
		return strings.Join(dedup(w), " ")
	case "firstword":
		if w := strings.Fields(arg()); len(w) > 0 {
			return w[0]
		}
		return ""
	case "words":
		return fmt.Sprint(len(strings.Fields(arg())))
	case "shell":
		if out, ok := shellEcho(arg()); ok {
			return out
		}
	case "wildcard":
		var out []string
		for _, pat := range strings.Fields(arg()) {
			abs := pat
			if !filepath.IsAbs(pat) {
				abs = filepath.Join(m.cwd, pat)
			}
			matches, _ := filepath.Glob(abs)
			for _, mm := range matches {
				if filepath.IsAbs(pat) {
					out = append(out, mm)
				} else if r, err := filepath.Rel(m.cwd, mm); err == nil {
					out = append(out, r)
				}
			}
		}
		return strings.Join(out, " ")
	case "subst":
		if len(parts) == 3 {
			return strings.ReplaceAll(parts[2], parts[0], parts[1])
		}
	case "patsubst":
		if len(parts) == 3 {
			var out []string
			for _, w := range strings.Fields(parts[2]) {
				out = append(out, patsubst(parts[0], parts[1], w))
			}
			return strings.Join(out, " ")
		}
	case "filter", "filter-out":
		if len(parts) == 2 {
			pats := strings.Fields(parts[0])
			var out []string
			for _, w := range strings.Fields(parts[1]) {
				hit := false
				for _, p := range pats {
					if patsubst(p, "\x00", w) == "\x00" {
						hit = true
					}
				}
				if hit == (fn == "filter") {
					out = append(out, w)
				}
			}
			return strings.Join(out, " ")
		}
	case "addprefix", "addsuffix":
		if len(parts) == 2 {
			var out []string
			for _, w := range strings.Fields(parts[1]) {
				if fn == "addprefix" {
					out = append(out, parts[0]+w)
				} else {
					out = append(out, w+parts[0])
				}
			}
			return strings.Join(out, " ")
		}
	}
	m.unresolved[fmt.Sprintf("%s: $(%s …) not evaluated", ctx, fn)] = true
	return ""
}

// substRef recognises a substitution reference VAR:a=b.
func substRef(name string) (string, string, bool) {
	v, rule, ok := strings.Cut(name, ":")
	if !ok || !strings.Contains(rule, "=") {
		return "", "", false
	}
	return v, rule, true
}

func (m *makefile) substRef(v, rule, ctx string, depth int) string {
	from, to, _ := strings.Cut(rule, "=")
	if !strings.Contains(from, "%") {
		from, to = "%"+from, "%"+to
	}
	var out []string
	val := m.vars[v]
	if val == nil {
		return ""
	}
	text := val.val
	if !val.simple {
		text = m.expandDepth(text, v, depth+1)
	}
	for _, w := range strings.Fields(text) {
		out = append(out, patsubst(from, to, w))
	}
	return strings.Join(out, " ")
}

// patsubst replaces word w matching pattern pat (one %) by repl.
func patsubst(pat, repl, w string) string {
	pre, suf, wild := strings.Cut(pat, "%")
	if !wild {
		if w == pat {
			return repl
		}
		return w
	}
	if len(w) < len(pre)+len(suf) || !strings.HasPrefix(w, pre) || !strings.HasSuffix(w, suf) {
		return w
	}
	stem := w[len(pre) : len(w)-len(suf)]
	return strings.Replace(repl, "%", stem, 1)
}

// splitArgs splits function arguments at top-level commas.
func splitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	out = append(out, s[start:])
	if len(out) > 0 {
		out[0] = strings.TrimLeft(out[0], " ")
	}
	return out
}

func dedup(w []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range w {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
