package artifacts

import (
	"bytes"
	"os"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/report/pixeltree"
)

// shapeTree adapts an ARG's shape to a pixel tree: covered, merged and
// target states in their colours, the counterexample path highlighted.
type shapeTree struct {
	*cpa.Shape
	highlight map[int]bool
}

func (t shapeTree) Kind(n int) pixeltree.Kind {
	switch {
	case t.Shape.Kind(n) == cpa.ShapeTarget:
		return pixeltree.Target
	case t.highlight[n]:
		return pixeltree.Highlighted
	case t.Shape.Kind(n) == cpa.ShapeCovered:
		return pixeltree.Covered
	case t.Shape.Kind(n) == cpa.ShapeMerged:
		return pixeltree.Merged
	}
	return pixeltree.Ordinary
}

// PixelTree lays out the pixel tree of r's exploration from its root
// (pixeltree.Layout; seed 000, section 3.5): r.Shape (engine.Config.KeepShape)
// or else the shape of r.ARG (engine.Config.KeepARG); one of them must
// be non-nil and non-empty. Covered, merged and target states are in
// their colours and, when cex is not empty, the path to the target whose
// error path takes the steps of cex is highlighted (r.ShapePath with a
// kept shape). The ARG of a multi-property run is shared by its
// properties and holds the targets of several.
func PixelTree(r *engine.Result, cex []cfa.Step) *pixeltree.Picture {
	shape, path := r.Shape, r.ShapePath
	if shape == nil {
		shape, path = cpa.ShapeOf(r.ARG), cpa.TargetPath(r.ARG, cex)
	}
	t := shapeTree{Shape: shape, highlight: map[int]bool{}}
	if len(cex) > 0 {
		for _, id := range path {
			t.highlight[id] = true
		}
	}
	return pixeltree.Layout(t, pixeltree.Options{Root: 0})
}

// writePixelTree writes base.png, base.svg, base.mosaic.txt and base.txt
// for r's ARG (PixelTree with cex); an empty ARG writes nothing.
func writePixelTree(base string, r *engine.Result, cex []cfa.Step) error {
	if r.Shape == nil && r.ARG.Len() == 0 || r.Shape != nil && r.Shape.Len() == 0 {
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
