package engine_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// TestLLVMAgrees verifies every verdict program of testdata/verdicts
// through the LLVM front end (clang at -O0 -g, engine/llvmir) under its
// first configuration. A decided assertion must have its known verdict
// (`// want` of any configuration): a verdict that differs is a wrong
// verdict, and so is one where no configuration decides. It logs the
// agreement with the C front end's verdicts under the same
// configuration (the wants TestVerdicts holds it to), where each front
// end decides more, why the LLVM path left a verdict undecided, and
// which programs clang cannot compile (CBMC's dialect).
func TestLLVMAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and runs every verdict program")
	}
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang is not installed (scripts/install.sh installs it)")
	}
	var mu sync.Mutex
	var total, agree, more, fewer, untranslated, missing int
	var missed []string
	var refused []string
	undecided := map[string]int{} // why the LLVM path left a verdict of the C front end undecided
	t.Cleanup(func() {
		sort.Strings(refused)
		t.Logf("LLVM front end against the C front end, same configuration: %d of %d verdicts agree (%.1f %%; %.1f %% of the %d in programs clang compiles), LLVM decides %d more and %d fewer, has no property at %d (%s); not translated (%d properties): %s",
			agree, total, 100*float64(agree)/float64(total), 100*float64(agree)/float64(total-untranslated), total-untranslated, more, fewer, missing, strings.Join(missed, " "), untranslated, strings.Join(refused, "; "))
		var why []string
		for r, n := range undecided {
			why = append(why, fmt.Sprintf("%3d %s", n, r))
		}
		sort.Sort(sort.Reverse(sort.StringSlice(why)))
		t.Logf("verdicts the LLVM path leaves undecided, by reason:\n%s", strings.Join(why, "\n"))
	})
	for _, vf := range verdictFiles(t) {
		t.Run(filepath.Base(vf.file), func(t *testing.T) {
			t.Parallel()
			truth := knownVerdicts(vf.src)
			config := vf.configs[0]
			cwants := parseWants(t, vf.file, vf.src, config, config)
			mu.Lock()
			total += len(cwants)
			mu.Unlock()
			prog, err := loadClang(t, vf.file)
			if err != nil {
				mu.Lock()
				untranslated += len(cwants)
				refused = append(refused, filepath.Base(vf.file)+": "+firstLine(strings.ReplaceAll(err.Error(), "\n", " ")))
				mu.Unlock()
				return
			}
			if err := prog.Check(); err != nil {
				t.Fatalf("CFA sanity: %v", err)
			}
			entry := "main"
			if m := entryRE.FindStringSubmatch(vf.src); m != nil {
				entry = m[1]
			}
			cfg := engine.Config{Name: config, Entry: entry, Timeout: 10 * time.Second, Solver: z3.Factory, OneShot: z3.OneShotFactory, MemoryLimit: 6 << 30}
			if m := overflowRE.FindStringSubmatch(vf.src); m != nil {
				cfg.SignedOverflow = engine.OverflowMode(m[1])
			}
			if m := assumePureRE.FindStringSubmatch(vf.src); m != nil {
				cfg.AssumePure = strings.Fields(m[1])
			}
			rs, err := engine.Verify(context.Background(), prog, spec.Properties(prog, entry), cfg)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int]bool{}
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				for line := range cwants {
					if !seen[line] {
						missing++
						missed = append(missed, fmt.Sprintf("%s:%d", filepath.Base(vf.file), line))
					}
				}
			}()
			for _, r := range rs {
				line := r.Property.Pos.Line
				seen[line] = true
				decided := r.Verdict == results.True || r.Verdict == results.False
				c, inC := cwants[line]
				mu.Lock()
				switch {
				case !inC:
				case r.Verdict == c.Verdict:
					agree++
				case decided:
					more++
				default:
					fewer++
					reason := r.Reason
					if len(reason) > 90 {
						reason = reason[:90]
					}
					undecided[filepath.Base(vf.file)+": "+reason]++
				}
				mu.Unlock()
				if !decided {
					continue
				}
				want, known := truth[line]
				switch {
				case !known:
					t.Errorf("%s:%d: %s (%s) through LLVM, where no configuration decides", vf.file, line, r.Verdict, r.Reason)
				case r.Verdict != want:
					t.Errorf("%s:%d: %s (%s) through LLVM, known %s", vf.file, line, r.Verdict, r.Reason, want)
				}
				if r.Verdict == results.False && len(r.Counterexample) == 0 {
					t.Errorf("%s:%d: FALSE without a counterexample", vf.file, line)
				}
			}
		})
	}
}

// TestLLVMOnlyProgram verifies testdata/llvm/overloadable.c, C that the
// built-in front end rejects (two functions of one name, clang's
// overloadable attribute) and clang accepts, through the LLVM front end:
// every assertion gets its `// want` verdict, the FALSE with a
// counterexample.
func TestLLVMOnlyProgram(t *testing.T) {
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang is not installed (scripts/install.sh installs it)")
	}
	const file = "testdata/llvm/overloadable.c"
	if _, err := engine.Load(engine.SourceOptions{}, file); err == nil || !strings.Contains(err.Error(), "conflicting types") {
		t.Fatalf("the built-in front end: got %v, want a conflicting-types error", err)
	}
	checkLLVMFile(t, file)
}

// TestLLVMBuiltins verifies testdata/llvm/overflow_builtins.c through
// the LLVM front end: gcc's checked arithmetic builtins, which clang
// turns into LLVM's arithmetic-with-overflow intrinsics, give each
// assertion its `// want` verdict.
func TestLLVMBuiltins(t *testing.T) {
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang is not installed (scripts/install.sh installs it)")
	}
	checkLLVMFile(t, "testdata/llvm/overflow_builtins.c")
}

// checkLLVMFile compiles file with clang, verifies it under value and
// compares every verdict with its `// want`.
func checkLLVMFile(t *testing.T, file string) {
	prog, err := loadClang(t, file)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wants := parseWants(t, file, string(src), "value", "value")
	cfg := engine.Config{MemoryLimit: testMemory, Name: "value", Entry: "main", Timeout: time.Minute, Solver: z3.Factory}
	rs, err := engine.Verify(context.Background(), prog, spec.Properties(prog, "main"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range rs {
		line := r.Property.Pos.Line
		seen[line] = true
		w, ok := wants[line]
		switch {
		case !ok:
			t.Errorf("%s:%d: unexpected property %s", file, line, r.Property.ID)
		case r.Verdict != w.Verdict:
			t.Errorf("%s:%d: got %s (%s), want %s", file, line, r.Verdict, r.Reason, w.Verdict)
		case r.Verdict == results.False && len(r.Counterexample) == 0:
			t.Errorf("%s:%d: FALSE without a counterexample", file, line)
		}
	}
	for line, w := range wants {
		if !seen[line] {
			t.Errorf("%s:%d: no property, want %s", file, line, w.Verdict)
		}
	}
}

// loadClang compiles the C file with clang as `--frontend clang` does
// (engine.ClangArgs) and translates its IR (engine.LoadIR); clang's
// diagnostics are the error.
func loadClang(t *testing.T, file string) (*engine.Program, error) {
	var opts engine.SourceOptions
	var copts engine.ClangOptions
	dir := t.TempDir()
	if src, err := os.ReadFile(file); err == nil {
		if mallocRE.Match(src) {
			opts.Malloc = engine.MallocMayFail
		}
		if engine.UsesCBMC(string(src)) {
			if copts, err = copts.WithCBMCPrelude(dir); err != nil {
				return nil, err
			}
		}
	}
	ll := filepath.Join(dir, "p.ll")
	out, err := exec.Command("clang", engine.ClangArgs(copts, file, ll)...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("clang: %s", out)
	}
	text, err := os.ReadFile(ll)
	if err != nil {
		return nil, err
	}
	return engine.LoadIR(opts, file, string(text), file)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
