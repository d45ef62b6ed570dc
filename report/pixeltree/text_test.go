package pixeltree

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     *Picture
		width int
		want  string
	}{
		{"chain", Layout(chain(5), Options{}), 80, "" +
			"█\n" +
			"█\n" +
			"▀\n" +
			"█ state\n" +
			"5 states, 5 levels\n"},
		// Rows 1, 2, 4 centred on 4 columns: offsets 1, 1, 0.
		{"binary", Layout(binary(3, map[int]Kind{5: Target, 6: Covered}), Options{}), 80, "" +
			" █▄\n" +
			"▀▀X░\n" +
			"█ state  ░ covered  X target\n" +
			"7 states, 3 levels\n"},
		{"binary5", Layout(binary(5, nil), Options{}), 80, "" +
			"       █▄\n" +
			"    ▄▄████▄▄\n" +
			"▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀\n" +
			"█ state\n" +
			"31 states, 5 levels\n"},
		// Cut after depth 3; the target at depth 4 is not drawn. Node
		// 9 (covered) shares a character with node 3 above it.
		{"cut", Layout(binary(5, map[int]Kind{20: Target, 9: Covered, 10: Covered, 25: Merged}), Options{MaxDepth: 3}), 80, "" +
			"   █▄\n" +
			"▄▄░░██▄▄\n" +
			"█ state  ░ covered\n" +
			"15 states, 4 levels, cut after depth 3\n"},
		{"all kinds", Layout(Highlight(adjTree{
			succs: [][]int{{1, 2}, {3}, {4, 5, 6}, {}, {7}, {}, {}, {}},
			kinds: map[int]Kind{3: Covered, 5: Merged, 6: Unexpanded, 7: Target},
		}, []int{0, 2, 4, 7}), Options{}), 80, "" +
			" **\n" +
			"░X▒?\n" +
			"█ state  ░ covered  X target  ▒ merged  * path  ? unexpanded\n" +
			"8 states, 4 levels\n"},
		// 16 columns into 8: two states per column.
		{"scaled", Layout(binary(5, map[int]Kind{16: Target}), Options{}), 8, "" +
			"   █▄\n" +
			"  ▄██▄\n" +
			"X▀▀▀▀▀▀▀\n" +
			"█ state\n" +
			"X target\n" +
			"31\n" +
			"states,\n" +
			"5\n" +
			"levels,\n" +
			"1 column\n" +
			"≈ 2\n" +
			"states\n"},
		{"empty", Layout(FromFunc(0, nil, nil), Options{}), 80, "" +
			"█ state\n" +
			"0 states, 0 levels\n"},
	} {
		if got := tc.p.Text(tc.width); got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// A row of 10,000 states squeezed into 80 columns keeps its single target
// (and the edges of the row) visible.
func TestTextScaledKeepsTarget(t *testing.T) {
	for _, pos := range []int{1, 2, 5000, 7777, 9999, 10000} {
		p := Layout(fan(10000, map[int]Kind{pos: Target}), Options{})
		lines := strings.Split(p.Text(80), "\n")
		row := lines[0]
		if n := utf8.RuneCountInString(row); n != 80 {
			t.Errorf("target %d: row is %d columns wide, want 80", pos, n)
		}
		if strings.Count(row, "X") != 1 {
			t.Errorf("target %d: row %q has no single X", pos, row)
		}
		col := strings.IndexRune(string([]rune(row)), 'X')
		col = utf8.RuneCountInString(row[:col])
		if want := (pos - 1) * 80 / 10000; col != want {
			t.Errorf("target %d in column %d, want %d", pos, col, want)
		}
		if !strings.Contains(lines[len(lines)-2], "1 column ≈ 125 states") {
			t.Errorf("summary %q", lines[len(lines)-2])
		}
	}
}

func TestTextBounds(t *testing.T) {
	p := Layout(bigARG(), Options{})
	for _, w := range []int{0, 20, 80} {
		text := p.Text(w)
		if w == 0 {
			w = DefaultTextWidth
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(lines) > DefaultTextLines+4 {
			t.Errorf("width %d: %d lines", w, len(lines))
		}
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > w {
				t.Errorf("width %d: line %q has %d columns", w, l, n)
			}
			if strings.HasSuffix(l, " ") {
				t.Errorf("trailing blank in %q", l)
			}
		}
		if !strings.Contains(text, "X") {
			t.Errorf("width %d: no target visible", w)
		}
	}
	// Deep pictures are scaled vertically.
	text := Layout(chain(200), Options{}).TextLines(30, 5)
	want := "█\n█\n█\n█\n█\n█ state\n200 states, 200 levels,\n1 half line ≈ 20 levels\n"
	if text != want {
		t.Errorf("deep chain:\n%s\nwant\n%s", text, want)
	}
}

// The scaled example in doc.go is what Text prints.
func TestDocExample(t *testing.T) {
	tr := randomARG(6000, 11)
	parent := make([]int, tr.Len())
	target := -1
	for v := range tr.Len() {
		for _, w := range tr.Succs(v) {
			parent[w] = v
		}
		if target < 0 && tr.kinds[v] == Target {
			target = v
		}
	}
	var path []int
	for v := target; v != 0; v = parent[v] {
		path = append(path, v)
	}
	text := Layout(Highlight(tr, append(path, 0)), Options{}).Text(80)
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	want := "//\t" + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n//\t") + "\n"
	if !strings.Contains(string(doc), want) {
		t.Errorf("doc.go does not show\n%s", want)
	}
}
