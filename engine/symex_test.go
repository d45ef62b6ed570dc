package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// symexWantRE matches per-configuration expectations:
// `// want value:UNKNOWN symex:TRUE "reason"`; a verdict without a
// configuration applies to every configuration.
var symexWantRE = regexp.MustCompile(`// want ((?:(?:[a-z-]+:)?(?:TRUE|FALSE|UNKNOWN|NOT_CHECKED)\s*)+)(?:"([^"]*)")?`)

// wantsFor returns the expectations of the file's lines for config.
func wantsFor(src, config string) map[int]want {
	wants := map[int]want{}
	for i, line := range strings.Split(src, "\n") {
		m := symexWantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, tok := range strings.Fields(m[1]) {
			conf, verdict, scoped := strings.Cut(tok, ":")
			if !scoped {
				verdict = conf
			} else if conf != config {
				continue
			}
			wants[i+1] = want{engine.Verdict(verdict), m[2]}
		}
	}
	return wants
}

// TestSymex verifies the programs of testdata/symex under symex, each
// property exactly as its `// want` says, and checks that symex excluded
// no infeasible error path: its targets are feasible by construction, so
// its verdicts never rest on the engine's path exclusion. The value
// analysis runs on them too and must not contradict the truth (the
// symex want, or a `truth:` token where symex cannot decide).
func TestSymex(t *testing.T) {
	files, _ := filepath.Glob("testdata/symex/*.c")
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	for _, config := range []string{"symex", "value"} {
		for _, file := range files {
			t.Run(config+"/"+filepath.Base(file), func(t *testing.T) {
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				results := verifyFile(t, file, engine.Config{Name: config, MaxStates: 5000, Timeout: 10 * time.Second})
				wants := wantsFor(string(src), "symex")
				truth := wantsFor(string(src), "truth")
				seen := map[int]bool{}
				for _, r := range results {
					line := r.Property.Pos.Line
					seen[line] = true
					w, ok := wants[line]
					if !ok {
						t.Errorf("%s:%d: unexpected property %s: %s (%s)", file, line, r.Property.ID, r.Verdict, r.Reason)
						continue
					}
					if config != "symex" {
						if tr := truth[line]; tr.verdict != "" {
							w = tr
						}
						if r.Verdict != w.verdict && r.Verdict != engine.Unknown && w.verdict != engine.Unknown {
							t.Errorf("%s:%d: %s: %s says %s (%s), the truth is %s", file, line, r.Property.ID, config, r.Verdict, r.Reason, w.verdict)
						}
						continue
					}
					if r.Verdict != w.verdict || !strings.Contains(r.Reason, w.reason) {
						t.Errorf("%s:%d: %s: got %s (%s), want %s %q", file, line, r.Property.ID, r.Verdict, r.Reason, w.verdict, w.reason)
					}
					if strings.Contains(r.Reason, "excluded") {
						t.Errorf("%s:%d: symex relied on path exclusion: %s", file, line, r.Reason)
					}
				}
				for line, w := range wants {
					if !seen[line] {
						t.Errorf("%s:%d: no property found, want %s", file, line, w.verdict)
					}
				}
			})
		}
	}
}

// TestSymexNoWrongVerdicts runs symex on the verdict tests of the other
// configurations: symex may answer UNKNOWN where they decide, never the
// opposite verdict, and never relies on path exclusion.
func TestSymexNoWrongVerdicts(t *testing.T) {
	files, _ := filepath.Glob("testdata/verdicts/*.c")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			wants := wantsFor(string(src), "symex")
			for _, r := range verifyFile(t, file, engine.Config{Name: "symex", MaxStates: 20000, Timeout: 20 * time.Second}) {
				w, ok := wants[r.Property.Pos.Line]
				if !ok {
					continue // TestVerdicts reports unexpected properties
				}
				if r.Verdict != w.verdict && r.Verdict != engine.Unknown {
					t.Errorf("%s:%d: %s: symex says %s (%s), want %s", file, r.Property.Pos.Line, r.Property.ID, r.Verdict, r.Reason, w.verdict)
				}
				if strings.Contains(r.Reason, "excluded") {
					t.Errorf("%s:%d: symex relied on path exclusion: %s", file, r.Property.Pos.Line, r.Reason)
				}
			}
		})
	}
}

// verifyFile translates file and verifies all its properties under cfg
// (with Z3).
func verifyFile(t *testing.T, file string, cfg engine.Config) []*engine.Result {
	t.Helper()
	prog, err := frontend.Translate(frontend.Config{}, file)
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	props := spec.Properties(prog, "main")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg.Solver = z3.Factory
	results, err := engine.Verify(ctx, prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Verdict == engine.False && len(r.Counterexample) == 0 {
			t.Errorf("%s:%d: FALSE without a counterexample", file, r.Property.Pos.Line)
		}
	}
	return results
}
