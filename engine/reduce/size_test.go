package reduce_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/reduce"
	"github.com/reverify/reverify/engine/spec"
)

var sizeDirs = flag.String("size-dirs", "", "comma-separated directories of .c/.i programs for TestSizeTable")

// TestSizeTable measures, as seed 002 does, the CFA locations and edges
// per property before and after each pass of the full pipeline on the
// programs of -size-dirs (skipped without it), and prints the totals as a
// Markdown table row per directory. It fails if a reduced program fails
// the CFA sanity check or a pass grows the program by more than the
// nondeterministic branches it adds.
func TestSizeTable(t *testing.T) {
	if *sizeDirs == "" {
		t.Skip("no -size-dirs")
	}
	fmt.Println("| programs | properties | before: locations / edges | slice | constprop + deadbranch | per-property median edge ratio |")
	fmt.Println("|---|--:|--:|--:|--:|--:|")
	for _, dir := range strings.Split(*sizeDirs, ",") {
		var files []string
		for _, pat := range []string{"*.c", "*.i"} {
			m, _ := filepath.Glob(filepath.Join(dir, pat))
			files = append(files, m...)
		}
		var props int
		var before, sliced, full reduce.Size
		var ratios []float64
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg := frontend.Config{}
			if strings.Contains(string(src), "__VERIFIER_") && strings.HasSuffix(file, ".i") {
				cfg.DataModel = 1 // ILP32, as most SV-COMP ReachSafety tasks
			}
			prog, err := frontend.Translate(cfg, file)
			if err != nil {
				continue // not translatable: not measured
			}
			g := pdg.Build(prog)
			for _, prop := range spec.Properties(prog, "main") {
				if !prop.Reachable || len(prop.ErrorEdges) == 0 {
					continue
				}
				r := reduce.Reduce(prog, reduce.Target{ErrorEdges: prop.ErrorEdges, Via: prop.Via, Entry: "main"}, reduce.Passes(reduce.Full, g))
				if err := r.Prog.Check(); err != nil {
					t.Fatalf("%s %s: %v", file, prop.ID, err)
				}
				props++
				before.Locs += r.Before.Locs
				before.Edges += r.Before.Edges
				s, f := r.Steps[1].Size, r.Steps[len(r.Steps)-1].Size
				sliced.Locs += s.Locs
				sliced.Edges += s.Edges
				full.Locs += f.Locs
				full.Edges += f.Edges
				ratios = append(ratios, float64(f.Edges)/float64(r.Before.Edges))
			}
		}
		sort.Float64s(ratios)
		med := 0.0
		if len(ratios) > 0 {
			med = ratios[len(ratios)/2]
		}
		fmt.Printf("| %s (%d) | %d | %d / %d | %d / %d | %d / %d | %.2f |\n", filepath.Base(dir), len(files), props,
			before.Locs, before.Edges, sliced.Locs, sliced.Edges, full.Locs, full.Edges, med)
	}
}
