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
// per property before and after each pass of the full pipeline, and
// after the thin and value pipelines before any refinement, on the
// programs of -size-dirs (skipped without it), and prints the totals as
// a Markdown table row per directory. It fails if a reduced program
// fails the CFA sanity check.
func TestSizeTable(t *testing.T) {
	if *sizeDirs == "" {
		t.Skip("no -size-dirs")
	}
	fmt.Println("| programs | properties | before: locations / edges | slice | + inline | + constprop, deadbranch (full) | thin (+ inline, …) | value (+ inline, …) | median edge ratio full / thin / value |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, dir := range strings.Split(*sizeDirs, ",") {
		var files []string
		for _, pat := range []string{"*.c", "*.i"} {
			m, _ := filepath.Glob(filepath.Join(dir, pat))
			files = append(files, m...)
		}
		var props int
		var before, sliced, inlined, full, thin, value reduce.Size
		var ratios [3][]float64
		addSize := func(a *reduce.Size, b reduce.Size) {
			a.Locs += b.Locs
			a.Edges += b.Edges
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg := frontend.Options{}
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
				target := reduce.Target{ErrorEdges: prop.ErrorEdges, Via: prop.Via, Entry: "main"}
				var last [3]reduce.Size
				for i, level := range []reduce.Level{reduce.Full, reduce.Thin, reduce.Value} {
					r := reduce.Reduce(prog, target, reduce.Passes(level, g))
					if err := r.Prog.Check(); err != nil {
						t.Fatalf("%s %s %s: %v", file, prop.ID, level, err)
					}
					last[i] = r.Steps[len(r.Steps)-1].Size
					ratios[i] = append(ratios[i], float64(last[i].Edges)/float64(r.Before.Edges))
					if i == 0 {
						addSize(&before, r.Before)
						addSize(&sliced, r.Steps[1].Size)
						addSize(&inlined, r.Steps[3].Size)
					}
				}
				props++
				addSize(&full, last[0])
				addSize(&thin, last[1])
				addSize(&value, last[2])
			}
		}
		var med [3]float64
		for i := range ratios {
			sort.Float64s(ratios[i])
			if len(ratios[i]) > 0 {
				med[i] = ratios[i][len(ratios[i])/2]
			}
		}
		ls := func(s reduce.Size) string { return fmt.Sprintf("%d / %d", s.Locs, s.Edges) }
		fmt.Printf("| %s (%d) | %d | %s | %s | %s | %s | %s | %s | %.2f / %.2f / %.2f |\n", filepath.Base(dir), len(files), props,
			ls(before), ls(sliced), ls(inlined), ls(full), ls(thin), ls(value), med[0], med[1], med[2])
	}
}
