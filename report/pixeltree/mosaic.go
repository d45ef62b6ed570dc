package pixeltree

import (
	"fmt"
	"strings"
)

// Defaults of the mosaic rendering: two pictures of at most 16 squares a
// line fit side by side in GitHub's comment column (about 780 px), and 24
// lines keep a picture on one screen.
const (
	DefaultMosaicCols  = 16
	DefaultMosaicLines = 24
)

// square is the coloured emoji of each kind, in the colours of the seed
// (section 3.5: covered green, target red, merged yellow) and of
// CPAchecker's exporter (path blue, unexpanded orange).
var square = [numKinds]string{
	Ordinary:    "⬛",
	Covered:     "🟩",
	Target:      "🟥",
	Merged:      "🟨",
	Highlighted: "🟦",
	Unexpanded:  "🟧",
}

// emptySquare fills the background around the centred rows.
const emptySquare = "⬜"

// Mosaic renders p as lines of coloured emoji squares, a form GitHub
// shows inline in comments (Markdown cannot colour text), followed by a
// legend and a summary line:
//
//	⬜⬜⬛⬜⬜
//	⬜⬛🟦⬛⬜
//	🟩⬛🟦🟨⬛
//	⬜⬜🟥⬜⬜
//	🟦 error path · ⬛ state · 🟩 covered · 🟨 merged · 🟥 target
//	25 states, 8 levels, 1 square ≈ 2 levels
//
// The scale follows the tree's size: one square per state and level when
// the tree fits maxCols × maxLines (≤ 0: DefaultMosaicCols,
// DefaultMosaicLines), otherwise columns and lines are scaled down
// independently (a narrow deep ARG stays as wide as it is rather than
// shrinking to a hairline) and each square shows the most important kind
// among the states it covers, Target > Highlighted > Covered > Merged >
// Unexpanded > Ordinary, so an error path stays visible. Each line is a
// separate line of text (the caller joins them with hard breaks); the
// legend lists only the kinds that occur. An empty picture gives "".
func (p *Picture) Mosaic(maxCols, maxLines int) string {
	if maxCols <= 0 {
		maxCols = DefaultMosaicCols
	}
	if maxLines <= 0 {
		maxLines = DefaultMosaicLines
	}
	g := p.sample(maxCols, maxLines)
	if g.rows == 0 || g.cols == 0 {
		return ""
	}
	var sb strings.Builder
	var seen [numKinds]bool
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.cols; c++ {
			v := g.cell(r, c)
			if v == 0 {
				sb.WriteString(emptySquare)
				continue
			}
			k := kindOf(v)
			seen[k] = true
			sb.WriteString(square[k])
		}
		sb.WriteByte('\n')
	}
	var legend []string
	for _, k := range []Kind{Highlighted, Ordinary, Covered, Merged, Target, Unexpanded} {
		if seen[k] {
			name := legendName[k]
			if k == Highlighted {
				name = "error path"
			}
			legend = append(legend, square[k]+" "+name)
		}
	}
	sb.WriteString(strings.Join(legend, " · ") + "\n")
	sb.WriteString(joinParts(p.summary(&g, "square", "line")) + "\n")
	return sb.String()
}

// Counts is a one-line account of the kinds of drawn states, e.g. "59
// states: 3 covered, 1 target", for comparing two analyses.
func (p *Picture) Counts() string {
	var parts []string
	for _, k := range []Kind{Covered, Merged, Target, Unexpanded} {
		if n := p.Count(k); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, legendName[k]))
		}
	}
	s := plural(p.States, "state")
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}
