package llvmir

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden CFA files")

// TestSeedFigure23 translates the LLVM program of seed 000's figure 15b
// and compares its CFA with testdata/seed_fig15.cfa, which has the shape
// of the seed's figure 23: Init assigns x := 10; each basic block is a
// chain of edges from the location of its label (the allocas that are
// only loaded and stored are plain variables, the seed's t_i are the
// registers), an unconditional br is a no-op edge and the conditional
// br two assume edges on t_4.
func TestSeedFigure23(t *testing.T) {
	golden(t, "seed_fig15", "seed_fig15", Options{Unfolded: true})
}

// TestFolded is the same program as translated by default: each value
// read once in its own block is folded into its use, so the edges read
// as the C program of figure 15a (x = decr(x) after the loop test
// x > 0).
func TestFolded(t *testing.T) {
	golden(t, "seed_fig15", "seed_fig15_folded", Options{})
}

func golden(t *testing.T, name, out string, opts Options) {
	src := filepath.Join("testdata", name+".ll")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := TranslateText(opts, src, string(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	got := p.Text()
	path := filepath.Join("testdata", out+".cfa")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("CFA of %s differs from %s:\n%s", src, path, got)
	}
}
