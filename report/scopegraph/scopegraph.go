package scopegraph

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/reverify/reverify/results"
)

// Geometry of the SVG, in pixels.
const (
	unit    = 8  // one radius unit
	step    = 56 // distance between two functions on the axis
	margin  = 24 // left and right margin
	titleH  = 22 // height of a row's label line
	maxArcH = 54 // arcs stay below the label
	fontPx  = 11
	charW   = 6.5 // estimated width of a character at fontPx (bold)
)

// Heat returns the fill colour of importance imp ∈ [0, 1] as "#rrggbb":
// white for 0, then from light yellow (ff ff 99) over orange to red
// (d7 19 1c) at 1 (the seed's Figure 3).
func Heat(imp float64) string {
	if imp <= 0 {
		return "#ffffff"
	}
	imp = math.Min(imp, 1)
	type rgb struct{ r, g, b float64 }
	stops := []rgb{{0xff, 0xff, 0x99}, {0xfd, 0xae, 0x61}, {0xd7, 0x19, 0x1c}}
	x := imp * float64(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float64(i)
	a, b := stops[i], stops[i+1]
	mix := func(p, q float64) int { return int(math.Round(p + (q-p)*f)) }
	return fmt.Sprintf("#%02x%02x%02x", mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b))
}

// radius returns r_n in units: 1 + 0.5·log10(ncall), 0 when never called.
func radius(ncall int) float64 {
	if ncall <= 0 {
		return 0
	}
	return 1 + 0.5*math.Log10(float64(ncall))
}

// Scopes is a list of scopes to draw together.
type Scopes []*results.Scope

// SVG writes the arc diagram of the scopes (one row each; they should be
// of one program, and the function axis is the first scope's
// CallGraph.Program). Scopes without a call graph are skipped. The first
// write error is returned.
func SVG(w io.Writer, scopes ...*results.Scope) error {
	var rows []*results.Scope
	for _, s := range scopes {
		if s != nil && s.Graph != nil {
			rows = append(rows, s)
		}
	}
	var axis []string
	if len(rows) > 0 {
		axis = rows[0].Graph.Program
	}
	pos := map[string]int{}
	for i, n := range axis {
		pos[n] = i
	}
	// Names are rotated by 40°: they need about 0.64·length below the
	// axis and 0.77·length to the right.
	longest, title := 0, 0
	for _, n := range axis {
		longest = max(longest, len(n))
	}
	for _, s := range rows {
		title = max(title, len(s.Graph.Property)+2+len(summary(s)))
	}
	namesH := 2*unit + 12 + int(0.64*charW*float64(longest))
	rowH := titleH + maxArcH + 4 + namesH
	W := max(2*margin+max(len(axis)-1, 0)*step+int(0.77*charW*float64(longest)), 2*margin+int(charW*float64(title)))
	H := max(len(rows), 1) * rowH
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="%d">`+"\n", W, H, W, H, fontPx)
	fmt.Fprintf(bw, "<title>property scope arc diagram: %d properties, %d functions</title>\n", len(rows), len(axis))
	fmt.Fprintf(bw, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H)
	for ri, s := range rows {
		g := s.Graph
		y0 := ri * rowH
		axisY := y0 + rowH - namesH
		x := func(name string) int { return margin + pos[name]*step }
		fmt.Fprintf(bw, "<g id=\"row%d\">\n", ri)
		fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n", margin, y0+15,
			html.EscapeString(fmt.Sprintf("%s: %s", g.Property, summary(s))))
		fmt.Fprintf(bw, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#bbbbbb\"/>\n", margin, axisY, margin+max(len(axis)-1, 0)*step, axisY)
		// Arcs: the longest first, so short ones stay visible on top.
		calls := slices.Clone(g.Calls)
		span := func(c results.ScopeCall) int {
			d := pos[g.Funcs[c.From].Name] - pos[g.Funcs[c.To].Name]
			return max(d, -d)
		}
		sort.SliceStable(calls, func(i, j int) bool { return span(calls[i]) > span(calls[j]) })
		for _, c := range calls {
			a, b := g.Funcs[c.From].Name, g.Funcs[c.To].Name
			if a == b {
				continue // recursion: no arc on the line
			}
			x1, x2 := x(a), x(b)
			if x1 > x2 {
				x1, x2 = x2, x1
			}
			rx := float64(x2-x1) / 2
			ry := math.Min(rx, float64(maxArcH))
			fmt.Fprintf(bw, "<path d=\"M %d %d A %.1f %.1f 0 0 1 %d %d\" fill=\"none\" stroke=\"#5577aa\" stroke-opacity=\"0.7\"/>\n", x1, axisY, rx, ry, x2, axisY)
		}
		byName := map[string]results.ScopeFunc{}
		for _, f := range g.Funcs {
			byName[f.Name] = f
		}
		for _, n := range axis {
			f, ok := byName[n]
			cx := x(n)
			if ok && f.Calls > 0 {
				r := radius(f.Calls) * unit
				stroke := "#888888"
				if f.InScope > 0 {
					stroke = "#000000"
				}
				fmt.Fprintf(bw, "<circle cx=\"%d\" cy=\"%d\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\"><title>%s: importance %.2f (%d of %d states in scope), %d calls, %d of %d locations in scope</title></circle>\n",
					cx, axisY, r, Heat(f.Importance()), stroke, html.EscapeString(n), f.Importance(), f.InScope, f.States, f.Calls, f.LocationsInScope, f.Total)
			}
			weight := ""
			if ok && f.InScope > 0 {
				weight = ` font-weight="bold"`
			}
			fill := "#000000"
			if !ok {
				fill = "#999999" // never entered
			}
			fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\" transform=\"rotate(40 %d %d)\" fill=\"%s\"%s>%s</text>\n",
				cx, axisY+2*unit+4, cx, axisY+2*unit+4, fill, weight, html.EscapeString(n))
		}
		fmt.Fprintf(bw, "</g>\n")
	}
	fmt.Fprintf(bw, "</svg>\n")
	return bw.Flush()
}

func summary(s *results.Scope) string {
	p := ""
	if s.Partial {
		p = ", partial"
	}
	return fmt.Sprintf("%d of %d functions, %d of %d locations (%.1f%%)%s",
		len(s.Functions), s.FunctionsTotal, s.Locations, s.LocationsTotal, 100*s.Share, p)
}

// Text writes the scope as a fixed-width table, one line per function of
// the program in order of definition:
//
//	scope of main:len<=64: 2 of 5 functions, 5 of 25 locations (20.0%)
//	  in  function      importance  states  calls  locations  calls to
//	      parse_header  0.00           0/2      1        0/2
//	  *   main          0.35          7/20      1       4/14  parse_header, clamp_len, log_msg, checksum
//
// "*" marks functions in scope, "-" functions the analysis never entered.
func Text(w io.Writer, s *results.Scope) error {
	if s == nil || s.Graph == nil {
		return nil
	}
	g := s.Graph
	byName := map[string]int{}
	width := len("function")
	for i, f := range g.Funcs {
		byName[f.Name] = i
	}
	for _, n := range g.Program {
		width = max(width, len(n))
	}
	callees := make([][]string, len(g.Funcs))
	for _, c := range g.Calls {
		callees[c.From] = append(callees[c.From], g.Funcs[c.To].Name)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "scope of %s: %s\n", g.Property, summary(s))
	fmt.Fprintf(bw, "  in  %-*s  importance  states  calls  locations  calls to\n", width, "function")
	for _, n := range g.Program {
		i, ok := byName[n]
		if !ok {
			fmt.Fprintf(bw, "  -   %s\n", n)
			continue
		}
		f := g.Funcs[i]
		mark := " "
		if f.InScope > 0 {
			mark = "*"
		}
		line := fmt.Sprintf("  %s   %-*s  %-10.2f  %6s  %5d  %9s  %s", mark, width, n, f.Importance(),
			fmt.Sprintf("%d/%d", f.InScope, f.States), f.Calls, fmt.Sprintf("%d/%d", f.LocationsInScope, f.Total), strings.Join(callees[i], ", "))
		fmt.Fprintln(bw, strings.TrimRight(line, " "))
	}
	return bw.Flush()
}
