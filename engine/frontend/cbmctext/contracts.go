package cbmctext

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/contract"
	"modernc.org/cc/v4"
)

// contractWords are the names whose presence makes the front end look
// for contracts (CBMC 6's contract clauses).
var contractWords = []string{"__CPROVER_requires", "__CPROVER_ensures", "__CPROVER_assigns", "__CPROVER_loop_invariant", "__CPROVER_decreases", "__CPROVER_frees"}

var strDefineRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+("[^"\n]*"|<[^>\n]*>)[ \t]*$`)

var includeMacroRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]+([A-Za-z_]\w*)`)

var includeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]`)

// File is a translation unit's source: its name and text.
type File struct{ Name, Content string }

// Contracts holds what Prepare made of the sources: each unit's text
// with its clauses blanked, and the contracts it may declare.
type Contracts struct {
	units   map[string]string           // source name → text with the clauses blanked
	cands   map[string][]*contract.Func // source name → the contracts it may declare
	al      contract.Aliases
	emitted map[*contract.Func]bool
}

// Prepare finds the contracts of the sources and of the headers
// they include (package contract: CBMC's clauses after a declarator or a
// loop header, and the macros a project writes them with), serves the
// headers with their clauses blanked through mem, and returns each
// unit's text with the generated functions of the contracts it declares
// or includes (a header's in the first unit that includes it). It
// returns nil when no source or header names a contract.
//
// units are the translation units (not the headers), defines and
// includeDirs the preprocessor's macros (-D) and include directories
// (-I), and mem the in-memory sources by cleaned name.
func Prepare(units []File, defines map[string]string, includeDirs []string, mem map[string]string) (*Contracts, error) {
	read := func(name string) (string, bool) {
		if s, ok := mem[filepath.Clean(name)]; ok {
			return s, true
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	// every header the units include, by raw scan (conditionals not
	// evaluated)
	closure := map[string][]string{} // unit → files in include order, itself first
	strDefs := map[string]string{}   // #define NAME "file" of the files read
	all := map[string]string{}
	for _, s := range units {
		seen := map[string]bool{}
		var order []string
		var walk func(name, text string)
		walk = func(name, text string) {
			name = filepath.Clean(name)
			if seen[name] {
				return
			}
			seen[name] = true
			order = append(order, name)
			all[name] = text
			for _, d := range strDefineRE.FindAllStringSubmatch(text, -1) {
				strDefs[d[1]] = d[2]
			}
			incs := includeRE.FindAllStringSubmatch(text, -1)
			// #include MACRO, the macro a -D option (mlkem-native's
			// MLK_CONFIG_FILE) or a #define of the text gives a name
			for _, m := range includeMacroRE.FindAllStringSubmatch(text, -1) {
				v, ok := defines[m[1]]
				if !ok {
					v, ok = strDefs[m[1]]
				}
				v = strings.TrimSpace(v)
				if ok && len(v) > 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '<' && v[len(v)-1] == '>') {
					incs = append(incs, []string{"", v[:1], v[1 : len(v)-1]})
				}
			}
			for _, m := range incs {
				var dirs []string
				if m[1] == `"` {
					dirs = append(dirs, filepath.Dir(name))
				}
				dirs = append(dirs, includeDirs...)
				if filepath.IsAbs(m[2]) {
					dirs = []string{"/"} // opened as it is named, as gcc does
				}
				for _, d := range dirs {
					p := filepath.Join(d, m[2])
					if t, ok := read(p); ok {
						walk(p, t)
						break
					}
				}
			}
		}
		walk(s.Name, s.Content)
		// again, with the names every file's #defines give includes
		seen, order = map[string]bool{}, nil
		walk(s.Name, s.Content)
		closure[s.Name] = order
	}
	found := false
	texts := make([]string, 0, len(all))
	names := make([]string, 0, len(all))
	for n, t := range all {
		names = append(names, n)
		for _, w := range contractWords {
			found = found || strings.Contains(t, w)
		}
	}
	if !found {
		return nil, nil
	}
	sort.Strings(names)
	for _, n := range names {
		texts = append(texts, all[n])
	}
	al := contract.FindAliases(texts...)
	fns := map[string][]*contract.Func{}
	rewritten := map[string]string{}
	for _, n := range names {
		out, fs, err := contract.Rewrite(n, BlankQuantifiers(all[n]), al)
		if err != nil {
			return nil, err
		}
		rewritten[n] = out
		fns[n] = fs
		if !isUnit(units, n) {
			mem[n] = out
		}
	}
	c := &Contracts{units: map[string]string{}, cands: map[string][]*contract.Func{}, al: al, emitted: map[*contract.Func]bool{}}
	for _, s := range units {
		seen := map[*contract.Func]bool{}
		for _, f := range closure[s.Name] {
			for _, fn := range fns[f] {
				if !seen[fn] {
					seen[fn] = true
					c.cands[s.Name] = append(c.cands[s.Name], fn)
				}
			}
		}
		c.units[s.Name] = rewritten[filepath.Clean(s.Name)]
	}
	return c, nil
}

// Text is the text of unit with its contract clauses blanked.
func (c *Contracts) Text(unit string) string { return c.units[unit] }

// Declares reports whether unit may declare a contract (its text or a
// header it includes has one): then its first parse, ast, goes to
// Generate.
func (c *Contracts) Declares(unit string) bool { return len(c.cands[unit]) > 0 }

// Generate returns the text to append to unit: the checks and uses of
// the contracts among its candidates whose declarations the
// preprocessor kept (declared in ast, the unit's first parse, at
// "file:line": declaredLines) and that no earlier unit generated. A
// contract on a declaration and the definition's are one contract.
func (c *Contracts) Generate(unit string, ast *cc.AST) (string, error) {
	decls := declaredLines(ast)
	var mine []*contract.Func
	byName := map[string]*contract.Func{}
	for _, fn := range c.cands[unit] {
		d, ok := decls[fmt.Sprintf("%s:%d", filepath.Clean(fn.File), fn.Line)]
		if c.emitted[fn] || !ok {
			continue
		}
		fn.Real, fn.Kept, fn.CallAsWritten = d.name, d.params, d.macroAtEnd[fn.Name]
		c.emitted[fn] = true
		if prev := byName[fn.Name]; prev != nil {
			prev.Clauses = append(prev.Clauses, fn.Clauses...)
			continue
		}
		byName[fn.Name] = fn
		mine = append(mine, fn)
	}
	if len(mine) == 0 {
		return "", nil
	}
	return contract.Generate(mine, c.al)
}

// declared is a declarator as the first parse saw it: its name and its
// parameters' names after macro expansion.
type declared struct {
	name   string
	params []string
	// macroAtEnd: the name as written is a macro where the unit ends
	// (where the generated text goes)
	macroAtEnd map[string]bool
}

// declaredLines returns "file:line" of every declarator at file scope of
// ast (function definitions and declarations), with the names of a
// function's parameters as the preprocessor left them (a function-like
// macro naming the function may drop some: mlkem-native's context
// parameter).
func declaredLines(ast *cc.AST) map[string]declared {
	out := map[string]declared{}
	macros := map[string]bool{}
	for n := range ast.Macros {
		macros[n] = true
	}
	add := func(d *cc.Declarator) {
		if d == nil {
			return
		}
		p := d.Position()
		names, ok := writtenParams(d)
		if !ok {
			names = []string{}
			if ft, ok := d.Type().(*cc.FunctionType); ok {
				for _, prm := range ft.Parameters() {
					if prm.Type() != nil && prm.Type().Kind() == cc.Void {
						continue // (void)
					}
					names = append(names, prm.Name())
				}
			}
		}
		out[fmt.Sprintf("%s:%d", filepath.Clean(p.Filename), p.Line)] = declared{d.Name(), names, macros}
	}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil {
			continue
		}
		if ed.FunctionDefinition != nil {
			add(ed.FunctionDefinition.Declarator)
		}
		if ed.Declaration != nil {
			for il := ed.Declaration.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
				if il.InitDeclarator != nil {
					add(il.InitDeclarator.Declarator)
				}
			}
		}
	}
	return out
}

// writtenParams returns the names of a function declarator's parameters
// as this declarator writes them (after preprocessing), false when d
// declares no function with a parameter list. The function type cc/v4
// gives a declaration is the one of the unit's first declarator of the
// function, whose names may differ (a header's `f(mlk_poly *r)`, the
// definition's `f(mlk_poly *p)`); a contract names the parameters of its
// own declarator.
func writtenParams(d *cc.Declarator) ([]string, bool) {
	dd := d.DirectDeclarator
	for dd != nil {
		switch dd.Case {
		case cc.DirectDeclaratorFuncParam:
			if in := dd.DirectDeclarator; in != nil && in.Case == cc.DirectDeclaratorIdent {
				names := []string{}
				if dd.ParameterTypeList == nil {
					return names, true
				}
				for l := dd.ParameterTypeList.ParameterList; l != nil; l = l.ParameterList {
					pd := l.ParameterDeclaration
					if pd == nil {
						continue
					}
					if pd.Declarator == nil {
						if pd.Type() != nil && pd.Type().Kind() == cc.Void {
							continue // (void)
						}
						names = append(names, "")
						continue
					}
					names = append(names, pd.Declarator.Name())
				}
				return names, true
			}
			dd = dd.DirectDeclarator
		case cc.DirectDeclaratorDecl:
			if dd.Declarator == nil {
				return nil, false
			}
			dd = dd.Declarator.DirectDeclarator
		default:
			dd = dd.DirectDeclarator
		}
	}
	return nil, false
}

// isUnit reports whether name is the cleaned name of one of units.
func isUnit(units []File, name string) bool {
	for _, s := range units {
		if filepath.Clean(s.Name) == name {
			return true
		}
	}
	return false
}

// AssignedParams maps the functions whose calls the contracts replace
// (all, or those in use when not nil) and whose assigns clauses name
// only objects their pointer parameters point to
// (contract.AssignedParams) to the positions of those parameters: a
// loop body may call them when its frame holds the objects of those
// arguments.
func (c *Contracts) AssignedParams(use map[string]bool) map[string][]int {
	out := map[string][]int{}
	for fn := range c.emitted {
		if fn.Real == "" || use != nil && !use[fn.Real] {
			continue
		}
		if pos, ok := contract.AssignedParams(fn, c.al); ok {
			out[fn.Real] = pos
		}
	}
	return out
}

// WritesNothing names the functions whose calls the contracts replace
// (all, or those in use when not nil) and whose contracts assign nothing
// (no assigns clause, or an empty one): a loop body may call them
// without an assigns clause of its own.
func (c *Contracts) WritesNothing(use map[string]bool) map[string]bool {
	out := map[string]bool{}
	for fn := range c.emitted {
		if fn.Real == "" || use != nil && !use[fn.Real] {
			continue
		}
		assigns := false
		for _, cl := range fn.Clauses {
			if cl.Kind == contract.Assigns && strings.TrimSpace(cl.Text) != "" {
				assigns = true
			}
		}
		if !assigns {
			out[fn.Real] = true
		}
	}
	return out
}
