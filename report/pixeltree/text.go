package pixeltree

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Defaults of the text rendering.
const (
	DefaultTextWidth = 80 // columns
	DefaultTextLines = 40 // lines of tree (80 levels)
)

// glyph is the text symbol of each kind. Ordinary states use the half
// blocks ▀ ▄ █ instead, so that one line shows two levels. Only block
// elements and ASCII are used: they exist in the monospace fonts GitHub
// uses (SFMono, Consolas, Menlo, Liberation Mono, DejaVu Sans Mono) and
// keep their width, unlike dingbats such as ✖ that fall back to other
// fonts and break the alignment.
var glyph = [numKinds]string{
	Ordinary:    "█",
	Covered:     "░",
	Target:      "X",
	Merged:      "▒",
	Highlighted: "*",
	Unexpanded:  "?",
}

var legendName = [numKinds]string{
	Ordinary:    "state",
	Covered:     "covered",
	Target:      "target",
	Merged:      "merged",
	Highlighted: "path",
	Unexpanded:  "unexpanded",
}

// Text renders p as plain Unicode text for a Markdown code block, at most
// width columns wide (width ≤ 0 means DefaultTextWidth) and at most
// DefaultTextLines lines of tree; see [Picture.TextLines].
func (p *Picture) Text(width int) string {
	return p.TextLines(width, DefaultTextLines)
}

// TextLines renders p as text with at most maxLines lines of tree
// (maxLines ≤ 0 means DefaultTextLines) and no line wider than width
// columns (width ≤ 0 means DefaultTextWidth; a single legend entry is
// never broken). Colours cannot be shown in Markdown, so kinds get glyphs:
//
//	█ ▀ ▄  ordinary states (full block: both levels of the line)
//	░      covered        ▒  merged
//	X      target         *  highlighted path
//	?      unexpanded (waitlist)
//
// Each character covers two consecutive levels (upper and lower half);
// rows are centred as in the images. A picture wider than width columns
// or deeper than 2·maxLines levels is scaled down, and every character
// then shows the most important kind among the states it covers
// (Target > Highlighted > Covered > Merged > Unexpanded > Ordinary); a
// character whose two halves differ shows the more important glyph.
// Trailing spaces are trimmed. After the tree come a legend line listing
// the glyphs that occur and a summary line (states, levels, cut, scale),
// both wrapped to width, each line ending in a newline.
func (p *Picture) TextLines(width, maxLines int) string {
	if width <= 0 {
		width = DefaultTextWidth
	}
	if maxLines <= 0 {
		maxLines = DefaultTextLines
	}
	g := p.sample(width, 2*maxLines)
	var sb strings.Builder
	var seen [numKinds]bool
	for r := 0; r < g.rows; r += 2 {
		line := make([]string, g.cols)
		last := -1
		for c := range g.cols {
			top := g.cell(r, c)
			var bot uint8
			if r+1 < g.rows {
				bot = g.cell(r+1, c)
			}
			v := max(top, bot)
			switch {
			case v == 0:
				line[c] = " "
				continue
			case v > 1: // a special kind
				k := kindOf(v)
				seen[k] = true
				line[c] = glyph[k]
			case top == 0:
				line[c] = "▄"
			case bot == 0:
				line[c] = "▀"
			default:
				line[c] = "█"
			}
			last = c
		}
		sb.WriteString(strings.Join(line[:last+1], ""))
		sb.WriteByte('\n')
	}
	legend := []string{glyph[Ordinary] + " " + legendName[Ordinary]}
	for k := Kind(1); k < numKinds; k++ {
		if seen[k] {
			legend = append(legend, glyph[k]+" "+legendName[k])
		}
	}
	wrap(&sb, legend, "  ", width)
	// Summary parts stay whole unless one alone is wider than width.
	var words []string
	parts := p.summary(&g, "column", "half line")
	for i, s := range parts {
		if i < len(parts)-1 {
			s += ","
		}
		if utf8.RuneCountInString(s) <= width {
			words = append(words, s)
		} else {
			words = append(words, strings.Fields(s)...)
		}
	}
	wrap(&sb, words, " ", width)
	return sb.String()
}

// summary describes the sampled picture: size, cut and scale factors,
// naming the sampling units col and row.
func (p *Picture) summary(g *grid, col, row string) []string {
	parts := []string{plural(g.states, "state"), plural(g.levels, "level")}
	if p.Cut {
		parts = append(parts, fmt.Sprintf("cut after depth %d", max(g.levels-1, 0)))
	}
	if g.cols < g.width {
		parts = append(parts, fmt.Sprintf("1 %s ≈ %s states", col, ratio(g.width, g.cols)))
	}
	if g.rows < g.levels {
		parts = append(parts, fmt.Sprintf("1 %s ≈ %s levels", row, ratio(g.levels, g.rows)))
	}
	return parts
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// ratio formats a/b with one decimal below 10 and none above.
func ratio(a, b int) string {
	f := float64(a) / float64(b)
	if f >= 10 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0")
}

func joinParts(parts []string) string { return strings.Join(parts, ", ") }

// wrap writes parts separated by sep (blanks only), starting a new line
// instead whenever the line would exceed width runes.
func wrap(sb *strings.Builder, parts []string, sep string, width int) {
	n := 0
	for i, s := range parts {
		l := utf8.RuneCountInString(s)
		if i > 0 {
			if n+len(sep)+l > width {
				sb.WriteByte('\n')
				n = 0
			} else {
				sb.WriteString(sep)
				n += len(sep)
			}
		}
		sb.WriteString(s)
		n += l
	}
	sb.WriteByte('\n')
}
