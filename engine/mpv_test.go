package engine_test

import (
	"context"
	"path/filepath"
	"strconv"
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

// TestMultiMatchesPerProperty verifies every program of
// testdata/verdicts with value analysis twice, one property at a time
// and all properties in one run (Config.MultiProperty "on"), and
// requires the same verdict for every property, and a counterexample for
// every FALSE of the shared run; where one of them ran out of time
// (30 s a property), the difference is logged. The programs run in
// parallel.
func TestMultiMatchesPerProperty(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies every verdict program twice")
	}
	var mu sync.Mutex
	multiProps := 0
	count := map[results.Verdict]int{}
	t.Run("programs", func(t *testing.T) {
		for _, vf := range verdictFiles(t) {
			t.Run(filepath.Base(vf.file), func(t *testing.T) {
				t.Parallel()
				n, c := multiMatches(t, vf.file, []byte(vf.src))
				mu.Lock()
				defer mu.Unlock()
				multiProps += n
				for v, k := range c {
					count[v] += k
				}
			})
		}
	})
	t.Logf("verdicts of the shared runs: %v", count)
	if multiProps < 20 || count[results.True] == 0 || count[results.False] == 0 {
		t.Errorf("only %d properties in programs with several: the comparison proves little", multiProps)
	}
}

// timedOut reports whether r is an UNKNOWN that its time limit (or its
// share of one) ended.
func timedOut(r *engine.Result) bool {
	return r.Verdict == results.Unknown && r.Cause != nil && (r.Cause.Kind == results.CauseTimeout || r.Cause.Kind == results.CauseBudget)
}

// multiMatches is TestMultiMatchesPerProperty on one program: the
// number of properties if it has several, and the shared run's verdicts.
func multiMatches(t *testing.T, file string, src []byte) (int, map[results.Verdict]int) {
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	entry := "main"
	if m := entryRE.FindSubmatch(src); m != nil {
		entry = string(m[1])
	}
	props := spec.Properties(prog, entry)
	multiProps := 0
	if len(props) >= 2 {
		multiProps = len(props)
	}
	cfg := engine.Config{Name: "value", Entry: entry, Timeout: 30 * time.Second, Solver: z3.Factory, MaxStates: 200_000, MemoryLimit: testMemory}
	if m := maxStatesRE.FindSubmatch(src); m != nil {
		cfg.MaxStates, _ = strconv.Atoi(string(m[1]))
	}
	if m := overflowRE.FindSubmatch(src); m != nil {
		cfg.SignedOverflow = engine.OverflowMode(m[1])
	}
	if m := assumePureRE.FindSubmatch(src); m != nil {
		cfg.AssumePure = strings.Fields(string(m[1]))
	}
	ctx := context.Background()
	cfg.MultiProperty = engine.MultiOff
	one, err := engine.Verify(ctx, prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MultiProperty = engine.MultiOn
	all, err := engine.Verify(ctx, prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	count := map[results.Verdict]int{}
	for i := range props {
		switch {
		case one[i].Verdict == all[i].Verdict:
		case timedOut(one[i]) || timedOut(all[i]):
			// a verdict found near the limit in one run only
			t.Logf("%s: %s: per property %s (%s), all at once %s (%s)", file, props[i].ID, one[i].Verdict, one[i].Reason, all[i].Verdict, all[i].Reason)
		default:
			t.Errorf("%s: %s: per property %s (%s), all at once %s (%s)", file, props[i].ID, one[i].Verdict, one[i].Reason, all[i].Verdict, all[i].Reason)
		}
		count[all[i].Verdict]++
		if all[i].Verdict == results.False && len(all[i].Counterexample) == 0 {
			t.Errorf("%s: %s: FALSE without a counterexample", file, props[i].ID)
		}
	}
	return multiProps, count
}

// BenchmarkMultiProperty verifies all properties of a program with many
// assertions (testdata/mpv/lexer.c: 31, and the ringproto example: 15)
// one property at a time and in one shared run (Config.MultiProperty off
// and on/auto), with value analysis and with `default`; the ratio of the
// two in one run is the saving of multi-property verification
// (doc/perf/2026-11-27-multi-property.md). The per-property value runs of lexer.c
// take about a minute of CPU each operation:
//
//	go test -run '^$' -bench MultiProperty -benchtime 1x ./engine/
func BenchmarkMultiProperty(b *testing.B) {
	ring, _ := filepath.Glob("../testdata/examples/ringproto/src/*.c")
	for _, tc := range []struct {
		name  string
		files []string
		inc   []string
	}{
		{"lexer", []string{"testdata/mpv/lexer.c"}, nil},
		{"ringproto", ring, []string{"../testdata/examples/ringproto/include"}},
	} {
		prog, err := frontend.Translate(frontend.Options{IncludeDirs: tc.inc}, tc.files...)
		if err != nil {
			b.Fatal(err)
		}
		props := spec.Properties(prog, "main")
		for _, config := range []string{"value", "default"} {
			for _, mode := range []string{engine.MultiOff, engine.MultiOn} {
				name := "per-property"
				if mode == engine.MultiOn {
					name = "shared"
				}
				b.Run(tc.name+"/"+config+"/"+name, func(b *testing.B) {
					for b.Loop() {
						if _, err := engine.Verify(context.Background(), prog, props, engine.Config{MemoryLimit: testMemory,
							Name: config, Solver: z3.Factory, Timeout: time.Minute, MultiProperty: mode,
						}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// TestMultiDefault verifies the files of testdata/verdicts that run
// under `default` with at least four properties twice, with the shared
// value run first (MultiAuto) and one property at a time (MultiOff), and
// requires the same verdicts; the shared run must decide some properties
// and leave some to the rest of the portfolio. The fast tier (go test
// -short) verifies the two quick files, libc_models.c (all decided by the
// shared run) and extern_global.c (all left to the rest).
func TestMultiDefault(t *testing.T) {
	byShared, byRest := 0, 0
	for _, tc := range []struct {
		file  string
		short bool
	}{{"symex_relations.c", false}, {"libc_models.c", true}, {"extern_global.c", true}, {"symex_memory.c", false}} {
		if testing.Short() && !tc.short {
			continue
		}
		file := "testdata/verdicts/" + tc.file
		prog, err := frontend.Translate(frontend.Options{}, file)
		if err != nil {
			t.Fatal(err)
		}
		props := spec.Properties(prog, "main")
		if len(props) < 4 {
			t.Fatalf("%s: %d properties, want at least 4", file, len(props))
		}
		cfg := engine.Config{Name: "default", Timeout: 2 * time.Minute, Solver: z3.Factory, MemoryLimit: testMemory}
		cfg.MultiProperty = engine.MultiOff
		one, err := engine.Verify(context.Background(), prog, props, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.MultiProperty = engine.MultiAuto
		all, err := engine.Verify(context.Background(), prog, props, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i := range props {
			if one[i].Verdict != all[i].Verdict {
				t.Errorf("%s: %s: per property %s (%s), shared first %s (%s)", file, props[i].ID, one[i].Verdict, one[i].Reason, all[i].Verdict, all[i].Reason)
			}
			switch r := all[i].Reason; {
			case all[i].Verdict == results.Unknown && strings.Contains(r, "value (all properties in one run): "):
				byRest++
			case strings.HasPrefix(r, "value: "):
				byShared++
			case strings.HasPrefix(r, "value-cegar: "), strings.HasPrefix(r, "symex-cegar: "):
				byRest++
			}
		}
	}
	if byShared == 0 || byRest == 0 {
		t.Errorf("decided by the shared run: %d, by the rest of the portfolio: %d; want both", byShared, byRest)
	}
}
