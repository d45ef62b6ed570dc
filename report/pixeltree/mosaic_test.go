package pixeltree

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMosaic(t *testing.T) {
	// Rows 1, 2, 4 centred on 4 columns: offsets 1, 1, 0.
	got := Layout(binary(3, map[int]Kind{5: Target, 6: Covered}), Options{}).Mosaic(0, 0)
	want := "" +
		"⬜⬛⬜⬜\n" +
		"⬜⬛⬛⬜\n" +
		"⬛⬛🟥🟩\n" +
		"⬛ state · 🟩 covered · 🟥 target\n" +
		"7 states, 3 levels\n"
	if got != want {
		t.Errorf("mosaic:\n%s\nwant:\n%s", got, want)
	}
	if s := (&Picture{}).Mosaic(0, 0); s != "" {
		t.Errorf("empty picture: %q", s)
	}
}

// TestMosaicScale: a deep narrow chain (the 10×114 hairline of a reported pixel tree)
// keeps its width and is folded to DefaultMosaicLines lines; a wide tree is
// folded to DefaultMosaicCols squares; a single target among many states
// stays visible.
func TestMosaicScale(t *testing.T) {
	deep := Layout(chain(114), Options{}).Mosaic(0, 0)
	lines := strings.Split(strings.TrimSuffix(deep, "\n"), "\n")
	if len(lines) != DefaultMosaicLines+2 || !strings.HasSuffix(deep, "114 states, 114 levels, 1 line ≈ 4.8 levels\n") {
		t.Errorf("deep chain:\n%s", deep)
	}
	wide := Layout(binary(12, map[int]Kind{3000: Target}), Options{}).Mosaic(0, 0)
	lines = strings.Split(strings.TrimSuffix(wide, "\n"), "\n")
	for _, l := range lines[:len(lines)-2] {
		if n := utf8.RuneCountInString(l); n != DefaultMosaicCols {
			t.Errorf("line of %d squares, want %d: %s", n, DefaultMosaicCols, l)
		}
	}
	if !strings.Contains(wide, "🟥") || !strings.Contains(wide, "🟥 target") {
		t.Errorf("the target vanished:\n%s", wide)
	}
}
