package pdg_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/spec"
)

// svbenchDir holds SV-COMP benchmarks when available (never copied into
// the repository).
const svbenchDir = "/root/svbench/c"

// Every SV-COMP program at hand builds and slices (every property, with
// its hash) without failing; the slowest are logged.
func TestSVBenchSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	files, _ := filepath.Glob(filepath.Join(svbenchDir, "*", "*.[ci]"))
	if len(files) == 0 {
		t.Skip("no benchmarks in " + svbenchDir)
	}
	type result struct {
		file string
		locs int
		d    time.Duration
	}
	var results []result
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: filepath.Base(f), Content: string(src)}})
		if err != nil {
			continue // the front end's business
		}
		start := time.Now()
		g := pdg.Build(p)
		for _, prop := range spec.Properties(p, "main") {
			var s *pdg.Slice
			if prop.Via != nil {
				s = g.SliceVia(prop.Via, prop.ErrorEdges)
			} else {
				s = g.Slice(prop.ErrorEdges)
			}
			for _, e := range prop.ErrorEdges {
				if prop.Via == nil && !s.Contains(e) {
					t.Errorf("%s: slice of %s lacks its criterion %s", f, prop.ID, e)
				}
			}
			s.Hash(prop.ID)
		}
		results = append(results, result{f, len(p.Locs), time.Since(start)})
	}
	sort.Slice(results, func(i, j int) bool { return results[i].d > results[j].d })
	t.Logf("%d programs", len(results))
	for _, r := range results[:min(5, len(results))] {
		t.Logf("%v for %d locations: %s", r.d, r.locs, r.file)
	}
}
