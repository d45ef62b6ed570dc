package pixeltree

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"strconv"
	"testing"
)

func decodePNG(t *testing.T, p *Picture) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := p.PNG(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func rgba(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }

func checkPixels(t *testing.T, img image.Image, want map[image.Point]color.RGBA) {
	t.Helper()
	for pt, c := range want {
		if got := rgba(img.At(pt.X, pt.Y)); got != c {
			t.Errorf("pixel %v = %v, want %v", pt, got, c)
		}
	}
}

func TestPNG(t *testing.T) {
	black, red, green, bg := Ordinary.Color(), Target.Color(), Covered.Color(), BackgroundColor()
	// Rows 1, 2, 4 (offsets 1, 1, 0), 2×2 pixels per state.
	p := Layout(binary(3, map[int]Kind{5: Target, 6: Covered}), Options{})
	img := decodePNG(t, p)
	if b := img.Bounds(); b != image.Rect(0, 0, 8, 6) {
		t.Fatalf("bounds %v, want 8x6", b)
	}
	checkPixels(t, img, map[image.Point]color.RGBA{
		{0, 0}: bg, {1, 1}: bg, {2, 0}: black, {3, 1}: black, {4, 0}: bg, // root
		{2, 2}: black, {5, 3}: black, {6, 2}: bg, // depth 1
		{0, 4}: black, {3, 5}: black, {4, 4}: red, {5, 5}: red, {6, 4}: green, {7, 5}: green,
	})

	// Unit 5 and a cut: one more cell row with a dotted grey line.
	p = Layout(binary(4, map[int]Kind{3: Target}), Options{Unit: 5, MaxDepth: 2})
	img = decodePNG(t, p)
	if b := img.Bounds(); b != image.Rect(0, 0, 20, 20) {
		t.Fatalf("bounds %v, want 20x20", b)
	}
	checkPixels(t, img, map[image.Point]color.RGBA{
		{7, 2}: black, {0, 10}: red, {4, 14}: red, {5, 10}: black,
		{0, 15}: bg, {0, 16}: cutColor, {4, 17}: cutColor, {5, 16}: bg, {10, 16}: cutColor, {0, 19}: bg,
	})
}

// A row of 10,000 states in 160 pixels (80 columns of 2 pixels) keeps
// its target.
func TestPNGScaled(t *testing.T) {
	p := Layout(fan(10000, map[int]Kind{7777: Target}), Options{MaxWidth: 160})
	img := decodePNG(t, p)
	if b := img.Bounds(); b != image.Rect(0, 0, 160, 4) {
		t.Fatalf("bounds %v", b)
	}
	col := 7776 * 80 / 10000
	checkPixels(t, img, map[image.Point]color.RGBA{
		{2 * col, 2}: Target.Color(), {2*col - 1, 3}: Ordinary.Color(), {0, 2}: Ordinary.Color(), {159, 3}: Ordinary.Color(),
		{2 * 39, 0}: Ordinary.Color(), {2 * 40, 0}: BackgroundColor(),
	})
	// No cap: one column per state.
	p.Options.MaxWidth = -1
	p.Options.Unit = 1
	if b := decodePNG(t, p).Bounds(); b != image.Rect(0, 0, 10000, 2) {
		t.Errorf("uncapped bounds %v", b)
	}
}

func TestPNGEmpty(t *testing.T) {
	img := decodePNG(t, Layout(FromFunc(0, nil, nil), Options{}))
	if b := img.Bounds(); b != image.Rect(0, 0, 2, 2) {
		t.Errorf("bounds %v", b)
	}
}

// svgStats decodes an SVG with encoding/xml and returns the <svg> width
// and height, the number of <rect> elements, and the fills of the <g>s.
func svgStats(t *testing.T, p *Picture) (w, h, rects int, fills []string, size int) {
	t.Helper()
	var buf bytes.Buffer
	if err := p.SVG(&buf); err != nil {
		t.Fatal(err)
	}
	size = buf.Len()
	d := xml.NewDecoder(&buf)
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "svg":
				if el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("namespace %q", el.Name.Space)
				}
				w, _ = strconv.Atoi(attr["width"])
				h, _ = strconv.Atoi(attr["height"])
			case "rect":
				rects++
			case "g":
				fills = append(fills, attr["fill"])
			}
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 {
		t.Errorf("unbalanced elements")
	}
	return
}

func TestSVG(t *testing.T) {
	// Background + row 0 (1 run) + row 1 (1 run) + row 2 (O O | T | C).
	p := Layout(binary(3, map[int]Kind{5: Target, 6: Covered}), Options{})
	w, h, rects, fills, _ := svgStats(t, p)
	if w != 8 || h != 6 || rects != 6 {
		t.Errorf("%dx%d with %d rects, want 8x6 with 6", w, h, rects)
	}
	if want := []string{hex(Ordinary.Color()), hex(Covered.Color()), hex(Target.Color())}; len(fills) != 3 ||
		fills[0] != want[0] || fills[1] != want[1] || fills[2] != want[2] {
		t.Errorf("fills %v, want %v", fills, want)
	}

	// A full binary tree: one run per row.
	w, h, rects, _, _ = svgStats(t, Layout(binary(6, nil), Options{Unit: 3, MaxDepth: 3}))
	if w != 24 || h != 15 || rects != 1+4 {
		t.Errorf("%dx%d with %d rects, want 24x15 with 5", w, h, rects)
	}
}

// The SVG of a million-state ARG stays small: at most one rect per cell.
func TestSVGLarge(t *testing.T) {
	p := Layout(bigARG(), Options{})
	w, h, rects, _, size := svgStats(t, p)
	if w > DefaultMaxWidth || h > DefaultMaxHeight {
		t.Errorf("%dx%d exceeds the default caps", w, h)
	}
	g, u := p.raster()
	if rects > 1+g.rows*g.cols || u != DefaultUnit {
		t.Errorf("%d rects for %d cells", rects, g.rows*g.cols)
	}
	t.Logf("SVG of %d states: %dx%d px, %d rects, %d bytes", p.States, w, h, rects, size)
}
