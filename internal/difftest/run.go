package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/reproduce"
	"github.com/reverify/reverify/results"
)

// harness defines, for gcc's runs only, the nondet functions (values from
// the environment variable RV_INPUTS, space-separated, 0 when exhausted)
// and the printers of the instrumented variant.
const harness = `#include <stdio.h>
#include <stdlib.h>
static const char *rv_s;
static int rv_init;
static long long rv_next(void) {
	char *end;
	long long v;
	if (!rv_init) { rv_s = getenv("RV_INPUTS"); rv_init = 1; }
	if (!rv_s || !*rv_s) return 0;
	v = strtoll(rv_s, &end, 10);
	rv_s = *end ? end + 1 : end;
	return v;
}
void rv_out(int id, long long v) { printf("%d %lld\n", id, v); }
void rv_outu(int id, unsigned long long v) { printf("%d %llu\n", id, v); }
#define ND(s, t) t __VERIFIER_nondet_##s(void) { return (t)rv_next(); }
ND(char, char) ND(uchar, unsigned char) ND(short, short) ND(ushort, unsigned short)
ND(int, int) ND(uint, unsigned int) ND(long, long) ND(ulong, unsigned long)
ND(longlong, long long) ND(ulonglong, unsigned long long) ND(bool, _Bool)
`

// Case is one differential test: an asserted program and what gcc's runs
// need besides it. Its assertions compare objects with the values gcc
// computed on Inputs[0] with the benign bodies: all are `==` except one
// (the last or one in the second half), `!=`, which that run violates;
// checkpoints after it are not asserted.
type Case struct {
	Name   string
	Source string // the asserted program (prog.c), what reverify verifies
	// Benign and Adversarial define the program's external functions
	// ("" when it has none); only gcc's runs link them.
	Benign, Adversarial string
	// Inputs are the input vectors of gcc's runs (nil entries: no input).
	Inputs [][]int64
}

// Env runs gcc for one data model.
type Env struct {
	DataModel cfa.DataModel
	// exec prefixes each run of a built program (qemu-i386 for ILP32 on
	// a kernel that cannot run 32-bit programs).
	exec []string
	dir  string
}

// NewEnv probes gcc (and -m32 with a direct or qemu-i386 run for ILP32)
// in a scratch directory dir. The error says why this data model cannot
// be tested here.
func NewEnv(dm cfa.DataModel, dir string) (*Env, error) { return newEnv(dm, dir, false) }

// newEnv is NewEnv; qemu forces ILP32 runs under qemu-i386 (for tests of
// that route on kernels that run 32-bit programs directly).
func newEnv(dm cfa.DataModel, dir string, qemu bool) (*Env, error) {
	e := &Env{DataModel: dm, dir: dir}
	if _, err := exec.LookPath("gcc"); err != nil {
		return nil, errors.New("gcc not found in PATH")
	}
	src := filepath.Join(dir, "probe.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 3; }\n"), 0o644); err != nil {
		return nil, err
	}
	exe := filepath.Join(dir, "probe")
	if err := e.compile(exe, src); err != nil {
		return nil, err
	}
	ctx := context.Background()
	var code int
	var err error
	if qemu {
		err = syscall.ENOEXEC
	} else {
		code, _, _, err = e.run(ctx, exe, nil, "")
	}
	if err != nil && dm == cfa.ILP32 && errors.Is(err, syscall.ENOEXEC) {
		q, qerr := exec.LookPath("qemu-i386")
		if qerr != nil {
			return nil, fmt.Errorf("this kernel cannot run 32-bit programs (%v) and qemu-i386 is not installed (Debian qemu-user)", err)
		}
		e.exec = []string{q}
		code, _, _, err = e.run(ctx, exe, nil, "")
	}
	if err != nil {
		return nil, fmt.Errorf("cannot run a program built by gcc (%s): %v", dm, err)
	}
	if code != 3 {
		return nil, fmt.Errorf("a program built by gcc (%s) exited %d, want 3", dm, code)
	}
	return e, nil
}

// compile builds exe from the C files with gcc -O0 -fwrapv (-m32 for
// ILP32).
func (e *Env) compile(exe string, files ...string) error {
	argv := []string{"-O0", "-fwrapv", "-w"}
	if e.DataModel == cfa.ILP32 {
		argv = append(argv, "-m32")
	}
	argv = append(append(argv, "-o", exe), files...)
	cmd := exec.Command("gcc", argv...)
	var out bytes.Buffer
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("gcc %s: %v\n%s", strings.Join(argv, " "), err, out.String())
	}
	return nil
}

// run runs exe with the environment env added; code is the exit status,
// or 128+signal.
func (e *Env) run(ctx context.Context, exe string, env []string, stdin string, args ...string) (code int, stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	argv := append(append(append([]string{}, e.exec...), exe), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, s bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &s
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ctx.Err() != nil {
			return 0, o.String(), s.String(), fmt.Errorf("%s: time limit", exe)
		}
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), o.String(), s.String(), nil
		}
		return exit.ExitCode(), o.String(), s.String(), nil
	}
	return 0, o.String(), s.String(), err
}

// inputText is the standard input of a run on the input vector in (a
// program generated with Options.Stdin reads it with scanf("%d")): its
// numbers as ints, in decimal, one per line.
func inputText(in []int64) string {
	var b strings.Builder
	for _, v := range in {
		fmt.Fprintf(&b, "%d\n", int32(v))
	}
	return b.String()
}

// inputEnv is the environment of a run on the input vector in:
// RV_INPUTS, its numbers (for the __VERIFIER_nondet_* bodies), and the
// variables RV_ENV0..RV_ENV2 that programs generated with Options.Env
// read: unset when the vector's last numbers are 0 mod 3, else set to
// the empty string, a letter or a number's decimal text.
func inputEnv(in []int64) []string {
	var s []string
	for _, v := range in {
		s = append(s, strconv.FormatInt(v, 10))
	}
	env := []string{"RV_INPUTS=" + strings.Join(s, " ")}
	for k := 0; k < 3 && k < len(in); k++ {
		v := in[len(in)-1-k]
		switch uint64(v) % 4 {
		case 0:
			continue
		case 1:
			env = append(env, fmt.Sprintf("RV_ENV%d=", k))
		case 2:
			env = append(env, fmt.Sprintf("RV_ENV%d=%c", k, 'a'+rune(uint64(v)%26)))
		default:
			env = append(env, fmt.Sprintf("RV_ENV%d=%d", k, v))
		}
	}
	return env
}

// inputs returns n input vectors of seed, boundary values mixed with
// random ones.
func inputs(seed int64, n int) [][]int64 {
	r := rand.New(rand.NewSource(seed ^ 0x5eed))
	edges := []int64{0, 1, -1, 2, 127, 128, 255, 256, -128, 32767, 65535, 2147483647, -2147483648, 4294967295, 9223372036854775807, -9223372036854775808}
	var vs [][]int64
	for i := 0; i < n; i++ {
		var v []int64
		for j := 0; j < 48; j++ {
			switch r.Intn(3) {
			case 0:
				v = append(v, edges[r.Intn(len(edges))])
			case 1:
				v = append(v, int64(r.Intn(21)-10))
			default:
				v = append(v, r.Int63()-r.Int63())
			}
		}
		vs = append(vs, v)
	}
	return vs
}

// MakeCase runs the instrumented variant of gp with gcc (benign bodies,
// the first input vector) and returns the asserted program.
func (e *Env) MakeCase(ctx context.Context, gp *Generated) (*Case, error) {
	c := &Case{Name: fmt.Sprintf("seed%d-%s", gp.Seed, e.DataModel), Benign: gp.Benign, Adversarial: gp.Adversarial}
	if gp.Options.Nondet {
		c.Inputs = inputs(gp.Seed, 8)
	} else {
		c.Inputs = [][]int64{nil}
	}
	instr, _ := gp.render(func(i int, ch check) string {
		if ch.lv.t.signed {
			return fmt.Sprintf("rv_out(%d, (long long)(%s));", i, ch.lv.text)
		}
		return fmt.Sprintf("rv_outu(%d, (unsigned long long)(%s));", i, ch.lv.text)
	}, "void rv_out(int, long long);\nvoid rv_outu(int, unsigned long long);\n")
	dir, err := os.MkdirTemp(e.dir, "make-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	files := []string{write(dir, "instr.c", instr), write(dir, "harness.c", harness)}
	if gp.Benign != "" {
		files = append(files, write(dir, "benign.c", gp.Benign))
	}
	exe := filepath.Join(dir, "instr")
	if err := e.compile(exe, files...); err != nil {
		return nil, fmt.Errorf("generator: %v", err)
	}
	code, out, serr, err := e.run(ctx, exe, inputEnv(c.Inputs[0]), inputText(c.Inputs[0]))
	if err != nil || code != 0 {
		return nil, fmt.Errorf("generator: instrumented run exited %d (%v): %s", code, err, serr)
	}
	values := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("generator: bad output line %q", line)
		}
		id, _ := strconv.Atoi(f[0])
		values[id] = f[1]
	}
	var missing error
	// The checkpoint asserted `!=`; those after it are not asserted.
	r := rand.New(rand.NewSource(gp.Seed))
	last := len(gp.checks) - 1 - r.Intn(len(gp.checks))/2
	if gp.exitChecks > 0 && r.Intn(2) == 0 {
		// A violated assertion in main stops the program before the
		// atexit functions run: in every other such program the `!=` is
		// one of theirs, so that main's and theirs are asserted.
		last = len(gp.checks) - 1 - r.Intn(gp.exitChecks)
	}
	c.Source, _ = gp.render(func(i int, ch check) string {
		v, ok := values[i]
		if !ok {
			missing = fmt.Errorf("generator: checkpoint %d not reached", i)
		}
		op := "=="
		switch {
		case i == last:
			op = "!="
		case i > last:
			return "/* checkpoint after the violated assertion */"
		}
		return fmt.Sprintf("assert(%s %s %s);", ch.lv.text, op, literal(ch.lv.t, v))
	}, "#include <assert.h>\n")
	return c, missing
}

// literal spells value (decimal, as printed) as a constant of type t.
func literal(t *cType, v string) string {
	if !t.signed {
		return fmt.Sprintf("(%s)%sULL", t.name, v)
	}
	if v == "-9223372036854775808" {
		return fmt.Sprintf("(%s)(-9223372036854775807LL - 1)", t.name)
	}
	if strings.HasPrefix(v, "-") {
		return fmt.Sprintf("(%s)(%sLL)", t.name, v)
	}
	return fmt.Sprintf("(%s)%sLL", t.name, v)
}

// render returns the program text, the check pieces rendered by f, and
// the line of each check.
func (gp *Generated) render(f func(int, check) string, header string) (string, []int) {
	var b strings.Builder
	b.WriteString(header)
	lines := make([]int, len(gp.checks))
	for _, p := range gp.pieces {
		if p.check < 0 {
			b.WriteString(p.text)
			continue
		}
		lines[p.check] = strings.Count(b.String(), "\n") + 1
		b.WriteString(p.text + f(p.check, gp.checks[p.check]) + "\n")
	}
	return b.String(), lines
}

func write(dir, name, content string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		panic(err) // a scratch directory we created
	}
	return p
}

// Problems a verdict can have.
const (
	WrongTrue    = "wrong TRUE"                  // a gcc run violates the assertion first
	WrongFalse   = "wrong FALSE"                 // a deterministic program without externs whose gcc run passes the assertion
	NotReached   = "reproducer does not reach"   // the reproducer ran but did not reach the error
	NoReproducer = "no reproducer"               // reproduce.Reproducer refused (counted, not a failure)
	BadRepro     = "reproducer does not compile" // a failure
)

// PropOutcome is the verdict on one assertion and what the gcc runs say.
type PropOutcome struct {
	Line     int
	Verdict  results.Verdict
	Reason   string
	Problem  string // "" or one of the constants above
	Detail   string
	Bodiless bool // a wrong TRUE that only the adversarial bodies show
}

// Failed reports whether the outcome is a failure of the test (a wrong
// verdict or a reproducer that does not reach the error).
func (p PropOutcome) Failed() bool { return p.Problem != "" && p.Problem != NoReproducer }

// Limits bound each engine run.
type Limits struct {
	Timeout   time.Duration // per property
	Program   time.Duration // for all properties of the program (0: none)
	MaxStates int
}

var assertLineRE = regexp.MustCompile(`prog\.c:(\d+): [^\n]*Assertion`)

// Check verifies c under the configuration and compares each verdict
// with gcc's runs (benign and adversarial bodies, every input vector).
func (e *Env) Check(ctx context.Context, c *Case, config string, lim Limits) ([]PropOutcome, error) {
	dir, err := os.MkdirTemp(e.dir, "check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	prog := write(dir, "prog.c", c.Source)
	h := write(dir, "harness.c", harness)

	// gcc's runs: the first assertion each violates, by body.
	violated := map[int]string{} // line → which body showed it ("benign", "adversarial")
	bodies := [][2]string{{"benign", c.Benign}, {"adversarial", c.Adversarial}}
	if c.Benign == "" {
		bodies = bodies[:1]
	}
	var benignExe string
	for _, b := range bodies {
		files := []string{prog, h}
		if b[1] != "" {
			files = append(files, write(dir, b[0]+".c", b[1]))
		}
		exe := filepath.Join(dir, b[0])
		if err := e.compile(exe, files...); err != nil {
			return nil, err
		}
		if benignExe == "" {
			benignExe = exe
		}
		for _, in := range c.Inputs {
			line, err := e.firstViolation(ctx, exe, in)
			if err != nil {
				return nil, fmt.Errorf("gcc run (%s): %v", b[0], err)
			}
			if _, ok := violated[line]; !ok && line > 0 {
				violated[line] = b[0]
			}
		}
	}
	// Volatile reads are inputs to reverify (any value), while gcc's runs
	// read what is stored: neither a passing run nor a replay of the
	// nondet values refutes a FALSE there; only its reproducer can
	// confirm it.
	volatile := strings.Contains(c.Source, "volatile")
	// Values read from standard input are inputs as well; the nondet
	// values a replay passes do not feed them.
	stdin := strings.Contains(c.Source, "scanf(")
	// So are environment variables (Options.Env): gcc's runs set them
	// by input vector, a counterexample by its getenv inputs.
	stdin = stdin || strings.Contains(c.Source, "getenv(")
	deterministic := c.Benign == "" && !strings.Contains(c.Source, "__VERIFIER_nondet_") && !volatile && !stdin

	p, err := frontend.Translate(frontend.Options{DataModel: e.DataModel}, prog)
	if err != nil {
		return nil, fmt.Errorf("frontend: %v", err)
	}
	props := spec.Properties(p, "main")
	cfg := engine.Config{Name: config, Timeout: lim.Timeout, MaxStates: lim.MaxStates, Workers: 1, Solver: z3.Factory}
	vctx := ctx
	if lim.Program > 0 {
		var cancel context.CancelFunc
		vctx, cancel = context.WithTimeout(ctx, lim.Program)
		defer cancel()
	}
	rs, err := engine.Verify(vctx, p, props, cfg)
	if err != nil {
		return nil, err
	}
	var outs []PropOutcome
	for _, r := range rs {
		o := PropOutcome{Line: r.Property.Pos.Line, Verdict: r.Verdict, Reason: r.Reason}
		body, bad := violated[o.Line]
		switch r.Verdict {
		case results.True:
			if bad {
				o.Problem, o.Bodiless = WrongTrue, body == "adversarial"
				o.Detail = "violated by gcc's run with the " + body + " bodies"
			}
		case results.False:
			if deterministic && !bad {
				o.Problem, o.Detail = WrongFalse, "gcc's run passes it"
				break
			}
			o.Problem, o.Detail = e.reproduce(ctx, dir, p, r, c)
			if o.Problem == NoReproducer && c.Benign == "" && !volatile && !stdin {
				// Without external functions the counterexample's nondet
				// values determine the run: replay them with gcc.
				if line, err := e.firstViolation(ctx, benignExe, cexInputs(r)); err != nil {
					o.Problem, o.Detail = WrongFalse, "replaying the counterexample's inputs with gcc: "+err.Error()
				} else if line != o.Line {
					o.Problem = WrongFalse
					o.Detail = fmt.Sprintf("gcc's run on the counterexample's inputs %v violates line %d first (0: none)", cexInputs(r), line)
				} else {
					o.Problem, o.Detail = NoReproducer, o.Detail+" (gcc's run on the counterexample's inputs violates the assertion)"
				}
			}
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// firstViolation runs exe on the inputs and returns the line of the
// assertion it violates (0: none).
func (e *Env) firstViolation(ctx context.Context, exe string, in []int64) (int, error) {
	code, _, serr, err := e.run(ctx, exe, inputEnv(in), inputText(in))
	if err != nil {
		return 0, err
	}
	if code == 0 {
		return 0, nil
	}
	m := assertLineRE.FindStringSubmatch(serr)
	if m == nil {
		return 0, fmt.Errorf("exited %d without an assertion failure: %s", code, serr)
	}
	line, _ := strconv.Atoi(m[1])
	return line, nil
}

// cexInputs returns the __VERIFIER_nondet_* values of a counterexample
// in the order they are read.
func cexInputs(r *engine.Result) []int64 {
	var in []int64
	for _, x := range r.Inputs {
		if strings.HasPrefix(x.Source, "__VERIFIER_nondet_") {
			in = append(in, x.Value)
		}
	}
	return in
}

// reproduce builds and runs the reproducer of a FALSE result (linking
// the benign bodies) and returns the problem, if any.
func (e *Env) reproduce(ctx context.Context, dir string, p *cfa.Program, r *engine.Result, c *Case) (problem, detail string) {
	v := &witness.Violation{Program: p, Path: r.Counterexample, Inputs: r.Inputs, Task: witness.Task{
		Files: p.Files, Entry: "main", DataModel: p.DataModel, Producer: "reverify-difftest",
	}}
	src, err := reproduce.Reproducer(v)
	if err != nil {
		return NoReproducer, err.Error()
	}
	name := fmt.Sprintf("repro%d", r.Property.Pos.Line)
	repro := write(dir, name+".c", src)
	orig := append([]string{}, p.Files...)
	if c.Benign != "" {
		orig = append(orig, write(dir, "benign.c", c.Benign))
	}
	exe := filepath.Join(dir, name)
	argv := reproduce.BuildLine(e.DataModel, orig, repro, exe, reproduce.BuildFlags(src)...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var cerr bytes.Buffer
	cmd.Stderr = &cerr
	if err := cmd.Run(); err != nil {
		return BadRepro, fmt.Sprintf("%s: %v: %s", strings.Join(argv, " "), err, cerr.String())
	}
	stdin, _ := reproduce.Stdin(src)
	code, _, serr, err := e.run(ctx, exe, nil, string(stdin))
	if err != nil {
		return NotReached, err.Error()
	}
	if code == reproduce.ReachedExitCode && strings.Contains(serr, reproduce.ReachedMarker) {
		return "", ""
	}
	return NotReached, fmt.Sprintf("exit %d: %s", code, serr)
}
