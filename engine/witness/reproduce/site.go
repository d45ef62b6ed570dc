package reproduce

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
)

// A reproducer exits with ReachedExitCode only when the assertion that
// fails is the reported one: a run that fails another assertion has left
// the counterexample (a wrong verdict would otherwise look confirmed).
// The reported assertion is the property's error call (one of its error
// edges: the call of reach_error, __assert_fail, … at the assertion) and,
// for an assert wrapper's property (__VERIFIER_assert(c) at one call
// site), the call of the wrapper at that site. The harness compares
// places, a file's base name and a line (the range of lines of the CFA
// edge):
//
//   - the C library's assertion functions (__assert_fail and relatives)
//     receive the file and line of their call: an assert() of the program
//     is compared by them;
//   - other calls are compared by their return address: the harness keeps
//     the program's call stack from gcc's -finstrument-functions hooks
//     (each frame: the function entered and the return address in its
//     caller) and, only when an error is reached, asks addr2line for the
//     line of the call (the reproducer is built with debugFlag); an error
//     function the harness defines gets the address of its own call.
//
// An error that is not the reported one prints what and where, with the
// reported assertion, and aborts as the C library's assert does (SIGABRT,
// exit status 134). Where the place cannot be learnt (no addr2line, no
// /proc/self/exe, a call deeper than the recorded stack), the harness
// says so on stderr and counts the error as the reported one.

// debugFlag gives the reproducer the debugging information addr2line
// reads. DWARF 4: the addr2line of binutils 2.40 names the wrong file for
// a function from a header in gcc 12's DWARF 5.
const debugFlag = "-gdwarf-4"

// place is a file's base name with a range of lines.
type place struct {
	file        string
	first, last int
}

func edgePlace(e *cfa.Edge) (place, bool) {
	if e == nil || e.Pos.Start.File == "" || e.Pos.Start.Line <= 0 {
		return place{}, false
	}
	p := place{file: filepath.Base(e.Pos.Start.File), first: e.Pos.Start.Line, last: e.Pos.Start.Line}
	if e.Pos.End.Line > p.first && (e.Pos.End.File == "" || e.Pos.End.File == e.Pos.Start.File) {
		p.last = e.Pos.End.Line
	}
	return p, true
}

func (p place) String() string {
	if p.first == p.last {
		return fmt.Sprintf("%s:%d", p.file, p.first)
	}
	return fmt.Sprintf("%s:%d-%d", p.file, p.first, p.last)
}

// siteCheck is what the harness compares with the error a run reaches.
type siteCheck struct {
	calls []place // the property's error calls
	via   []place // the wrapper call of a wrapper's property (one place)
	// inErr are the calls of the C library's assertion functions in the
	// body of the program's own error function (its __assert_fail):
	// reaching one of them is entering the error function's frame.
	inErr    []place
	reported string // the reported assertion, for messages
	addrs    bool   // places are learnt from return addresses (debugFlag)
}

// property returns the property the counterexample violates: the
// witness.Violation's, else the one of spec.Properties whose error edge the
// target is (for a wrapper's property: called through the wrapper call
// that entered the target's frame); nil when none is.
func (c *ctx) property() *spec.Property {
	if c.v.Property != nil {
		return c.v.Property
	}
	entry := "main"
	if fn := c.entryFunc(); fn != nil {
		entry = fn.Name
	}
	target := c.v.Path[c.target].Edge
	via := c.frameCall(c.target)
	var direct *spec.Property
	for _, pr := range spec.Properties(c.v.Program, entry) {
		if !hasEdge(pr.ErrorEdges, target) {
			continue
		}
		switch {
		case pr.Via != nil && pr.Via == via:
			return pr
		case pr.Via == nil && direct == nil:
			direct = pr
		}
	}
	return direct
}

func hasEdge(es []*cfa.Edge, e *cfa.Edge) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// frameCall returns the call edge that entered the frame of step i (nil
// for the entry function's frame).
func (c *ctx) frameCall(i int) *cfa.Edge {
	d := c.depth[i]
	for j := i - 1; j >= 0; j-- {
		s := c.v.Path[j]
		if s.Kind == cfa.Enter && c.depth[j] == d-1 {
			return s.Edge
		}
	}
	return nil
}

// siteCheck returns the places of the reported assertion. A
// memory-safety violation has none (AddressSanitizer reports it, and
// every failing assertion is another error).
func (c *ctx) siteCheck() *siteCheck {
	if c.v.Memory != "" {
		return &siteCheck{reported: "the " + c.v.Memory + " violation"}
	}
	sc := &siteCheck{}
	target := c.v.Path[c.target].Edge
	pr := c.property()
	edges := []*cfa.Edge{target}
	if pr != nil {
		edges = pr.ErrorEdges
		if p, ok := edgePlace(pr.Via); ok {
			sc.via = []place{p}
		}
	}
	for _, e := range edges {
		if p, ok := edgePlace(e); ok {
			sc.calls = append(sc.calls, p)
		}
	}
	if ef := c.v.Program.Func(c.errFunc); ef != nil {
		for _, l := range ef.Locs {
			for _, e := range l.Out {
				if call, ok := e.Op.(*cfa.Call); ok && c.v.Program.Func(call.Fn) == nil && assertFuncs[call.Fn].proto != "" {
					if p, ok := edgePlace(e); ok {
						sc.inErr = append(sc.inErr, p)
					}
				}
			}
		}
	}
	where := "?"
	switch {
	case len(sc.via) > 0:
		where = sc.via[0].String()
	case len(sc.calls) > 0:
		where = sc.calls[0].String()
	}
	sc.reported = where
	if pr != nil && pr.ID != "" {
		sc.reported = fmt.Sprintf("%s at %s", pr.ID, where)
	}
	// Only an assertion function called at the assertion itself, not
	// through a wrapper, tells its place without addresses.
	_, direct := assertFuncs[c.errFunc]
	sc.addrs = !direct || c.v.Program.Func(c.errFunc) != nil || len(sc.via) > 0
	for _, f := range c.v.Program.Files {
		if strings.HasSuffix(f, ".i") {
			// __assert_fail's arguments may name the original's place
			sc.addrs = true
		}
	}
	return sc
}

// places writes a C array of places ending in a null file.
func places(b *strings.Builder, name string, ps []place) {
	fmt.Fprintf(b, "static const struct rv_place %s[] __attribute__((unused)) = {\n", name)
	for _, p := range ps {
		fmt.Fprintf(b, "\t{%q, %d, %d},\n", p.file, p.first, p.last)
	}
	b.WriteString("\t{0, 0, 0}\n};\n")
}

// rvFn is the attribute of every harness function that may run while
// the shadow stack is read: not instrumented, so that it pushes no frame
// of its own (and possibly unused).
const rvFn = "__attribute__((no_instrument_function, unused))"

// writeSupport writes the places, the shadow call stack and the
// functions that judge a reached error: rv_error (reached, when it is the
// reported assertion, else rv_not_reported) and rv_not_reported.
func (sc *siteCheck) writeSupport(b *strings.Builder) {
	fmt.Fprintf(b, `
/* The reported assertion, %s: the run exits with status %d only when
 * the failing assertion is this one (by file name and line), else it
 * aborts as the C library's assert does. */
struct rv_place {
	const char *file;
	long first, last;
};

`, comment(sc.reported), ReachedExitCode)
	places(b, "rv_calls", sc.calls)
	places(b, "rv_via", sc.via)
	places(b, "rv_in_error", sc.inErr)
	fmt.Fprintf(b, `static const char rv_reported[] = %q;

/* The program's call stack, kept by the -finstrument-functions hooks:
 * per frame the function and the return address in its caller. */
#define RV_FRAMES 4096
static __thread struct {
	void *fn, *site;
} rv_stack[RV_FRAMES];
static __thread long rv_depth;

%[2]s static void rv_not_reported(const char *how)
{
	fflush(stdout);
	fprintf(stderr, "reverify-reproducer: not the reported assertion (%%s): %%s\n", rv_reported, how);
	fflush(stderr);
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
	_exit(134);
}

%[2]s static int rv_match(const struct rv_place *p, const char *file, long line)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	for (; p->file; p++)
		if (strcmp(p->file, base) == 0 && line >= p->first && line <= p->last)
			return 1;
	return 0;
}

extern char __executable_start[];

/* rv_where asks addr2line for the file and line of the call that returns
 * to ra (the program is built with -gdwarf-4); 0 when it cannot tell. */
%[2]s static int rv_where(void *ra, char *file, size_t n, long *line)
{
	char exe[4096], addr[64], out[4096];
	unsigned long a = (unsigned long)ra - 1;
	ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
	int fd[2], status;
	size_t got = 0;
	pid_t pid;
	FILE *pipe_out;
	char *colon, *end;

	if (k <= 0 || !ra)
		return 0;
	exe[k] = 0;
	/* A position-independent executable: addresses relative to its start. */
	if (((const unsigned char *)__executable_start)[16] == 3)
		a -= (unsigned long)__executable_start;
	snprintf(addr, sizeof addr, "%%#lx", a);
	if (pipe(fd) != 0)
		return 0;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execlp("addr2line", "addr2line", "-e", exe, addr, (char *)0);
		_exit(127);
	}
	close(fd[1]);
	/* Through stdio, whose reads bypass the harness's definition of
	 * read (a counterexample's input function). */
	pipe_out = fdopen(fd[0], "r");
	if (pipe_out) {
		got = fread(out, 1, sizeof out - 1, pipe_out);
		fclose(pipe_out);
	} else
		close(fd[0]);
	waitpid(pid, &status, 0);
	out[got] = 0;
	out[strcspn(out, " \n")] = 0;
	colon = strrchr(out, ':');
	if (!colon || colon == out || out[0] == '?')
		return 0;
	*colon = 0;
	*line = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || *line <= 0)
		return 0;
	snprintf(file, n, "%%s", out);
	return 1;
}

/* rv_at reports whether a call of an assertion function with the
 * arguments file and line, returning to ra, is at one of the places p:
 * by its arguments, else (a preprocessed file keeps the __FILE__ and
 * __LINE__ of its original) by where it returns to. */
%[2]s static int rv_at(const struct rv_place *p, const char *file, long line, void *ra)
{
	char buf[4096];
	long l = 0;

	if (rv_match(p, file, line))
		return 1;
	return ra && rv_where(ra, buf, sizeof buf, &l) && rv_match(p, buf, l);
}

/* rv_error judges a reached error: how describes it; the error call is at
 * file:line when file is not null, else it returns to ra0; caller is the
 * frame (in rv_stack) executing it. */
%[2]s static void rv_error(const char *how, const char *file, long line, void *ra0, long caller)
{
	char buf[4096];
	long l = line;

	if (!file) {
		if (rv_where(ra0, buf, sizeof buf, &l)) {
			file = buf;
		} else {
			fprintf(stderr, "reverify-reproducer: note: cannot tell where the error is called (addr2line); counted as the reported assertion\n");
		}
	}
	if (file && rv_calls[0].file && !rv_match(rv_calls, file, l)) {
		/* The arguments name another place: a preprocessed file (.i)
		 * keeps the __FILE__ and __LINE__ of its original. Where the
		 * call returns to decides then. */
		if (!rv_at(rv_calls, file, l, ra0)) {
			fprintf(stderr, "reverify-reproducer: the error is called at %%s:%%ld\n", file, l);
			rv_not_reported(how);
		}
	}
	if (rv_via[0].file) {
		if (caller < 0 || caller >= RV_FRAMES || caller >= rv_depth || !rv_where(rv_stack[caller].site, buf, sizeof buf, &l)) {
			fprintf(stderr, "reverify-reproducer: note: cannot tell where the assertion's function is called; counted as the reported assertion\n");
		} else if (!rv_match(rv_via, buf, l)) {
			fprintf(stderr, "reverify-reproducer: the failing assertion is called at %%s:%%ld\n", buf, l);
			rv_not_reported(how);
		}
	}
	rv_reached(how);
}

/* rv_frame_site is the return address of frame i's call (null if not recorded). */
%[2]s static void *rv_frame_site(long i)
{
	return i >= 0 && i < RV_FRAMES && i < rv_depth ? rv_stack[i].site : 0;
}
`, sc.reported, rvFn)
}

// writeHooks writes gcc's -finstrument-functions hooks that keep the
// shadow stack; with hook (the program's own error function, entered:
// the error), entering it is judged by rv_error first.
func (sc *siteCheck) writeHooks(b *strings.Builder, errFunc string, hook bool) {
	b.WriteString(`
void __cyg_profile_func_enter(void *fn, void *site) __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *site) __attribute__((no_instrument_function));
`)
	if hook {
		fmt.Fprintf(b, `
/* %[1]s is defined by the program: entering it is the error. */
extern void rv_errhook(void) __asm__(%[1]q);
`, errFunc)
	}
	b.WriteString(`
void __cyg_profile_func_enter(void *fn, void *site)
{
`)
	if hook {
		fmt.Fprintf(b, "\tif (fn == (void *)rv_errhook)\n\t\trv_error(%q, 0, 0, site, rv_depth - 1);\n", errFunc+"()")
	}
	b.WriteString(`	if (rv_depth >= 0 && rv_depth < RV_FRAMES) {
		rv_stack[rv_depth].fn = fn;
		rv_stack[rv_depth].site = site;
	}
	rv_depth++;
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
	if (rv_depth > 0)
		rv_depth--;
}
`)
}
