package engine

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// TestSharedRunFreesItsARG: the properties the shared multi-property
// run leaves open keep its outcome for their per-property runs, but not
// its ARG, which they all share: held until the last of them is
// decided, the run's reached states would count against each one's
// memory limit in turn (the memory watch measures the process). With
// KeepShape they keep the ARG's shape for the picture.
// (testdata/mpv/starve.c: the shared value run cannot finish.)
func TestSharedRunFreesItsARG(t *testing.T) {
	prog, err := frontend.Translate(frontend.Options{}, "testdata/mpv/starve.c")
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	cfg := Config{Timeout: 2 * time.Second, Solver: z3.Factory, Workers: 1, KeepARG: true, KeepShape: true}.withDefaults()
	cfg.sdgs, cfg.checks, cfg.features = &sdgCache{}, cexcheck.NewCheckCache(prog), &featureCache{}
	after := make([]*afterMulti, len(props))
	idx := make([]int, len(props))
	for i := range idx {
		idx[i] = i
	}
	sharedStep(prog, props, cfg, configs["default"], after).Run(context.Background(), idx, func(i int, r *Result) {
		t.Errorf("%s: the shared run decided %s (%s), want it open", props[i].ID, r.Verdict, r.Reason)
	})
	for i, a := range after {
		switch {
		case a == nil:
			t.Errorf("%s: nothing left to do after the shared run", props[i].ID)
		case a.shared.ARG != nil:
			t.Errorf("%s: the shared run's outcome holds its ARG (%d nodes)", props[i].ID, a.shared.ARG.Len())
		case a.shared.Shape == nil || a.shared.Shape.Len() == 0:
			t.Errorf("%s: the shared run's outcome has no shape", props[i].ID)
		}
	}
}
