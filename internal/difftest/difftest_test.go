package difftest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/results"
)

var (
	flagN       = flag.Int("diff.n", 0, "number of generated programs (0: $REVERIFY_DIFF_N, else 12, 6 with -short)")
	flagSeed    = flag.Int64("diff.seed", 1, "first seed")
	flagConfigs = flag.String("diff.configs", "default,value,value-cegar,symex-cegar", "configurations, comma-separated; programs take them in turn (all with -diff.cross)")
	flagModels  = flag.String("diff.models", "LP64,ILP32", "data models, comma-separated; programs take them in turn (all with -diff.cross)")
	flagCross   = flag.Bool("diff.cross", false, "check every program under every configuration and data model")
	flagOut     = flag.String("diff.out", "", "directory for the failing cases (default: a temporary directory, printed)")
	flagTimeout = flag.Duration("diff.timeout", 4*time.Second, "time limit per property")
	flagExtern  = flag.Bool("diff.extern", true, "let every other pair of seeds call functions without a body (false: none does)")
	flagStdin   = flag.Bool("diff.stdin", false, "let every program read ints from standard input with scanf (Options.Stdin)")
	flagConvert = flag.Bool("diff.convert", false, "let every program convert strings with atoi, strtol, strtoul and sscanf (Options.Convert)")
	flagEnv     = flag.Bool("diff.env", false, "let every program read environment variables with getenv (Options.Env)")
	flagReduce  = flag.Int("diff.reduce", 0, "reduce each failing case with at most this many checks and write it as …-min.txt")
)

// knownSeeds are failures of the generated programs in CI's seed range
// (seeds 1..12 under the rotation of TestDiff), by
// "seed/model/config:line", with the issue they belong to. Such a failure
// is logged, not an error, until the issue is fixed; once that property
// is TRUE or FALSE without a problem, the test fails until the entry goes
// (an UNKNOWN, e.g. a timeout on a slow machine, proves nothing and is
// only logged).
var knownSeeds = map[string]string{}

// job is one check: a seed under a configuration and data model.
type job struct {
	seed   int64
	model  cfa.DataModel
	config string
}

func jobs(t *testing.T) []job {
	n := *flagN
	if n == 0 {
		if s := os.Getenv("REVERIFY_DIFF_N"); s != "" {
			var err error
			if n, err = strconv.Atoi(s); err != nil {
				t.Fatalf("REVERIFY_DIFF_N=%q: %v", s, err)
			}
		} else if testing.Short() {
			n = 6
		} else {
			n = 12
		}
	}
	configs := strings.Split(*flagConfigs, ",")
	var models []cfa.DataModel
	for _, m := range strings.Split(*flagModels, ",") {
		switch m {
		case "LP64":
			models = append(models, cfa.LP64)
		case "ILP32":
			models = append(models, cfa.ILP32)
		default:
			t.Fatalf("unknown data model %q", m)
		}
	}
	var js []job
	for i := 0; i < n; i++ {
		seed := *flagSeed + int64(i)
		if *flagCross {
			for _, m := range models {
				for _, c := range configs {
					js = append(js, job{seed, m, c})
				}
			}
			continue
		}
		// OptionsFor cycles with period 4 in the seed: the data model
		// changes every 4 programs and the configuration every program,
		// stepping once more every 8, so that 64 consecutive programs
		// meet every combination of 4 kinds, 2 models and 4
		// configurations.
		js = append(js, job{seed, models[(i/4)%len(models)], configs[(i+i/8)%len(configs)]})
	}
	return js
}

// stats counts properties by verdict and problem.
type stats struct {
	programs, skipped, props int
	verdicts                 map[results.Verdict]int
	problems, bodiless       map[string]int
	noReproReasons           map[string]int
	unknownReasons           map[string]int
	invalid                  []string // seeds that could not be checked (generator or gcc failures)
	replayed                 int      // FALSE without reproducer, confirmed by gcc's run on its inputs
	perConfig                map[string]map[results.Verdict]int
}

func newStats() *stats {
	return &stats{verdicts: map[results.Verdict]int{}, problems: map[string]int{}, bodiless: map[string]int{},
		noReproReasons: map[string]int{}, unknownReasons: map[string]int{}, perConfig: map[string]map[results.Verdict]int{}}
}

func (s *stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "programs %d (skipped %d: %s), properties %d: TRUE %d, FALSE %d, UNKNOWN %d, other %d\n",
		s.programs, s.skipped, strings.Join(s.invalid, "; "), s.props, s.verdicts[results.True], s.verdicts[results.False], s.verdicts[results.Unknown],
		s.props-s.verdicts[results.True]-s.verdicts[results.False]-s.verdicts[results.Unknown])
	fmt.Fprintf(&b, "wrong TRUE %d (of which bodiless-only %d), wrong FALSE %d, FALSE whose reproducer does not reach %d, reproducer does not compile %d; FALSE without reproducer %d (counted, not failures; %d of them confirmed by gcc's run on the counterexample's inputs)\n",
		s.problems[WrongTrue], s.bodiless[WrongTrue], s.problems[WrongFalse], s.problems[NotReached], s.problems[BadRepro], s.problems[NoReproducer], s.replayed)
	var cs []string
	for c := range s.perConfig {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	for _, c := range cs {
		v := s.perConfig[c]
		fmt.Fprintf(&b, "  %-12s TRUE %d FALSE %d UNKNOWN %d\n", c, v[results.True], v[results.False], v[results.Unknown])
	}
	for _, m := range []map[string]int{s.unknownReasons, s.noReproReasons} {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(i, j int) bool { return m[ks[i]] > m[ks[j]] })
		for i, k := range ks {
			if i == 6 {
				break
			}
			fmt.Fprintf(&b, "  %4d× %s\n", m[k], k)
		}
	}
	return b.String()
}

// shortReason keeps the kind of a reason, not its positions.
func shortReason(s string) string {
	if i := strings.IndexAny(s, "0123456789"); i > 0 && i > 40 {
		s = s[:i]
	}
	if len(s) > 90 {
		s = s[:90]
	}
	return s
}

func (s *stats) add(config string, outs []PropOutcome) {
	s.programs++
	if s.perConfig[config] == nil {
		s.perConfig[config] = map[results.Verdict]int{}
	}
	for _, o := range outs {
		s.props++
		s.verdicts[o.Verdict]++
		s.perConfig[config][o.Verdict]++
		if o.Problem != "" {
			s.problems[o.Problem]++
			if o.Bodiless {
				s.bodiless[o.Problem]++
			}
		}
		switch {
		case o.Problem == NoReproducer:
			s.noReproReasons["no reproducer: "+shortReason(o.Detail)]++
			if strings.Contains(o.Detail, "gcc's run on the counterexample's inputs violates") {
				s.replayed++
			}
		case o.Verdict == results.Unknown:
			s.unknownReasons["UNKNOWN: "+shortReason(o.Reason)]++
		}
	}
}

func envs(t *testing.T, dir string) map[cfa.DataModel]*Env {
	es := map[cfa.DataModel]*Env{}
	for _, m := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		sub := filepath.Join(dir, m.String())
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		e, err := NewEnv(m, sub)
		if err != nil {
			t.Logf("skipping %s runs: %v", m, err)
			continue
		}
		es[m] = e
	}
	if es[cfa.LP64] == nil {
		t.Skip("no working gcc: the differential test needs it")
	}
	return es
}

// TestDiff generates programs, computes their values with gcc, verifies
// the asserted programs and compares (see the package documentation).
// Failures are written to -diff.out as regression inputs.
func TestDiff(t *testing.T) {
	dir := t.TempDir()
	es := envs(t, dir)
	out := *flagOut
	if out == "" {
		out = filepath.Join(os.TempDir(), "reverify-difftest-failures")
	}
	st := newStats()
	ctx := context.Background()
	lim := Limits{Timeout: *flagTimeout, Program: 4 * *flagTimeout, MaxStates: 200_000}
	for _, j := range jobs(t) {
		e := es[j.model]
		if e == nil {
			continue
		}
		start := time.Now()
		opt := OptionsFor(j.seed)
		opt.Extern = opt.Extern && *flagExtern
		opt.Stdin = *flagStdin
		opt.Convert = opt.Convert || *flagConvert
		opt.Env = *flagEnv
		gp := Generate(j.seed, opt)
		c, err := e.MakeCase(ctx, gp)
		if err != nil {
			t.Errorf("seed %d (%s): %v", j.seed, j.model, err)
			st.skipped++
			st.invalid = append(st.invalid, fmt.Sprintf("seed %d", j.seed))
			continue
		}
		outs, err := e.Check(ctx, c, j.config, lim)
		if err != nil {
			t.Errorf("seed %d (%s, %s): %v", j.seed, j.model, j.config, err)
			st.skipped++
			st.invalid = append(st.invalid, fmt.Sprintf("seed %d", j.seed))
			continue
		}
		st.add(j.config, outs)
		if testing.Verbose() {
			var vs []string
			for _, o := range outs {
				vs = append(vs, fmt.Sprintf("%d:%s", o.Line, o.Verdict))
			}
			t.Logf("seed %d %s %s %+v: %.1fs %s", j.seed, j.model, j.config, gp.Options, time.Since(start).Seconds(), strings.Join(vs, " "))
			if st.programs%20 == 0 {
				t.Logf("so far:\n%s", st)
			}
		}
		key := fmt.Sprintf("%d/%s/%s", j.seed, j.model, j.config)
		for _, o := range outs {
			if issue, ok := knownSeeds[fmt.Sprintf("%s:%d", key, o.Line)]; ok && !o.Failed() {
				if o.Verdict == results.Unknown {
					t.Logf("%s:%d: known failure (%s) is UNKNOWN here (%s)", key, o.Line, issue, o.Reason)
				} else {
					t.Errorf("%s:%d: known failure (%s) now passes (%s): remove it from knownSeeds", key, o.Line, issue, o.Verdict)
				}
			}
			if !o.Failed() {
				continue
			}
			msg := fmt.Sprintf("%s: line %d: %s %s (%s): %s", key, o.Line, o.Problem, o.Verdict, o.Reason, o.Detail)
			if o.Bodiless {
				msg += " [bodiless function]"
			}
			file := filepath.Join(out, fmt.Sprintf("seed%d-%s-%s.txt", j.seed, j.model, j.config))
			header := map[string]string{"config": j.config, "data-model": j.model.String(), "problem": o.Problem}
			if err := os.MkdirAll(out, 0o755); err == nil {
				os.WriteFile(file, []byte(c.Format(header)), 0o644)
				if *flagReduce > 0 {
					min := e.Reduce(ctx, c, j.config, o.Problem, lim, *flagReduce)
					os.WriteFile(strings.TrimSuffix(file, ".txt")+"-min.txt", []byte(min.Format(header)), 0o644)
				}
			}
			if issue, ok := knownSeeds[fmt.Sprintf("%s:%d", key, o.Line)]; ok {
				t.Logf("known failure: %s (%s); case in %s", msg, issue, file)
				continue
			}
			t.Errorf("%s; case in %s", msg, file)
		}
	}
	t.Logf("differential test:\n%s", st)
}

// TestRegressions checks the cases under testdata (named after the bug
// they showed). A case with a "# known: ISSUE" header is expected to fail
// until that issue is fixed: its failure is logged, and once it passes the
// test fails until the header goes (strict, so that the list stays true).
func TestRegressions(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	dir := t.TempDir()
	es := envs(t, dir)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c, h, err := ParseCase(f, string(text))
			if err != nil {
				t.Fatal(err)
			}
			m := cfa.LP64
			if h["data-model"] == "ILP32" {
				m = cfa.ILP32
			}
			e := es[m]
			if e == nil {
				t.Skipf("no %s environment (logged above)", m)
			}
			outs, err := e.Check(context.Background(), c, h["config"], Limits{Timeout: *flagTimeout, MaxStates: 200_000})
			if err != nil {
				t.Fatal(err)
			}
			failed := false
			for _, o := range outs {
				if o.Failed() {
					failed = true
					msg := fmt.Sprintf("line %d: %s %s (%s): %s", o.Line, o.Problem, o.Verdict, o.Reason, o.Detail)
					if h["known"] != "" {
						t.Logf("known failure (%s): %s", h["known"], msg)
					} else {
						t.Error(msg)
					}
				}
			}
			if !failed && h["known"] != "" {
				t.Errorf("%s now passes: remove its \"# known: %s\" header (it is expected to fail until that issue is fixed)", f, h["known"])
			}
		})
	}
}

// TestGenerateReproducible checks that a seed determines the program.
func TestGenerateReproducible(t *testing.T) {
	for seed := int64(0); seed < 8; seed++ {
		a, b := Generate(seed, OptionsFor(seed)), Generate(seed, OptionsFor(seed))
		ra, _ := a.render(func(i int, c check) string { return c.lv.text }, "")
		rb, _ := b.render(func(i int, c check) string { return c.lv.text }, "")
		if ra != rb || a.Adversarial != b.Adversarial {
			t.Fatalf("seed %d: two programs differ", seed)
		}
	}
}

// TestDump writes the asserted program of -diff.seed (LP64) to stdout,
// for inspection: go test -run TestDump -diff.dump -diff.seed N.
var flagDump = flag.Bool("diff.dump", false, "TestDump: print the asserted program of -diff.seed")

func TestDump(t *testing.T) {
	if !*flagDump {
		t.Skip("only with -diff.dump")
	}
	e, err := NewEnv(cfa.LP64, t.TempDir())
	if err != nil {
		t.Skip(err)
	}
	opt := OptionsFor(*flagSeed)
	opt.Stdin = *flagStdin
	opt.Convert = opt.Convert || *flagConvert
	opt.Env = *flagEnv
	gp := Generate(*flagSeed, opt)
	c, err := e.MakeCase(context.Background(), gp)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(c.Format(nil))
}

// TestCaseFormat checks that Format and ParseCase round-trip.
func TestCaseFormat(t *testing.T) {
	c := &Case{Source: "int main(void) { return 0; }\n", Benign: "void e(void) { }\n", Adversarial: "void e(void) { }\n",
		Inputs: [][]int64{{1, -9223372036854775808, 3}, nil}}
	h := map[string]string{"config": "value", "data-model": "ILP32", "known": "bodiless functions"}
	text := c.Format(h)
	d, h2, err := ParseCase("x", text)
	if err != nil {
		t.Fatal(err)
	}
	if d.Source != c.Source || d.Benign != c.Benign || d.Adversarial != c.Adversarial || fmt.Sprint(d.Inputs) != fmt.Sprint([][]int64{{1, -9223372036854775808, 3}, {}}) {
		t.Errorf("round trip:\n%s\ngave %+v", text, d)
	}
	if fmt.Sprint(h2) != fmt.Sprint(h) {
		t.Errorf("header %v, want %v", h2, h)
	}
}

// TestUnitEnd checks the units Reduce removes.
func TestUnitEnd(t *testing.T) {
	lines := strings.SplitAfter(`int main(void) {
	x = 1;
	if (x) {
		y = 2;
	} else {
		y = 3;
	}
	struct S s = {1, 2};
}
#include <assert.h>
`, "\n")
	for i, want := range []int{8, 1, 6, 3, -1, 5, -1, 7, -1, -1} {
		if got := unitEnd(lines, i); got != want {
			t.Errorf("unitEnd(%q) = %d, want %d", lines[i], got, want)
		}
	}
}

// TestQemu runs an ILP32 program whose FALSE verdict has a reproducer
// under qemu-i386, the route taken on kernels that cannot run 32-bit
// programs: the values, the gcc runs and the reproducer all go through
// it.
func TestQemu(t *testing.T) {
	e, err := newEnv(cfa.ILP32, t.TempDir(), true)
	if err != nil {
		t.Skip(err)
	}
	if len(e.exec) == 0 {
		t.Fatal("qemu-i386 not used")
	}
	// Deterministic programs without externs or bit-fields: the first
	// with a FALSE verdict under value must have a reproducer that
	// reaches the error (the engine decides which seed that is).
	for _, seed := range []int64{12, 16, 4, 24, 28} {
		c, err := e.MakeCase(context.Background(), Generate(seed, OptionsFor(seed)))
		if err != nil {
			t.Fatal(err)
		}
		outs, err := e.Check(context.Background(), c, "value", Limits{Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		falses := 0
		for _, o := range outs {
			if o.Failed() {
				t.Errorf("seed %d: line %d: %s %s (%s): %s", seed, o.Line, o.Problem, o.Verdict, o.Reason, o.Detail)
			}
			if o.Verdict == results.False && o.Problem == "" {
				falses++ // its reproducer reached the error under qemu
			}
		}
		if falses > 0 {
			return
		}
	}
	t.Error("no FALSE verdict (with a reproducer that reaches the error) on seeds 12, 16, 4, 24, 28")
}

var flagReduceFile = flag.String("diff.reducefile", "", "TestReduceFile: reduce this failing case file and print the result")

// TestReduceFile reduces a failing case written by TestDiff (by hand:
// go test -run TestReduceFile -diff.reducefile F -diff.reduce N).
func TestReduceFile(t *testing.T) {
	if *flagReduceFile == "" {
		t.Skip("only with -diff.reducefile")
	}
	text, err := os.ReadFile(*flagReduceFile)
	if err != nil {
		t.Fatal(err)
	}
	c, h, err := ParseCase(*flagReduceFile, string(text))
	if err != nil {
		t.Fatal(err)
	}
	m := cfa.LP64
	if h["data-model"] == "ILP32" {
		m = cfa.ILP32
	}
	e, err := NewEnv(m, t.TempDir())
	if err != nil {
		t.Skip(err)
	}
	n := *flagReduce
	if n == 0 {
		n = 300
	}
	min := e.Reduce(context.Background(), c, h["config"], h["problem"], Limits{Timeout: *flagTimeout}, n)
	fmt.Print(min.Format(h))
}
