package reproduce

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// The entry function is called by the harness when the C runtime's own
// call of main is not the counterexample's: the entry is another function
// (--entry f), which needs a main that calls it, or the counterexample
// gives values of main's parameters (argc), which the runtime would not
// pass. The harness then defines __wrap_main and the reproducer is linked
// with -Wl,--wrap=main, so that the C runtime calls the harness instead of
// main (a program without main links too, and the program's own main stays
// reachable as __real_main); the harness calls the entry function with the
// counterexample's values of its parameters. main gets the
// counterexample's argc and an argv of as many strings: the program's
// name, then empty strings, since a counterexample never reads what argv
// points to (a path that does cannot be encoded, so its property is
// UNKNOWN), and the real environment as envp. A most general context
// (library mode) is called by report/artifacts' own main instead.

// maxArgc bounds the argc a harness passes (its argv is allocated).
const maxArgc = 1 << 24

// wrapMainFlag is the linker flag that routes the C runtime's call of
// main to the harness's __wrap_main.
const wrapMainFlag = "-Wl,--wrap=main"

// entryCall is how the harness calls the entry function.
type entryCall struct {
	fn *cfa.Function
	// argc, for main, is the counterexample's argc, which the harness
	// passes with an argv of as many strings (-1: main is called without
	// argv).
	argc int64
	// returns: __wrap_main returns the entry function's result (main's).
	returns bool
	proto   string   // the harness's declaration of the entry function
	args    []string // one C expression per parameter
	notes   []string // how the arguments were chosen (comments)
}

// entryFunc returns the entry function of the counterexample: the callee
// of its step from the global initialiser, else the task's entry.
func (c *ctx) entryFunc() *cfa.Function {
	for _, s := range c.v.Path {
		if s.Kind == cfa.Enter && s.Edge == nil && s.Callee != nil {
			return s.Callee
		}
	}
	name := c.v.Task.Entry
	if name == "" {
		name = "main"
	}
	return c.v.Program.Func(name)
}

// paramInputs returns the counterexample's values of the entry
// function's parameters ("param x") by parameter name.
func (c *ctx) paramInputs() map[string]results.Input {
	m := map[string]results.Input{}
	for _, in := range c.v.Inputs {
		if name, ok := strings.CutPrefix(in.Source, "param "); ok {
			m[name] = in
		}
	}
	return m
}

// entryCall returns how the harness calls the entry function, nil when
// the C runtime's call of main is the counterexample's, or why no harness
// can call it as the counterexample does.
func (c *ctx) entryCall() (*entryCall, error) {
	fn := c.entryFunc()
	if fn == nil || cfa.IsContext(fn.Name) {
		return nil, nil
	}
	params := c.paramInputs()
	isMain := fn.Name == "main"
	if isMain {
		given := false
		for _, v := range fn.Params {
			_, ok := params[v.Name]
			given = given || ok
		}
		if !given {
			return nil, nil // the C runtime's call is as good
		}
	}
	if fn.Static {
		return nil, fmt.Errorf("witness: cannot call the entry function %s: it is static, so a harness in another file cannot name it", fn.Name)
	}
	hosted := isMain && len(fn.Params) > 0 && fn.IsArgc(fn.Params[0])
	ec := &entryCall{fn: fn, argc: -1}
	var ptypes []string
	for i, v := range fn.Params {
		ct, ok := witness.CType(v.T)
		if !ok {
			return nil, fmt.Errorf("witness: cannot call the entry function %s: parameter %s has type %s, which the harness cannot spell", fn.Name, v.Orig, v.T)
		}
		ptypes = append(ptypes, ct)
		name := v.Orig
		if name == "" {
			name = v.Name
		}
		in, given := params[v.Name]
		switch {
		case hosted && i == 0:
			argc := int64(0)
			if given {
				argc = cfa.SignExtend(in.Bits, v.T.Width())
			}
			if argc < 0 || argc > maxArgc {
				return nil, fmt.Errorf("witness: cannot call main with argc = %d: a reproducer passes at most %d arguments", argc, maxArgc)
			}
			ec.argc = argc
			ec.args = append(ec.args, fmt.Sprint(argc))
			ec.notes = append(ec.notes, fmt.Sprintf("%s = %d", name, argc))
			continue
		case hosted && i == 1:
			ec.args = append(ec.args, "rv_argv")
			ec.notes = append(ec.notes, fmt.Sprintf("%s = the program's name, then empty strings, and %s[argc] a null pointer: the counterexample does not read the strings, so it does not give them", name, name))
			continue
		case hosted && i == 2:
			ec.args = append(ec.args, "envp") // __wrap_main's
			ec.notes = append(ec.notes, fmt.Sprintf("%s = the environment", name))
			continue
		case v.T.Kind == cfa.Int || v.T.Kind == cfa.Bool:
			if !given {
				ec.args = append(ec.args, "0")
				ec.notes = append(ec.notes, fmt.Sprintf("%s = 0: the counterexample does not read it", name))
				continue
			}
			ec.args = append(ec.args, argLiteral(v.T, ct, in.Bits))
			ec.notes = append(ec.notes, fmt.Sprintf("%s = %s", name, witness.CValue(v.T, in.Bits)))
		case fn.Mentions(v):
			what := "the value"
			if v.T.Kind == cfa.Pointer {
				what = "what it points to"
			}
			return nil, fmt.Errorf("witness: cannot call the entry function %s: the counterexample does not give %s of parameter %s (type %s)", fn.Name, what, name, v.T)
		case v.T.Kind == cfa.Pointer:
			ec.args = append(ec.args, "0")
			ec.notes = append(ec.notes, fmt.Sprintf("%s = a null pointer: %s never uses it", name, fn.Name))
		default:
			ec.args = append(ec.args, "0")
			ec.notes = append(ec.notes, fmt.Sprintf("%s = 0: %s never uses it", name, fn.Name))
		}
	}
	result := "void"
	if r := resultType(fn.T); r != nil && r.Kind != cfa.Void {
		ct, ok := witness.CType(r)
		if !ok {
			return nil, fmt.Errorf("witness: cannot call the entry function %s: it returns %s, which the harness cannot spell", fn.Name, r)
		}
		result = ct
		ec.returns = isMain && r.Kind == cfa.Int
	}
	plist := strings.Join(ptypes, ", ")
	switch {
	case fn.T != nil && fn.T.Variadic && plist != "":
		plist += ", ..."
	case plist == "":
		plist = "void"
	}
	sym := fn.Name
	if isMain {
		sym = "__real_main" // main itself, under -Wl,--wrap=main
	}
	ec.proto = fmt.Sprintf("extern %s rv_entry(%s) __asm__(%q);", result, plist, sym)
	return ec, nil
}

// argLiteral writes bits as an argument of type t (C spelling ct).
func argLiteral(t *cfa.Type, ct string, bits uint64) string {
	if t.Kind == cfa.Bool {
		if bits&1 != 0 {
			return "1"
		}
		return "0"
	}
	if w := t.Width(); w > 0 && w < 64 {
		bits = cfa.Truncate(bits, w)
	}
	return fmt.Sprintf("(%s)%#xULL", ct, bits)
}

// write defines __wrap_main, which calls the entry function.
func (ec *entryCall) write(b *strings.Builder) {
	fmt.Fprintf(b, "\n/* The entry function %s, called with the counterexample's values of its\n * parameters:\n", ec.fn.Name)
	for _, n := range ec.notes {
		fmt.Fprintf(b, " *   %s\n", comment(n))
	}
	if len(ec.notes) == 0 {
		b.WriteString(" *   (none)\n")
	}
	fmt.Fprintf(b, ` * The reproducer is linked with %s: the C runtime calls
 * __wrap_main instead of main.
 */
%s

int __wrap_main(int argc, char **argv, char **envp);

int __wrap_main(int argc, char **argv, char **envp)
{
`, wrapMainFlag, ec.proto)
	call := fmt.Sprintf("rv_entry(%s)", strings.Join(ec.args, ", "))
	if ec.argc < 0 {
		ret := call + ";\n\treturn 0"
		if ec.returns {
			ret = "return " + call
		}
		fmt.Fprintf(b, "\t(void)argc;\n\t(void)argv;\n\t(void)envp;\n\t%s;\n}\n", ret)
		return
	}
	fmt.Fprintf(b, `	const unsigned long n = %[1]d;
	char **rv_argv, *rv_strings;
	unsigned long i;

#ifdef RV_MALLOC_PLAN
	rv_harness_allocating = 1; /* not the program's allocations */
#endif
	rv_argv = calloc(n + 1, sizeof *rv_argv);
	rv_strings = calloc(n + 1, 1);
#ifdef RV_MALLOC_PLAN
	rv_harness_allocating = 0;
#endif

	(void)envp;
	if (!rv_argv || !rv_strings) {
		fprintf(stderr, "reverify-reproducer: cannot allocate the %%lu arguments of main\n", n);
		return 2;
	}
	for (i = 0; i < n; i++)
		rv_argv[i] = rv_strings + i;
	if (n > 0 && argc > 0)
		rv_argv[0] = argv[0];
	fprintf(stderr, "reverify-reproducer: note: main runs with argc = %%lu, as in the counterexample; its argv strings after the program's name are empty (the counterexample does not read them)\n", n);
	return %[2]s;
}
`, ec.argc, call)
}
