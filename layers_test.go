package reverify

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/reverify/reverify/"

// layer gives each package directory its layer (DESIGN.md, "Layering").
// A package may import only packages of its own or a lower layer (Go
// forbids cycles within a layer). Unlisted packages fail the test.
var layer = map[string]int{
	"engine/graph":    0,
	"engine/cfa":      1,
	"engine/frontend": 2,
	"engine/spec":     2,
	"engine/pdg":      2,
	"engine/reduce":   2,
	"engine/smt":      2,
	"engine/smt/z3":   2,
	"engine/interp":   2,
	"engine/cpa":      3,
	"engine/cegar":    5,
	"engine/witness":  5,
	"engine":          6,
	"diffslice":       7,
	"cmd/reverify":    9,
	// internal/difftest runs gcc and the engine in process (issue 14): a
	// test harness above everything, which nothing imports.
	"internal/difftest": 10,

	// engine/analysis/... is layer 4 by prefix (layerOf); the predicate
	// analysis imports value, of the same layer.
	"engine/analysis/predicate": 4,
}

// only lists third-party imports confined to one package (prefix match).
var only = map[string]string{
	"modernc.org/cc":                        "engine/frontend",
	"github.com/aclements/go-z3":            "engine/smt/z3",
	"github.com/google/go-github":           "report/github",
	"github.com/sethvargo/go-githubactions": "report/github",
}

func layerOf(dir string) (int, bool) {
	if l, ok := layer[dir]; ok {
		return l, true
	}
	switch {
	case strings.HasPrefix(dir, "engine/analysis/"):
		return 4, true
	case strings.HasPrefix(dir, "report/"):
		return 8, true
	case strings.HasPrefix(dir, "engine/cfa/"):
		return 1, true
	}
	return 0, false
}

func TestLayering(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if dir == "." {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		from, ok := layerOf(dir)
		if !ok {
			t.Errorf("%s: package %s has no layer in layers_test.go", path, dir)
			return nil
		}
		external := strings.HasSuffix(path, "_test.go") && strings.HasSuffix(f.Name.Name, "_test")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for prefix, owner := range only {
				if strings.HasPrefix(p, prefix) && dir != owner {
					t.Errorf("%s imports %s; only %s may", path, p, owner)
				}
			}
			if !strings.HasPrefix(p, module) {
				continue
			}
			to := strings.TrimPrefix(p, module)
			tl, ok := layerOf(to)
			if !ok {
				continue // reported for its own files
			}
			if external {
				continue // black-box tests may use anything below cmd
			}
			if tl <= from {
				continue
			}
			t.Errorf("%s (layer %d) imports %s (layer %d): imports must point downward", path, from, to, tl)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
