package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
)

// FuzzTranslate checks that no input makes the front end panic or fail
// internally, and that every successful translation passes the sanity
// checker. The seed corpus is in testdata/fuzz/FuzzTranslate (the golden
// test sources); the golden sources are added as seeds too.
func FuzzTranslate(f *testing.F) {
	paths, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, src := range parseArchive(string(data)).files {
			if strings.HasSuffix(src.Name, ".c") || strings.HasSuffix(src.Name, ".i") {
				f.Add(src.Content, false)
			}
		}
	}
	ccparse.Timeout = 5 * time.Second
	f.Fuzz(func(t *testing.T, src string, ilp32 bool) {
		cfg := Options{}
		if ilp32 {
			cfg.DataModel = cfa.ILP32
		}
		p, err := TranslateSources(cfg, []Source{{Name: "fuzz.c", Content: src}})
		if err != nil {
			if strings.Contains(err.Error(), "frontend: internal error") {
				t.Fatalf("internal error on\n%s\n%v", src, err)
			}
			return
		}
		if err := p.Check(); err != nil {
			t.Fatalf("sanity check failed on\n%s\n%v", src, err)
		}
		_ = p.Text()
	})
}
