package harness

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
)

// File is a source file: its name as the front end knows it and its
// text.
type File struct{ Name, Content string }

// Attached is a program translated with the most general context of each
// of its functions appended to the function's file.
type Attached struct {
	Program *cfa.Program
	// Contexts are by the cfa name of the function; one with a
	// Limitation has no entry in Program.
	Contexts map[string]*Context
	// Globals are the assumptions of the written globals' values, by
	// file.
	Globals map[string][]string
	// Texts are the files as Program was translated from them, with the
	// contexts appended, by name.
	Texts map[string]string
}

// Attach writes a context (Build) for every function of prog, the
// program translated from files, except main (whose inputs argc and argv
// are), and the globals' function (Globals) of every file, appends them
// to the files and translates them again with load. A context that does
// not compile is left out, with the compiler's first message as its
// Limitation; an error of load that no context causes is returned.
func Attach(prog *cfa.Program, files []File, opts Options, read func(name string) (string, bool), load func([]File) (*cfa.Program, error)) (*Attached, error) {
	a := &Attached{Contexts: map[string]*Context{}, Globals: map[string][]string{}}
	written := Written(prog)
	byFile := map[string][]*Context{}
	var globals []string // every file's: a context gives all written globals their values
	for _, s := range files {
		globals = append(globals, globalsName(s.Name))
	}
	contracted := map[string]bool{}
	for _, c := range contract.Find(prog) {
		contracted[c.Func] = true
	}
	for _, f := range prog.Funcs {
		// a function with a contract is verified by its contract's
		// check (engine/contract), which is its context
		if f.Name == "main" || cfa.Generated(f.Name) || contracted[f.Name] {
			continue
		}
		// The context goes into the function's translation unit (for a
		// definition in a header, the source including it); the
		// parameters' declarations come from the definition's text.
		unit := f.Unit
		if _, ok := sourceOf(files, unit); !ok {
			unit = f.Pos.Start.File
		}
		if _, ok := sourceOf(files, unit); !ok {
			a.Contexts[f.Name] = &Context{Func: f.Name, Limitation: "its definition is in " + f.Pos.Start.File + ", which no source file of the program includes"}
			continue
		}
		src, ok := sourceOf(files, f.Pos.Start.File)
		if !ok && read != nil {
			src, ok = read(f.Pos.Start.File)
		}
		if !ok {
			a.Contexts[f.Name] = &Context{Func: f.Name, Limitation: "the text of " + f.Pos.Start.File + " is not available"}
			continue
		}
		c := Build(prog, f, src, globals, opts)
		c.File = unit
		a.Contexts[f.Name] = c
		if c.Limitation == "" {
			byFile[c.File] = append(byFile[c.File], c)
		}
	}
	pre := map[string]string{}
	// A written global that no source can name (a header's, whose
	// address only a global initialiser takes) keeps its value: said.
	byHome, unplaced := homes(prog, files, written)
	if len(unplaced) > 0 {
		names := make([]string, len(unplaced))
		for i, v := range unplaced {
			names[i] = v.Name
		}
		sort.Strings(names)
		a.Globals[""] = []string{fmt.Sprintf("globals no source file can name keep their initial values although functions write them (%s)", strings.Join(names, ", "))}
	}
	for _, s := range files {
		text, assumed := Globals(prog, s.Name, globalsName(s.Name), byHome[s.Name], opts)
		a.Globals[s.Name] = assumed
		var decls strings.Builder
		for _, g := range globals {
			fmt.Fprintf(&decls, "void %s(void);\n", g)
		}
		pre[s.Name] = Prelude(opts) + decls.String() + text
	}
	for attempt := 0; ; attempt++ {
		app := make([]File, len(files))
		spans := map[*Context][2]int{}
		for i, s := range files {
			text := s.Content
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			text += pre[s.Name]
			for _, c := range byFile[s.Name] {
				if c.Text == "" {
					continue
				}
				from := strings.Count(text, "\n") + 1
				text += c.Text
				spans[c] = [2]int{from, strings.Count(text, "\n")}
			}
			app[i] = File{Name: s.Name, Content: text}
		}
		p, err := load(app)
		if err == nil {
			a.Program = p
			a.Texts = map[string]string{}
			for _, f := range app {
				a.Texts[f.Name] = f.Content
			}
			return a, nil
		}
		c := culprit(err, spans)
		if c == nil || attempt > len(a.Contexts) {
			return nil, fmt.Errorf("the most general contexts do not compile: %v", err)
		}
		c.Limitation = "its context does not compile: " + firstLine(err.Error())
		c.Text = ""
	}
}

// AnyContext returns the entry of some context ("" when there is none):
// from any context, spec.Properties finds every assertion site where
// the sources put it (a context's calls make no assert wrapper).
func (a *Attached) AnyContext() string {
	for _, f := range a.Program.Funcs {
		if cfa.IsContext(f.Name) {
			return f.Name
		}
	}
	return ""
}

var errPos = regexp.MustCompile(`(?m)^([^:\n]+):(\d+):`)

// culprit returns the context whose lines (spans) hold the first error
// of err that is in a context, or nil.
func culprit(err error, spans map[*Context][2]int) *Context {
	for _, m := range errPos.FindAllStringSubmatch(err.Error(), -1) {
		line, _ := strconv.Atoi(m[2])
		for c, sp := range spans {
			if c.File == m[1] && line >= sp[0] && line <= sp[1] {
				return c
			}
		}
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func sourceOf(files []File, name string) (string, bool) {
	for _, s := range files {
		if s.Name == name {
			return s.Content, true
		}
	}
	return "", false
}

// globalsName is the name of the function that gives the written globals
// of file name their values.
func globalsName(name string) string { return "__reverify_globals_" + ident(name) }
