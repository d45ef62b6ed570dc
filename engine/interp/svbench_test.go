package interp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// svbenchDir holds SV-COMP benchmarks when present (see
// engine/frontend/svbench_test.go); they are never copied into the
// repository.
const svbenchDir = "/root/svbench"

// TestSVBenchPathsAgree runs every SV-COMP program the front end
// translates on a few input vectors and requires that each executed path
// is feasible for the encoder (Sat, never Unsat), and that the model's
// inputs replay along the path. Programs the encoder cannot handle
// (EncodeError) and solver timeouts are counted, not failed.
func TestSVBenchPathsAgree(t *testing.T) {
	if _, err := os.Stat(svbenchDir); err != nil {
		t.Skipf("no SV-COMP benchmarks in %s", svbenchDir)
	}
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	if os.Getenv("REVERIFY_SVBENCH_PATHS") == "" {
		t.Skip("takes minutes: set REVERIFY_SVBENCH_PATHS=1 to run")
	}
	var files []string
	filepath.Walk(svbenchDir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.HasSuffix(path, ".c") || strings.HasSuffix(path, ".i")) {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	stats := map[string]int{}
	reasons := map[string]int{}
	for _, f := range files {
		p, err := frontend.Translate(frontend.Options{}, f)
		if err != nil || p.Func("main") == nil {
			stats["not translated"]++
			continue
		}
		for _, v := range []uint64{0, 1, 5, 0xffffffffffffffff} {
			tr, err := interp.Run(context.Background(), p, "main", repeat(v, 4096), interp.Options{MaxSteps: 1500})
			if err != nil {
				t.Fatal(err)
			}
			stats["run: "+tr.Stop.String()]++
			if tr.Stop == interp.Unsupported {
				reasons[firstWords(tr.Reason)]++
			}
			if len(tr.Steps) == 0 {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			start := time.Now()
			r, err := smt.CheckPath(ctx, smt.NewBuilder(), z3.Factory, p, tr.Steps)
			cancel()
			if d := time.Since(start); d > time.Second {
				t.Logf("%s (input %#x): %d steps, %v: %v", f, v, len(tr.Steps), r.Status, d)
			}
			var ee *smt.EncodeError
			switch {
			case errors.As(err, &ee):
				stats["encode error"]++
				reasons["encode: "+firstWords(ee.Construct)]++
				continue
			case r.Status == smt.Unsat:
				t.Errorf("%s (input %#x): the executed path (%d steps, %v) is unsat for the encoder", f, v, len(tr.Steps), tr.Stop)
				continue
			case r.Status == smt.Unknown:
				stats["unknown"]++
				reasons["unknown: "+firstWords(r.Reason)]++
				continue
			}
			stats["sat"]++
			ok, err := interp.Replay(context.Background(), p, tr.Steps, r.Values())
			if !ok {
				t.Errorf("%s (input %#x): the model's inputs do not replay: %v", f, v, err)
			}
		}
	}
	t.Logf("%d files: %v", len(files), stats)
	var rs []string
	for k, n := range reasons {
		rs = append(rs, k+" ×"+itoa(n))
	}
	sort.Strings(rs)
	t.Logf("reasons: %s", strings.Join(rs, "; "))
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 5 {
		f = f[:5]
	}
	return strings.Join(f, " ")
}

func itoa(n int) string { return strconv.Itoa(n) }
