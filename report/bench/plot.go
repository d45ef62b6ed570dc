package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// QuantilePoints returns, for config, the CPU times of its correct
// results sorted ascending: point n (1-based x) is the CPU time needed
// for the n-th fastest correct result.
func QuantilePoints(rows []Row, config string) plotter.XYs {
	var cpu []float64
	for _, r := range rows {
		if r.Config == config && r.Status == Correct {
			cpu = append(cpu, r.CPU)
		}
	}
	sort.Float64s(cpu)
	pts := make(plotter.XYs, len(cpu))
	for i, c := range cpu {
		pts[i] = plotter.XY{X: float64(i + 1), Y: math.Max(c, minCPU)}
	}
	return pts
}

// minCPU is the floor of the log-scale axis (seconds).
const minCPU = 0.01

// palette: distinguishable colours (Okabe–Ito).
var palette = []color.RGBA{
	{0, 114, 178, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
	{230, 159, 0, 255}, {86, 180, 233, 255}, {0, 0, 0, 255}, {240, 228, 66, 255},
}

// WritePlot writes the quantile plot as PNG (seed 000, Figure 25): x is
// the n-th fastest correct result, y its CPU time in seconds on a log
// scale, one line per configuration or peer (those without a correct
// result are left out of the legend with "(none)").
func WritePlot(w io.Writer, rows []Row, configs []string, title string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "n-th fastest correct result"
	p.Y.Label.Text = "CPU time (s)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	maxY, n := minCPU*10, 0
	for i, c := range configs {
		pts := QuantilePoints(rows, c)
		if len(pts) == 0 {
			p.Legend.Add(c + " (none)")
			continue
		}
		n = max(n, len(pts))
		maxY = math.Max(maxY, pts[len(pts)-1].Y)
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("quantile plot: %v", err)
		}
		col := palette[i%len(palette)]
		l.Color, l.Width = col, vg.Points(1.5)
		if i >= len(palette) {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		s.Color, s.Shape, s.Radius = col, draw.CircleGlyph{}, vg.Points(1.5)
		p.Add(l, s)
		p.Legend.Add(c, l, s)
	}
	p.X.Min, p.X.Max = 0, float64(max(n, 1))+0.5
	p.Y.Min, p.Y.Max = minCPU, maxY*1.5
	c := vgimg.New(18*vg.Centimeter, 11*vg.Centimeter)
	p.Draw(draw.New(c))
	_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}
