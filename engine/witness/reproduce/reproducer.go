package reproduce

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/witness"
)

// The observable outcome of a reproducer run that reaches the error: the
// harness prints a line starting with ReachedMarker to stderr and exits
// with ReachedExitCode.
const (
	ReachedMarker   = "reverify-reproducer: reached error"
	ReachedExitCode = 77
)

// assertFuncs are the C library's assertion-failure functions with their
// prototypes (glibc, BSD and Darwin) and how the harness describes a call.
var assertFuncs = map[string]struct{ proto, describe string }{
	"__assert_fail": {
		"void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)",
		`snprintf(rv_buf, sizeof rv_buf, "__assert_fail(\"%s\", \"%s\", %u, \"%s\")", assertion, file, line, function)`},
	"__assert_perror_fail": {
		"void __assert_perror_fail(int errnum, const char *file, unsigned int line, const char *function)",
		`snprintf(rv_buf, sizeof rv_buf, "__assert_perror_fail(%d, \"%s\", %u, \"%s\")", errnum, file, line, function)`},
	"__assert": {
		"void __assert(const char *assertion, const char *file, int line)",
		`snprintf(rv_buf, sizeof rv_buf, "__assert(\"%s\", \"%s\", %d)", assertion, file, line)`},
	"__assert_rtn": {
		"void __assert_rtn(const char *function, const char *file, int line, const char *assertion)",
		`snprintf(rv_buf, sizeof rv_buf, "__assert_rtn(\"%s\", \"%s\", %d, \"%s\")", function, file, line, assertion)`},
}

// Reproducer returns a C test harness for the counterexample: a file to
// compile together with the program (see BuildLine) that defines every
// __VERIFIER_nondet_* function the program uses without defining it, so
// that the calls return the counterexample's values in order, and that
// makes reaching the error observable (ReachedMarker, ReachedExitCode).
// See the package documentation for the design.
//
// Reads of volatile globals get the counterexample's values through
// accessors (compile with BuildFlags(source); see volatile.go).
//
// It fails when the counterexample depends on values a harness cannot
// supply: an uninitialised local that is read (an address-taken one as
// the concrete replay interp.UnobservedInputs finds), the result of an
// external function, a volatile read no accessor can supply safely.
func Reproducer(v *witness.Violation) (string, error) {
	c, err := newCtx(v)
	if err != nil {
		return "", err
	}
	if c.isContractCheck() {
		return c.contractReproducer() // contract.go
	}
	if err := c.contractRefusal(); err != nil {
		return "", err
	}
	p := v.Program

	// The values, in read order.
	type value struct {
		fn, at string
		t      *cfa.Type
		bits   uint64
	}
	var values []value
	var envNames []string // getenv's names, in the order of their first calls
	envInputs := 0
	var plan []bool // per call of malloc or calloc on the path: it fails
	unobserved := c.unobserved()
	vols := &volatiles{byVar: map[*cfa.Var]*volatileVar{}}
	externs, err := externObjects(p)
	if err != nil {
		return "", err
	}
	for i, in := range v.Inputs {
		if in.Step >= c.target {
			continue
		}
		if _, ok := c.stdinRead(in.Step); ok {
			continue // a byte of standard input (c.stdin)
		}
		if c.contractChoice(in) {
			continue // contract.go
		}
		if strings.HasPrefix(in.Source, cfa.GetenvSource+" ") {
			// an input of getenv (cfa.EnvName): the harness's getenv
			// reads them in order (getenvDef), a name's 2+EnvBytes at
			// its first call, the first with Source "getenv NAME"
			if envInputs%(2+cfa.EnvBytes) == 0 {
				name := strings.TrimPrefix(in.Source, cfa.GetenvSource+" ")
				for _, r := range name {
					if r < ' ' || r > '~' || r == '"' || r == '\\' || r == '?' {
						return "", fmt.Errorf("witness: cannot reproduce getenv(%q): the harness spells only printable ASCII names without quotes, backslashes or question marks", name)
					}
				}
				envNames = append(envNames, name)
			}
			envInputs++
			values = append(values, value{fn: cfa.GetenvSource, at: c.v.Path[in.Step].Edge.Pos.Start.String(), t: in.Type, bits: in.Bits})
			continue
		}
		if name, ok := strings.CutPrefix(in.Source, "volatile "); ok {
			if err := c.addVolatile(vols, in, name); err != nil {
				return "", err
			}
			continue
		}
		if x, ok := c.externInput(p, externs, in); ok {
			// a scalar of an object from outside: the harness defines
			// the object (externDefs)
			x.add(c, in)
			continue
		}
		vs, ok := c.site(in.Step)
		if !ok {
			if cfa.NondetFunc(in.Source) && in.Type != nil {
				values = append(values, value{fn: in.Source, t: in.Type, bits: in.Bits})
			}
			continue
		}
		at := c.v.Path[in.Step].Edge.Pos.Start.String()
		if mallocChoice(in.Source, c.v.Path[in.Step].Edge) {
			// the allocation succeeds or fails as in the counterexample
			// (writeMallocPlan)
			plan = append(plan, in.Bits != 0)
			continue
		}
		if vs.Kind != witness.SiteNondet {
			if c.relevant(in.Step, vs) && !(vs.Kind == witness.SiteUninit && unobserved[i]) {
				return "", c.dependsErr(in.Step, vs, at)
			}
			continue
		}
		values = append(values, value{fn: vs.Fn, at: at, t: vs.T, bits: vs.In.Bits})
	}

	// The functions to define.
	nondet := map[string]*cfa.Type{}
	for name, t := range p.Externals {
		if cfa.NondetFunc(name) {
			nondet[name] = resultType(t)
		}
	}
	for _, e := range p.Edges {
		if h, ok := e.Op.(*cfa.Havoc); ok && cfa.NondetFunc(h.Source) && nondet[h.Source] == nil {
			nondet[h.Source] = h.LHS.Type()
		}
	}
	for _, x := range values {
		if nondet[x.fn] == nil && !cfa.IsInputFunc(x.fn) && x.fn != cfa.GetenvSource {
			nondet[x.fn] = x.t
		}
	}
	external := func(name string) bool {
		_, ok := p.Externals[name]
		return ok && p.Func(name) == nil
	}
	var names []string
	for name := range nondet {
		if p.Func(name) == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	inputs := map[string]bool{}
	for _, e := range p.Edges {
		if h, ok := e.Op.(*cfa.Havoc); ok && cfa.IsInputFunc(h.Source) && p.Func(h.Source) == nil {
			inputs[h.Source] = true
		}
	}

	// How reaching the error becomes observable.
	abortRoute, hookRoute := false, false
	if ef := p.Func(c.errFunc); ef != nil {
		calls := c.externalCalls(c.errFunc)
		observable := calls["reach_error"] || calls["__VERIFIER_error"]
		for name := range assertFuncs {
			observable = observable || calls[name]
		}
		if !observable && calls["abort"] && p.Func("abort") == nil {
			if ef.Static {
				return "", fmt.Errorf("witness: cannot observe reaching %s: it is static and ends in abort()", c.errFunc)
			}
			abortRoute, observable = true, true
		}
		if !observable && !ef.Static {
			// The program's own error function (an empty reach_error):
			// entering it is observed through -finstrument-functions.
			hookRoute, observable = true, true
		}
		if !observable {
			return "", fmt.Errorf("witness: cannot observe reaching %s: the program defines it as static, and it calls neither __assert_fail nor abort", c.errFunc)
		}
	}

	ec, err := c.entryCall()
	if err != nil {
		return "", err
	}
	sin, err := c.stdin()
	if err != nil {
		return "", err
	}
	sc := c.siteCheck()
	objs, err := externDefs(externs)
	if err != nil {
		return "", err
	}
	cbmc, err := cbmcDefs(p, c.errFunc)
	if err != nil {
		return "", err
	}
	if p.CBMC && c.errFunc == "__assert_fail" {
		// a failing __CPROVER_assert is judged by its return address
		sc.addrs = true
	}

	var b strings.Builder
	files := strings.Join(c.order, " ")
	flags := ""
	allFlags := vols.flags()
	if ec != nil {
		allFlags = append(allFlags, wrapMainFlag)
	}
	if sc.addrs {
		allFlags = append(allFlags, debugFlag)
	}
	for _, f := range allFlags {
		flags += " '" + f + "'"
	}
	if p.CBMC {
		flags += " -include <this file>"
	}
	run := "./repro"
	if sin.read {
		run = "printf '" + printfEscape(sin.bytes) + "' | ./repro"
		if len(sin.bytes) > stdinBytesPerLine {
			run = "./repro, with the standard input below"
		}
	}
	fmt.Fprintf(&b, `/* Reproducer generated by reverify for a counterexample of %s.
 *
 * Compile it together with the program and run it, e.g.
 *   gcc -O0 -fwrapv -finstrument-functions%s%s -o repro %s <this file> && %s
 * The __VERIFIER_nondet_* functions return the counterexample's values in
 * the order they were read. When the run reaches the error, the harness
 * prints %q to stderr and exits with status %d.
 */
`, comment(files), map[bool]string{true: " -m32"}[v.Task.DataModel == cfa.ILP32], comment(flags), files, comment(run), ReachedMarker, ReachedExitCode)
	sin.write(&b)
	vols.writeHead(&b)
	if ec != nil {
		fmt.Fprintf(&b, "/* The harness calls the entry function %s (see __wrap_main). */\n%s%s\n\n", comment(ec.fn.Name), buildFlagPrefix, wrapMainFlag)
	}
	if sc.addrs {
		fmt.Fprintf(&b, "/* Debugging information: addr2line tells where an error is called. */\n%s%s\n\n", buildFlagPrefix, debugFlag)
	}
	if v.Memory != "" {
		fmt.Fprintf(&b, `/* The counterexample violates %s: AddressSanitizer reports it. */
%s-fsanitize=address
%s-fno-omit-frame-pointer
`, v.Memory, buildFlagPrefix, buildFlagPrefix)
	} else if qs := memQueries(p); len(qs) > 0 {
		fmt.Fprintf(&b, `/* The program calls %s: the harness computes them from
 * AddressSanitizer's memory. */
%s-fsanitize=address
%s-fno-omit-frame-pointer
`, strings.Join(qs, ", "), buildFlagPrefix, buildFlagPrefix)
	}
	b.WriteString(cbmcPrelude(p))
	if inputs["time"] || inputs["clock"] {
		b.WriteString("#include <time.h>\n")
	}
	b.WriteString(`#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

struct rv_value {
	const char *fn;
	unsigned long long bits;
	const char *at;
};

static const struct rv_value rv_values[] = {
`)
	for i, x := range values {
		fmt.Fprintf(&b, "\t{%q, %#xULL, %q}, /* %d: %s */\n", x.fn, x.bits, x.at, i, witness.CValue(x.t, x.bits))
	}
	fmt.Fprintf(&b, `	{0, 0, 0}
};
static const unsigned long rv_count = %d;
static unsigned long rv_next;

static unsigned long long rv_read(const char *fn)
{
	const struct rv_value *v;
	if (rv_next >= rv_count) {
		fprintf(stderr, "reverify-reproducer: note: %%s called after the %%lu recorded value(s); returning 0\n", fn, rv_count);
		rv_next++;
		return 0;
	}
	v = &rv_values[rv_next++];
	if (strcmp(v->fn, fn) != 0)
		fprintf(stderr, "reverify-reproducer: note: value %%lu was recorded for %%s at %%s but is read by %%s\n", rv_next - 1, v->fn, v->at, fn);
	return v->bits;
}

%s static void rv_reached(const char *how)
{
	fflush(stdout);
	fprintf(stderr, "%s: %%s\n", how);
	fflush(stderr);
	_exit(%d);
}

/* With %s set, the reproducer exits before main: a probe of whether
 * the kernel executes it (reproduce.sh). */
__attribute__((constructor)) static void rv_probe(void)
{
	if (getenv("%s"))
		_exit(0);
}
`, len(values), rvFn, ReachedMarker, ReachedExitCode, ProbeEnv, ProbeEnv)
	sc.writeSupport(&b)
	b.WriteString(objs)

	for _, name := range names {
		def, err := nondetDef(name, nondet[name])
		if err != nil {
			return "", err
		}
		b.WriteString("\n" + def)
	}
	for _, name := range sortedKeys(inputs) {
		b.WriteString("\n" + inputDefs[name])
	}
	if len(envNames) > 0 {
		b.WriteString("\nstatic const char *const rv_env_names[] = {\n")
		for _, n := range envNames {
			fmt.Fprintf(&b, "\t\"%s\",\n", n)
		}
		fmt.Fprintf(&b, "};\n"+getenvDef, cfa.EnvBytes)
	}
	for _, name := range []string{"reach_error", "__VERIFIER_error"} {
		if external(name) || name == c.errFunc && p.Func(name) == nil {
			judge := fmt.Sprintf("rv_not_reported(\"%s()\");", name)
			if name == c.errFunc {
				// the call returns to the error call; the frame executing
				// it is the top one (the harness is not instrumented)
				judge = fmt.Sprintf("rv_error(\"%s()\", 0, 0, __builtin_return_address(0), rv_depth - 1);", name)
			}
			fmt.Fprintf(&b, "\n__attribute__((no_instrument_function)) void %s(void)\n{\n\t%s\n}\n", name, judge)
		}
	}
	var asserts []string
	for name := range assertFuncs {
		if external(name) || name == c.errFunc && p.Func(name) == nil {
			asserts = append(asserts, name)
		}
	}
	sort.Strings(asserts)
	for _, name := range asserts {
		a := assertFuncs[name]
		var judge string
		switch {
		case name == c.errFunc:
			// called at the assertion: file and line are its place,
			// else (a preprocessed file keeps its original's __FILE__
			// and __LINE__) where the call returns to
			judge = "rv_error(rv_buf, file, (long)line, __builtin_return_address(0), rv_depth - 1);"
		case len(sc.inErr) > 0:
			// the program's error function calls it: the error is
			// the call of that function, the top frame
			judge = "if (rv_at(rv_in_error, file, (long)line, __builtin_return_address(0)))\n\t\trv_error(rv_buf, 0, 0, rv_frame_site(rv_depth - 1), rv_depth - 2);\n\trv_not_reported(rv_buf);"
		default:
			judge = "rv_not_reported(rv_buf);"
		}
		fmt.Fprintf(&b, "\n__attribute__((no_instrument_function)) %s\n{\n\tchar rv_buf[1024];\n\n\t%s;\n\t%s\n}\n", a.proto, a.describe, judge)
	}
	b.WriteString(cbmc)
	if external("__VERIFIER_assume") {
		b.WriteString(`
void __VERIFIER_assume(int cond)
{
	if (!cond) {
		fflush(stdout);
		fprintf(stderr, "reverify-reproducer: __VERIFIER_assume failed: the run left the counterexample\n");
		_exit(0);
	}
}
`)
	}
	for _, name := range []string{"__VERIFIER_atomic_begin", "__VERIFIER_atomic_end"} {
		if external(name) {
			fmt.Fprintf(&b, "\nvoid %s(void)\n{\n}\n", name)
		}
	}
	vols.writeAccessors(&b)
	if abortRoute {
		c.writeAbort(&b)
	}
	sc.writeHooks(&b, c.errFunc, hookRoute)
	writeMallocPlan(&b, plan)
	if ec != nil {
		ec.write(&b)
	}
	b.WriteString(cbmcClose(p))
	return b.String(), nil
}

// writeAbort defines abort() for programs whose error function ends in
// abort(): the abort is the error when it is called from the error
// function itself, which the harness tells by the return address lying
// within the error function's code (from its address up to the next
// function's, among the program's external functions and the harness's).
// Every other abort behaves as usual. The program's functions are
// declared under harness names bound to their symbols with asm labels, so
// that they cannot clash with the C library's declarations.
func (c *ctx) writeAbort(b *strings.Builder) {
	fmt.Fprintf(b, "\n/* %s ends in abort(): an abort called from it is the error. */\n", c.errFunc)
	fmt.Fprintf(b, "extern void rv_errfn(void) __asm__(%q);\n", c.errFunc)
	var others []string
	for _, f := range c.v.Program.Funcs {
		if f.Static || f.Name == c.errFunc {
			continue
		}
		fmt.Fprintf(b, "extern void rv_fn%d(void) __asm__(%q);\n", len(others), f.Name)
		others = append(others, fmt.Sprintf("rv_fn%d", len(others)))
	}
	others = append(others, "(void (*)(void))rv_read", "(void (*)(void))rv_reached", "abort")
	fmt.Fprintf(b, `void abort(void) __attribute__((no_instrument_function));

typedef unsigned long rv_addr;

static int rv_in_error_function(rv_addr ra)
{
	static void (*const next[])(void) = {
		%s,
	};
	rv_addr lo = (rv_addr)rv_errfn, hi = lo + 0x10000;
	unsigned long i;
	for (i = 0; i < sizeof next / sizeof next[0]; i++) {
		rv_addr a = (rv_addr)next[i];
		if (a > lo && a < hi)
			hi = a;
	}
	/* A call at the very end of a function returns to the next one's
	 * first byte. */
	return ra > lo && ra <= hi;
}

void abort(void)
{
	if (rv_in_error_function((rv_addr)__builtin_return_address(0)))
		rv_error("abort() in %s", 0, 0, rv_frame_site(rv_depth - 1), rv_depth - 2);
	fflush(stdout);
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
	_exit(134);
}
`, strings.Join(others, ",\n\t\t"), c.errFunc)
}

func comment(s string) string { return strings.ReplaceAll(s, "*/", "* /") }

// resultType returns the result type of a function type.
func resultType(t *cfa.Type) *cfa.Type {
	if t != nil && t.Kind == cfa.Func && t.Result != nil {
		return t.Result
	}
	return nil
}

// inputDefs define the C library's input functions (cfa.IsInputFunc)
// that the program calls, so that they return the counterexample's
// values in order, with the effects of their models (cfa.InputCall:
// time also stores its value through its argument; cfa.EmitRead: read
// stores its bytes, the inputs after its count). The program's calls
// bind to these definitions, not the C library's: a definition in the
// executable takes precedence over the shared library's.
var inputDefs = map[string]string{
	"rand":   "int rand(void)\n{\n\treturn (int)rv_read(\"rand\");\n}\n",
	"random": "long random(void)\n{\n\treturn (long)rv_read(\"random\");\n}\n",
	"clock":  "clock_t clock(void)\n{\n\treturn (clock_t)rv_read(\"clock\");\n}\n",
	"time":   "time_t time(time_t *rv_t)\n{\n\ttime_t rv_v = (time_t)rv_read(\"time\");\n\tif (rv_t)\n\t\t*rv_t = rv_v;\n\treturn rv_v;\n}\n",
	// read (cfa.EmitRead): the count, then as many bytes into the
	// buffer, whatever the descriptor
	cfa.ReadSource: `ssize_t read(int rv_fd, void *rv_buf, size_t rv_n)
{
	ssize_t rv_r = (ssize_t)rv_read("read"), rv_i;

	(void)rv_fd;
	(void)rv_n;
	for (rv_i = 0; rv_i < rv_r; rv_i++)
		((unsigned char *)rv_buf)[rv_i] = (unsigned char)rv_read("read");
	return rv_r;
}
`,
}

// getenvDef defines getenv (cfa.EnvName; its argument EnvBytes, after
// the table rv_env_names of the counterexample's names in the order of
// their first calls) as the SMT encoding models it: at the first call of
// the next name of the table it reads whether the name is set, the
// length n of its value and EnvBytes bytes, and returns NULL or a new
// string of the first n of them; later calls of a name return the same
// pointer. Any other name (the C runtime's own calls) is looked up in the
// real environment. The program's calls bind to it, not to the C
// library's.
const getenvDef = `extern char **environ;

char *getenv(const char *rv_name)
{
	static char *rv_env[sizeof rv_env_names / sizeof rv_env_names[0]];
	static int rv_nenv;
	unsigned long rv_n = strlen(rv_name);
	int rv_i;
	unsigned long long rv_set, rv_len, rv_b;
	char *rv_v = 0;
	char **rv_e;

	for (rv_i = 0; rv_i < rv_nenv; rv_i++)
		if (strcmp(rv_env_names[rv_i], rv_name) == 0)
			return rv_env[rv_i];
	if (rv_nenv == sizeof rv_env / sizeof rv_env[0] || strcmp(rv_env_names[rv_nenv], rv_name) != 0) {
		/* a name the counterexample does not read (the C runtime's): the
		 * real environment */
		for (rv_e = environ; rv_e && *rv_e; rv_e++)
			if (strncmp(*rv_e, rv_name, rv_n) == 0 && (*rv_e)[rv_n] == '=')
				return *rv_e + rv_n + 1;
		return 0;
	}
	rv_set = rv_read("getenv");
	rv_len = rv_read("getenv");
	if (rv_set && rv_len <= %[1]d)
		rv_v = calloc(rv_len + 1, 1);
	for (rv_i = 0; rv_i < %[1]d; rv_i++) {
		rv_b = rv_read("getenv");
		if (rv_v && (unsigned long long)rv_i < rv_len)
			rv_v[rv_i] = (char)rv_b;
	}
	rv_env[rv_nenv++] = rv_v;
	return rv_v;
}
`

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// nondetDef defines the nondet function name returning values of type t.
func nondetDef(name string, t *cfa.Type) (string, error) {
	if t == nil {
		t = cfa.IntT
	}
	if t.Kind == cfa.Void {
		return fmt.Sprintf("void %s(void)\n{\n\t(void)rv_read(%q);\n}\n", name, name), nil
	}
	ct, ok := witness.CType(t)
	if !ok {
		return "", fmt.Errorf("witness: cannot reproduce %s: it returns %s", name, t)
	}
	var body string
	switch {
	case t.Kind == cfa.Float && t.Bits == 32:
		body = fmt.Sprintf("unsigned int u = (unsigned int)rv_read(%q);\n\tfloat f;\n\tmemcpy(&f, &u, sizeof f);\n\treturn f;", name)
	case t.Kind == cfa.Float && t.Bits == 64:
		body = fmt.Sprintf("unsigned long long u = rv_read(%q);\n\tdouble d;\n\tmemcpy(&d, &u, sizeof d);\n\treturn d;", name)
	case t.Kind == cfa.Float:
		body = fmt.Sprintf("return (long double)(double)rv_read(%q);", name)
	case t.Kind == cfa.Pointer:
		body = fmt.Sprintf("return (void *)(unsigned long)rv_read(%q);", name)
	case t.Kind == cfa.Int && t.Bits == 128 && t.Signed:
		body = fmt.Sprintf("return (%s)(long long)rv_read(%q);", ct, name)
	default:
		body = fmt.Sprintf("return (%s)rv_read(%q);", ct, name)
	}
	return fmt.Sprintf("%s %s(void)\n{\n\t%s\n}\n", ct, name, body), nil
}

// externalCalls returns the functions without body that fn calls,
// directly or through functions with bodies.
func (c *ctx) externalCalls(fn string) map[string]bool {
	p := c.v.Program
	calls := map[string]bool{}
	seen := map[string]bool{}
	var visit func(f *cfa.Function)
	visit = func(f *cfa.Function) {
		if f == nil || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		for _, l := range f.Locs {
			for _, e := range l.Out {
				call, ok := e.Op.(*cfa.Call)
				if !ok || call.Fn == "" {
					continue
				}
				if g := p.Func(call.Fn); g != nil {
					visit(g)
				} else {
					calls[call.Fn] = true
				}
			}
		}
	}
	visit(p.Func(fn))
	return calls
}

// unobserved returns the indexes (into v.Inputs) of the Decl inputs whose
// values the counterexample never observes, by replaying it concretely
// (interp.UnobservedInputs: an address-taken local overwritten, directly
// or through a pointer, before it is read). Nil when the inputs do not
// replay along the path (then every input counts as observed).
func (c *ctx) unobserved() map[int]bool {
	vals := make([]uint64, len(c.v.Inputs))
	for i, in := range c.v.Inputs {
		if in.Step < 0 || in.Step >= len(c.v.Path) {
			return nil
		}
		vals[i] = in.Bits
	}
	un, err := interp.UnobservedInputs(context.Background(), c.v.Program, c.v.Path, vals)
	if err != nil {
		return nil
	}
	return un
}

// relevant reports whether the value stored at step i can influence the
// path after it: whether the variable it is stored into is read before it
// is overwritten or goes out of scope. Anything but a local whose address
// is never taken counts as relevant.
func (c *ctx) relevant(i int, vs witness.ValueSite) bool {
	if vs.LHS == nil {
		return false
	}
	r, ok := vs.LHS.(*cfa.VarRef)
	if !ok || r.Var.Global || r.Var.AddrTaken {
		return true
	}
	if r.Var.Volatile {
		// Every read of a volatile register variable is an input of its
		// own: the stored value is never observed.
		return false
	}
	x := r.Var
	d := c.depth[i]
	for j := i + 1; j <= c.target && j < len(c.v.Path); j++ {
		s := c.v.Path[j]
		switch {
		case c.depth[j] < d:
			return false
		case c.depth[j] > d || s.Edge == nil:
			continue
		}
		if s.Kind == cfa.Leave {
			if call, ok := s.Edge.Op.(*cfa.Call); ok && isVar(call.Result, x) {
				return false
			}
			continue
		}
		if readsVar(s.Edge.Op, x) {
			return true
		}
		if s.Kind == cfa.Intra && overwrites(s.Edge.Op, x) {
			return false
		}
	}
	return false
}

func isVar(e cfa.Expr, x *cfa.Var) bool {
	r, ok := e.(*cfa.VarRef)
	return ok && r.Var == x
}

func mentions(e cfa.Expr, x *cfa.Var) bool {
	for _, v := range cfa.Vars(e) {
		if v == x {
			return true
		}
	}
	return false
}

// lvalueReads reports whether storing into lvalue e reads x.
func lvalueReads(e cfa.Expr, x *cfa.Var) bool {
	if e == nil {
		return false
	}
	if _, ok := e.(*cfa.VarRef); ok {
		return false
	}
	return mentions(e, x)
}

func readsVar(op cfa.Op, x *cfa.Var) bool {
	switch op := op.(type) {
	case *cfa.Assign:
		return mentions(op.RHS, x) || lvalueReads(op.LHS, x)
	case *cfa.Havoc:
		return lvalueReads(op.LHS, x)
	case *cfa.Assume:
		return mentions(op.Cond, x)
	case *cfa.Call:
		for _, a := range op.Args {
			if mentions(a, x) {
				return true
			}
		}
		return op.FnPtr != nil && mentions(op.FnPtr, x) || lvalueReads(op.Result, x)
	case *cfa.Return:
		return op.X != nil && mentions(op.X, x)
	case *cfa.Unsupported:
		return true
	}
	return false
}

func overwrites(op cfa.Op, x *cfa.Var) bool {
	switch op := op.(type) {
	case *cfa.Assign:
		return isVar(op.LHS, x)
	case *cfa.Havoc:
		return isVar(op.LHS, x)
	case *cfa.Call:
		return isVar(op.Result, x)
	case *cfa.Decl:
		return op.Var == x
	}
	return false
}

func (c *ctx) dependsErr(i int, vs witness.ValueSite, at string) error {
	switch vs.Kind {
	case witness.SiteUninit:
		name := "a variable"
		if r, ok := vs.LHS.(*cfa.VarRef); ok {
			name = r.Var.Orig
			if name == "" {
				name = r.Var.Name
			}
		}
		return fmt.Errorf("witness: counterexample depends on an uninitialised value of %s at %s", name, at)
	case witness.SiteExtern:
		return fmt.Errorf("witness: counterexample depends on the result of extern %s at %s", vs.Fn, at)
	}
	src := vs.In.Source
	if h, ok := c.v.Path[i].Edge.Op.(*cfa.Havoc); ok && src == "" {
		src = h.Source
	}
	return fmt.Errorf("witness: counterexample depends on a nondeterministic value (%s) at %s that a harness cannot supply", src, at)
}

// writeMallocPlan writes, when the counterexample lets an allocation
// fail (the front end's malloc-may-fail choice, Options.Malloc), the
// harness's wrappers of malloc and calloc (linked with --wrap): the
// k-th call by the program fails, returning NULL, when plan[k] is set,
// as the k-th choice on the path did; the others, and every call after
// the path's, allocate. The harness's own allocations (main's argv) do
// not count.
func writeMallocPlan(b *strings.Builder, plan []bool) {
	fails := false
	for _, f := range plan {
		fails = fails || f
	}
	if !fails {
		return
	}
	var bits []string
	for _, f := range plan {
		bits = append(bits, map[bool]string{true: "1", false: "0"}[f])
	}
	fmt.Fprintf(b, `
/* The counterexample's allocations: the k-th call of malloc or calloc by
 * the program fails (returns NULL) when rv_malloc_fails[k] is 1, as on
 * the counterexample's path; later calls allocate. */
%[1]s-Wl,--wrap=malloc
%[1]s-Wl,--wrap=calloc
#define RV_MALLOC_PLAN 1
void *__real_malloc(__SIZE_TYPE__ n);
void *__real_calloc(__SIZE_TYPE__ n, __SIZE_TYPE__ size);
static const unsigned char rv_malloc_fails[] = {%[2]s};
static unsigned long rv_mallocs;
static int rv_harness_allocating;

__attribute__((no_instrument_function)) static int rv_malloc_fail(void)
{
	unsigned long k;

	if (rv_harness_allocating)
		return 0;
	k = rv_mallocs++;
	return k < sizeof rv_malloc_fails && rv_malloc_fails[k];
}

__attribute__((no_instrument_function)) void *__wrap_malloc(__SIZE_TYPE__ n)
{
	return rv_malloc_fail() ? 0 : __real_malloc(n);
}

__attribute__((no_instrument_function)) void *__wrap_calloc(__SIZE_TYPE__ n, __SIZE_TYPE__ size)
{
	return rv_malloc_fail() ? 0 : __real_calloc(n, size);
}
`, buildFlagPrefix, strings.Join(bits, ", "))
}

// mallocChoice reports whether the input of source src read on edge e
// is the front end's choice whether malloc fails (cfa.IsMallocFailure):
// 0 is success.
func mallocChoice(src string, e *cfa.Edge) bool {
	if src == cfa.MallocFailureSource {
		return true
	}
	h, ok := e.Op.(*cfa.Havoc)
	return ok && h.Source == cfa.MallocFailureSource
}

// BuildLine returns the command that compiles a reproducer together with
// the original program files into the executable out:
//
//	gcc -O0 -fwrapv -finstrument-functions [-m32] [flags...] -o out original... reproducer
//
// -m32 selects the ILP32 data model (gcc-multilib); -fwrapv makes signed
// overflow wrap as the analysis assumes; -finstrument-functions lets the
// harness see the program enter its own error function; flags are the
// reproducer's own (BuildFlags). The front end's own units in original
// ("<atexit>", its model of atexit) are no files and are left out: the
// C library's atexit takes their part.
//
// A program given as LLVM IR (.ll, .bc files) is built with clang
// instead, which compiles IR; its functions were compiled without
// -finstrument-functions, so the harness sees only the calls of error
// functions without a body.
func BuildLine(dm cfa.DataModel, original []string, reproducer, out string, flags ...string) []string {
	cc := "gcc"
	for _, f := range original {
		if strings.HasSuffix(f, ".ll") || strings.HasSuffix(f, ".bc") {
			cc = "clang"
		}
	}
	argv := []string{cc, "-O0", "-fwrapv", "-finstrument-functions"}
	if dm == cfa.ILP32 {
		argv = append(argv, "-m32")
	}
	for _, f := range flags {
		if f == selfInclude {
			argv = append(argv, "-include", reproducer)
		} else {
			argv = append(argv, f)
		}
	}
	argv = append(argv, "-o", out)
	for _, f := range original {
		if !strings.HasPrefix(f, "<") {
			argv = append(argv, f)
		}
	}
	return append(argv, reproducer)
}
