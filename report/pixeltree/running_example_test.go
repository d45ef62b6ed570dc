package pixeltree_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/report/pixeltree"
	"github.com/reverify/reverify/results"
)

var update = flag.Bool("update", false, "rewrite the golden pixel trees in testdata")

// argTree draws an ARG: covered, merged and target states in their
// colours.
type argTree struct{ *cpa.ARG }

func (t argTree) Kind(n int) pixeltree.Kind {
	node := t.Nodes[n]
	switch {
	case node.IsTarget():
		return pixeltree.Target
	case node.Covered():
		return pixeltree.Covered
	case node.Merged():
		return pixeltree.Merged
	}
	return pixeltree.Ordinary
}

// TestRunningExamplePixelTrees draws the pixel trees of seed 000's
// figure 24 for the running example (engine/testdata/verdicts/
// cegar_running.c): plain symbolic execution (24a) and symbolic
// execution with slicing (24b), whose ARGs are infinite, cut at depth 30
// of a run stopped at 300 states, and symbolic execution with slicing and
// CEGAR (24c), the finite ARG of its last run. They are compared with the
// PNG files in testdata (go test -update rewrites them), and the shape
// is checked: 24c is complete and small, the others are cut.
func TestRunningExamplePixelTrees(t *testing.T) {
	prog, err := frontend.Translate(frontend.Options{}, "../../engine/testdata/verdicts/cegar_running.c")
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	for _, tt := range []struct {
		config  string
		depth   int
		cut     bool
		verdict results.Verdict
	}{
		{"symex", 30, true, results.Unknown},
		{"symex-slicing", 30, true, results.Unknown},
		{"symex-slicing-cegar", 0, false, results.True},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		rs, err := engine.Verify(ctx, prog, props, engine.Config{Name: tt.config, MaxStates: 300, KeepARG: true, Solver: z3.Factory})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		r := rs[0]
		if r.Verdict != tt.verdict || r.ARG == nil {
			t.Fatalf("%s: %s (%s), ARG %v", tt.config, r.Verdict, r.Reason, r.ARG != nil)
		}
		pic := pixeltree.Layout(argTree{r.ARG}, pixeltree.Options{Root: r.ARG.Root().ID, MaxDepth: tt.depth, Unit: 6})
		if pic.Cut != tt.cut {
			t.Errorf("%s: cut %v, want %v", tt.config, pic.Cut, tt.cut)
		}
		t.Logf("%s: %d states drawn in %d rows, widest row %d, %d covered, %d targets", tt.config, pic.States, len(pic.Rows), pic.Width, pic.Count(pixeltree.Covered), pic.Count(pixeltree.Target))
		var buf bytes.Buffer
		if err := pic.PNG(&buf); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "running_"+tt.config+".png")
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: pixel tree differs from %s (go test -update rewrites it)", tt.config, golden)
		}
	}
}
