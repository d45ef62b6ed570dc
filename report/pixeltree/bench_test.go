package pixeltree

import (
	"io"
	"testing"
)

// The benchmarks draw a random ARG of 1,000,000 states (see randomARG:
// branching 1–3, 2% covered, 1% merged, ten targets, waitlist leaves
// unexpanded; 48 levels, widest row 196,072 states), with default
// options: 4096×96 pixels, so about 96 states per 2-pixel column.

func BenchmarkLayoutPNG(b *testing.B) {
	t := bigARG()
	b.ReportAllocs()
	for b.Loop() {
		if err := Layout(t, Options{}).PNG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLayout(b *testing.B) {
	t := bigARG()
	b.ReportAllocs()
	for b.Loop() {
		Layout(t, Options{})
	}
}

func BenchmarkPNG(b *testing.B) {
	p := Layout(bigARG(), Options{})
	b.ReportAllocs()
	for b.Loop() {
		if err := p.PNG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSVG(b *testing.B) {
	p := Layout(bigARG(), Options{})
	b.ReportAllocs()
	for b.Loop() {
		if err := p.SVG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkText(b *testing.B) {
	p := Layout(bigARG(), Options{})
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Text(80)
	}
}
