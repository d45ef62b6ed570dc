package artifacts

import (
	"bytes"
	"os"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/report/pixeltree"
)

// argTree adapts an ARG to a pixel tree: covered, merged and target
// states in their colours, the counterexample path highlighted.
type argTree struct {
	*cpa.ARG
	highlight map[int]bool
}

func (t argTree) Kind(n int) pixeltree.Kind {
	node := t.Nodes[n]
	switch {
	case node.IsTarget():
		return pixeltree.Target
	case t.highlight[n]:
		return pixeltree.Highlighted
	case node.Covered():
		return pixeltree.Covered
	case node.Merged():
		return pixeltree.Merged
	}
	return pixeltree.Ordinary
}

// PixelTree lays out the pixel tree of r's ARG (r.ARG, kept with
// engine.Config.KeepARG; it must be non-nil and non-empty) from its root
// (pixeltree.Layout; seed 000, section 3.5): covered, merged and target
// states in their colours and, when cex is not empty, the path to the
// target whose error path takes the steps of cex highlighted. The ARG of
// a multi-property run is shared by its properties and holds the targets
// of several.
func PixelTree(r *engine.Result, cex []cfa.Step) *pixeltree.Picture {
	arg := r.ARG
	t := argTree{ARG: arg, highlight: map[int]bool{}}
	if len(cex) > 0 {
		for _, n := range arg.Nodes {
			if n.IsTarget() && sameSteps(n.Path(), cex) {
				for _, p := range n.PathNodes() {
					t.highlight[p.ID] = true
				}
				break
			}
		}
	}
	return pixeltree.Layout(t, pixeltree.Options{Root: arg.Root().ID})
}

// writePixelTree writes base.png, base.svg, base.mosaic.txt and base.txt
// for r's ARG (PixelTree with cex); an empty ARG writes nothing.
func writePixelTree(base string, r *engine.Result, cex []cfa.Step) error {
	if r.ARG.Len() == 0 {
		return nil
	}
	pic := PixelTree(r, cex)
	if err := writeWith(base+".png", func(b *bytes.Buffer) error { return pic.PNG(b) }); err != nil {
		return err
	}
	if err := writeWith(base+".svg", func(b *bytes.Buffer) error { return pic.SVG(b) }); err != nil {
		return err
	}
	if err := os.WriteFile(base+".mosaic.txt", []byte(pic.Mosaic(0, 0)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".txt", []byte(pic.Text(80)), 0o644)
}

// sameSteps reports whether a and b take the same steps.
func sameSteps(a, b []cfa.Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Edge != b[i].Edge || a[i].Kind != b[i].Kind {
			return false
		}
	}
	return true
}
