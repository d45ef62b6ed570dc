package pixeltree

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"strconv"
)

// SVG writes p as an SVG image with the same geometry and colours as
// [Picture.Image]. States are run-length encoded: one <rect> per maximal
// run of equal-kind cells in a row, grouped by kind in one <g fill=…> each,
// after a background <rect> covering the whole image, so even the SVG of
// a huge ARG stays small (at most one rect per cell of the capped
// picture). A <title> summarises the picture; a cut picture ends with a
// dashed grey <line>. The first write error is returned.
func (p *Picture) SVG(w io.Writer) error {
	g, u := p.raster()
	cols := max(g.cols, 1)
	h := g.rows
	if p.Cut || g.rows == 0 {
		h++
	}
	W, H := cols*u, h*u

	// Runs per rank, in row-major order.
	var runs [numKinds + 1][]byte
	for r := range g.rows {
		line := g.cells[r*g.cols : (r+1)*g.cols]
		for c := 0; c < len(line); {
			v := line[c]
			e := c + 1
			for e < len(line) && line[e] == v {
				e++
			}
			if v != 0 {
				b := append(runs[v], `<rect x="`...)
				b = strconv.AppendInt(b, int64(c*u), 10)
				b = append(b, `" y="`...)
				b = strconv.AppendInt(b, int64(r*u), 10)
				b = append(b, `" width="`...)
				b = strconv.AppendInt(b, int64((e-c)*u), 10)
				b = append(b, `" height="`...)
				b = strconv.AppendInt(b, int64(u), 10)
				runs[v] = append(b, "\"/>\n"...)
			}
			c = e
		}
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges">`+"\n", W, H, W, H)
	fmt.Fprintf(bw, "<title>pixel tree: %s</title>\n", joinParts(p.summary(&g, "pixel column", "pixel row")))
	fmt.Fprintf(bw, "<rect width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", W, H, hex(background))
	for v := 1; v <= numKinds; v++ {
		if len(runs[v]) == 0 {
			continue
		}
		k := kindOf(uint8(v))
		fmt.Fprintf(bw, "<g class=\"%s\" fill=\"%s\">\n", k, hex(k.Color()))
		bw.Write(runs[v])
		bw.WriteString("</g>\n")
	}
	if p.Cut {
		y := g.rows*u + u/2
		fmt.Fprintf(bw, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%d\" stroke-dasharray=\"%d\"/>\n",
			y, W, y, hex(cutColor), max(1, u/2), u)
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
