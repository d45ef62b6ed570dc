package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/pdg"
)

// BenchmarkPDGBuildFiles reports the time to build the system dependence
// graph (dominators, control and flow dependence, points-to, summary
// edges) of real C programs, per build and per CFA location: the C files
// under the directories in REVERIFY_PDG_DIRS (colon-separated, e.g. the
// SV-COMP ECA and product-line categories fetched to ~/svbench, which
// are not part of the repository). Skipped when it is unset. Seed 000
// (section 4) reports a median of 1.3 s and cases above 900 s for
// CPAchecker's dependence graphs.
//
//	REVERIFY_PDG_DIRS=~/svbench/c/eca-rers2012:~/svbench/c/product-lines \
//	  go test -run '^$' -bench PDGBuildFiles ./engine/
func BenchmarkPDGBuildFiles(b *testing.B) {
	dirs := filepath.SplitList(os.Getenv("REVERIFY_PDG_DIRS"))
	if len(dirs) == 0 {
		b.Skip("set REVERIFY_PDG_DIRS to directories of C files")
	}
	var files []string
	for _, d := range dirs {
		for _, pat := range []string{"*.c", "*.i"} {
			m, _ := filepath.Glob(filepath.Join(d, pat))
			files = append(files, m...)
		}
	}
	sort.Strings(files)
	for _, f := range files {
		prog, err := frontend.Translate(frontend.Options{}, f)
		if err != nil {
			b.Logf("%s: %v", f, err)
			continue
		}
		b.Run(fmt.Sprintf("%s/locs=%d", filepath.Base(f), len(prog.Locs)), func(b *testing.B) {
			for b.Loop() {
				pdg.Build(prog)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(prog.Locs)), "ns/loc")
		})
	}
}
