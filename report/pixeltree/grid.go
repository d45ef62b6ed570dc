package pixeltree

// grid is a picture sampled onto rows×cols cells, the common first step of
// every renderer. A cell is 0 (background) or 1+rank of the most
// important kind among the states that fall into it.
type grid struct {
	rows, cols int
	cells      []uint8
	width      int // widest row of the picture, in states
	levels     int // rows of the picture
	states     int // states drawn
}

// cell returns the value of cell (r, c).
func (g *grid) cell(r, c int) uint8 { return g.cells[r*g.cols+c] }

// kindOf returns the kind of a non-background cell value.
func kindOf(v uint8) Kind { return byRank[v-1] }

// sample maps the picture onto at most maxCols columns and maxRows rows
// (non-positive: no limit; at least one of each when the picture is not
// empty). Every row is centred on the widest one: a row of length L
// starts at state position (W-L)/2, and position x in [0,W) falls into
// column x*cols/W; row d falls into grid row d*rows/levels. O(cells +
// states).
func (p *Picture) sample(maxCols, maxRows int) grid {
	g := grid{levels: len(p.Rows)}
	for _, row := range p.Rows {
		g.width = max(g.width, len(row))
		g.states += len(row)
	}
	W, R := g.width, g.levels
	if W == 0 {
		return g
	}
	g.cols, g.rows = W, R
	if maxCols > 0 && g.cols > maxCols {
		g.cols = maxCols
	}
	if maxRows > 0 && g.rows > maxRows {
		g.rows = maxRows
	}
	C := g.cols
	g.cells = make([]uint8, g.rows*C)
	for d, row := range p.Rows {
		if len(row) == 0 {
			continue
		}
		gr := d
		if g.rows != R {
			gr = d * g.rows / R
		}
		line := g.cells[gr*C : (gr+1)*C]
		x := (W - len(row)) / 2
		if C == W {
			line = line[x : x+len(row)]
			for i, k := range row {
				if v := rank[k] + 1; v > line[i] {
					line[i] = v
				}
			}
			continue
		}
		// Scaled: walk the states, advancing the column whenever x
		// reaches the first position of the next one, ceil((c+1)*W/C).
		c := x * C / W
		next := ((c+1)*W + C - 1) / C
		best := line[c]
		for _, k := range row {
			if x == next {
				line[c] = best
				c++
				next = ((c+1)*W + C - 1) / C
				best = line[c]
			}
			if v := rank[k] + 1; v > best {
				best = v
			}
			x++
		}
		line[c] = best
	}
	return g
}
