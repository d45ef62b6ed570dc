package engine_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// TestSymexNoWrongVerdicts runs symex and symex-cegar on every program
// of testdata/verdicts, also those whose `// configs:` line does not
// name them (TestVerdicts checks those that do exactly): they may answer
// UNKNOWN where their want says TRUE or FALSE, never the opposite
// verdict. And symbolic execution's error paths are feasible by
// construction, so no symex verdict may rest on the engine's exclusion
// of infeasible paths.
func TestSymexNoWrongVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs symex and symex-cegar on every verdict program; the full tier runs it, and the fast tier's TestVerdicts runs both configurations")
	}
	files := verdictFiles(t)
	for _, config := range []string{"symex", "symex-cegar"} {
		for _, vf := range files {
			file, src := vf.file, []byte(vf.src)
			t.Run(config+"/"+filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				wants := parseWants(t, file, string(src), config)
				cfg := engine.Config{MemoryLimit: testMemory, Name: config, MaxStates: 20000, Timeout: 10 * time.Second}
				if m := entryRE.FindStringSubmatch(string(src)); m != nil {
					cfg.Entry = m[1]
				}
				if m := maxStatesRE.FindStringSubmatch(string(src)); m != nil {
					cfg.MaxStates, _ = strconv.Atoi(m[1])
				}
				if m := overflowRE.FindStringSubmatch(string(src)); m != nil {
					cfg.SignedOverflow = engine.OverflowMode(m[1])
				}
				for _, r := range verifyFile(t, file, cfg) {
					line := r.Property.Pos.Line
					w, ok := wants[line]
					if !ok {
						continue // TestVerdicts reports unexpected properties
					}
					if r.Verdict != w.Verdict && r.Verdict != results.Unknown {
						t.Errorf("%s:%d: %s: %s says %s (%s), want %s", file, line, r.Property.ID, config, r.Verdict, r.Reason, w.Verdict)
					}
					// Under assume-none the analyses wrap and the counterexample
					// check cuts paths that overflow: exclusion is expected.
					// So it is for CBMC's memory primitives on heap blocks,
					// which the shared value memory does not evaluate outside
					// memory mode (cbmc_memory_primitives.c): their result is
					// a fresh symbol, and only the exact SMT encoding rules
					// the error path out.
					// A program may also name the model whose imprecision
					// it expects ("// symex excludes paths: …").
					if config == "symex" && strings.Contains(r.Reason, "excluded") && cfg.SignedOverflow != engine.AssumeNoOverflow && !memoryQueryRE.MatchString(string(src)) && !symexExcludesRE.MatchString(string(src)) {
						t.Errorf("%s:%d: symex relied on path exclusion: %s", file, line, r.Reason)
					}
				}
			})
		}
	}
}

// symexExcludesRE matches a verdict program's note that symbolic
// execution's error paths through it may need the SMT check (a library
// model that over-approximates symbolic data).
var symexExcludesRE = regexp.MustCompile(`(?m)^// symex excludes paths: `)

// memoryQueryRE matches a use of CBMC's memory primitives
// (cfa.MemoryQueries).
var memoryQueryRE = regexp.MustCompile(`__CPROVER_(r_ok|w_ok|rw_ok|same_object|POINTER_OBJECT|POINTER_OFFSET)\b`)

// verifyFile translates file and verifies all its properties under cfg
// (with Z3).
func verifyFile(t *testing.T, file string, cfg engine.Config) []*engine.Result {
	t.Helper()
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	entry := cfg.Entry
	if entry == "" {
		entry = "main"
	}
	props := spec.Properties(prog, entry)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg.Solver = z3.Factory
	rs, err := engine.Verify(ctx, prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Verdict == results.False && len(r.Counterexample) == 0 {
			t.Errorf("%s:%d: FALSE without a counterexample", file, r.Property.Pos.Line)
		}
	}
	return rs
}
