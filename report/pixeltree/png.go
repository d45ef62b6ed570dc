package pixeltree

import (
	"image"
	"image/color"
	"image/png"
	"io"
)

// Colours of the PNG and SVG renderings.
var (
	background = color.RGBA{0xf6, 0xf8, 0xfa, 0xff} // light grey-white
	cutColor   = color.RGBA{0x8c, 0x95, 0x9f, 0xff} // grey dotted line under a cut picture
	kindColor  = [numKinds]color.RGBA{
		Ordinary:    {0x00, 0x00, 0x00, 0xff}, // black
		Covered:     {0x1a, 0xa2, 0x3a, 0xff}, // green
		Target:      {0xe0, 0x10, 0x10, 0xff}, // red
		Merged:      {0xf0, 0xc0, 0x00, 0xff}, // yellow
		Highlighted: {0x09, 0x69, 0xda, 0xff}, // blue
		Unexpanded:  {0xf0, 0x78, 0x00, 0xff}, // orange
	}
)

// Color returns the colour k is drawn in: black (Ordinary), green
// (Covered), red (Target), yellow (Merged), blue (Highlighted) or orange
// (Unexpanded); undefined values are drawn as Ordinary.
func (k Kind) Color() color.RGBA {
	if int(k) >= numKinds {
		k = Ordinary
	}
	return kindColor[k]
}

// BackgroundColor is the light colour behind the states.
func BackgroundColor() color.RGBA { return background }

// Palette indices of the PNG: 0 background, 1+rank per kind, then the cut
// marker. Cell values of a grid are palette indices as they are.
const cutIndex = numKinds + 1

func palette() color.Palette {
	p := make(color.Palette, numKinds+2)
	p[0] = background
	for r, k := range byRank {
		p[r+1] = kindColor[k]
	}
	p[cutIndex] = cutColor
	return p
}

// raster samples p for the image renderings: cells of Unit×Unit pixels,
// within MaxWidth×MaxHeight pixels (a cut picture reserves one cell row
// for the marker).
func (p *Picture) raster() (g grid, unit int) {
	o := p.Options.normalized()
	unit = o.Unit
	maxCols, maxRows := -1, -1
	if o.MaxWidth > 0 {
		maxCols = max(1, o.MaxWidth/unit)
	}
	if o.MaxHeight > 0 {
		h := o.MaxHeight / unit
		if p.Cut {
			h--
		}
		maxRows = max(1, h)
	}
	return p.sample(maxCols, maxRows), unit
}

// Image renders p as a paletted image: one Unit×Unit square per state
// (or per group of states when scaled to MaxWidth×MaxHeight, showing the
// most important kind), rows centred, on the light [BackgroundColor]. A cut
// picture gets one more cell row holding a dotted grey line. An empty
// picture is a single background cell.
func (p *Picture) Image() *image.Paletted {
	g, u := p.raster()
	cols, rows := max(g.cols, 1), g.rows
	h := rows
	if p.Cut || rows == 0 {
		h++
	}
	img := image.NewPaletted(image.Rect(0, 0, cols*u, h*u), palette())
	stride := img.Stride
	for r := range rows {
		line := g.cells[r*g.cols : (r+1)*g.cols]
		px := img.Pix[r*u*stride : r*u*stride+cols*u]
		for c, v := range line {
			if v != 0 {
				for i := range u {
					px[c*u+i] = v
				}
			}
		}
		for i := 1; i < u; i++ {
			copy(img.Pix[(r*u+i)*stride:], px)
		}
	}
	if p.Cut {
		// Dotted line in the middle of the last cell row: every other
		// cell, one pixel (or u/2 pixels) thick.
		y0 := rows*u + u/4
		for y := y0; y < y0+max(1, u/2); y++ {
			px := img.Pix[y*stride : y*stride+cols*u]
			for c := 0; c < cols; c += 2 {
				for i := range u {
					px[c*u+i] = cutIndex
				}
			}
		}
	}
	return img
}

// PNG writes p as a PNG image (see [Picture.Image]); with 8 palette
// colours it is stored with 4 bits per pixel.
func (p *Picture) PNG(w io.Writer) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, p.Image())
}
