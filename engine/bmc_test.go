package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// TestBMCAgrees runs `bmc` on every program of testdata/verdicts and
// compares each decided verdict with the known one (a TRUE or FALSE
// want of any configuration: verdicts are never wrong, so every
// configuration that decides agrees). bmc may answer UNKNOWN anywhere;
// it must never contradict a known verdict, and every FALSE carries a
// counterexample.
func TestBMCAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every verdict program")
	}
	var mu sync.Mutex
	decided, agreed := 0, 0
	t.Cleanup(func() {
		t.Logf("bmc decided %d properties, %d of them with a known verdict that agrees", decided, agreed)
	})
	for _, vf := range verdictFiles(t) {
		t.Run(filepath.Base(vf.file), func(t *testing.T) {
			t.Parallel()
			truth := knownVerdicts(vf.src)
			var fcfg frontend.Options
			if mallocRE.MatchString(vf.src) {
				fcfg.Malloc = frontend.MallocMayFail
			}
			prog, err := frontend.Translate(fcfg, vf.file)
			if err != nil {
				t.Fatal(err)
			}
			entry := "main"
			if m := entryRE.FindStringSubmatch(vf.src); m != nil {
				entry = m[1]
			}
			cfg := engine.Config{Name: "bmc", Entry: entry, Timeout: 5 * time.Second, Solver: z3.Factory, OneShot: z3.OneShotFactory, MemoryLimit: 6 << 30}
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
			for _, r := range rs {
				if r.Verdict != results.True && r.Verdict != results.False {
					continue
				}
				mu.Lock()
				decided++
				mu.Unlock()
				want, known := truth[r.Property.Pos.Line]
				switch {
				case !known:
					t.Errorf("%s:%d: bmc %s (%s), where no configuration decides", vf.file, r.Property.Pos.Line, r.Verdict, r.Reason)
				case r.Verdict != want:
					t.Errorf("%s:%d: bmc %s (%s), known %s", vf.file, r.Property.Pos.Line, r.Verdict, r.Reason, want)
				default:
					mu.Lock()
					agreed++
					mu.Unlock()
				}
				if r.Verdict == results.False && len(r.Counterexample) == 0 {
					t.Errorf("%s:%d: FALSE without a counterexample", vf.file, r.Property.Pos.Line)
				}
			}
		})
	}
}

// knownVerdicts returns the decided verdicts of src's wants by line:
// TRUE or FALSE under any configuration (a property no configuration
// decides has none).
func knownVerdicts(src string) map[int]results.Verdict {
	truth := map[int]results.Verdict{}
	for i, line := range strings.Split(src, "\n") {
		m := wantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for rest := m[1]; strings.TrimSpace(rest) != ""; {
			it := wantItemRE.FindStringSubmatch(rest)
			if it == nil {
				break
			}
			rest = rest[len(it[0]):]
			if v := results.Verdict(it[2]); v == results.True || v == results.False {
				truth[i+1] = v
			}
		}
	}
	return truth
}

// TestBMCAll: bmc verifies the properties of an entry over one unrolling
// per bound (CheckAll), and each property's verdict is the one it has
// alone: a failed assertion ends its execution (__assert_fail), so the
// second assertion, which fails only where the first one did, holds,
// and so does the third; the first fails.
func TestBMCAll(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{CBMC: true}, []frontend.Source{{Name: "t.c", Content: `
int nondet_int(void);
int main(void) {
	int x = nondet_int();
	int a[4] = {0};
	for (int i = 0; i < 4; i++) a[i] = i;
	__CPROVER_assert(x != 1, "first");
	__CPROVER_assert(x != 1 || a[3] == 2, "second");
	__CPROVER_assert(a[2] == 2, "third");
	return 0;
}`}})
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	if len(props) != 3 {
		t.Fatalf("%d properties, want 3", len(props))
	}
	for _, multi := range []string{engine.MultiAuto, engine.MultiOff} {
		cfg := engine.Config{MemoryLimit: testMemory, Name: "bmc", Entry: "main", Timeout: time.Minute, Solver: z3.Factory, OneShot: z3.OneShotFactory, MultiProperty: multi}
		rs, err := engine.Verify(context.Background(), prog, props, cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := []results.Verdict{results.False, results.True, results.True}
		for i, r := range rs {
			if r.Verdict != want[i] {
				t.Errorf("multi-property %q: %s: %s (%s), want %s", multi, r.Property.ID, r.Verdict, r.Reason, want[i])
			}
		}
	}
}
