package frontend

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
)

// tortureDir is the gcc torture suite as shipped by modernc.org/ccorpus2
// in the module cache, when present.
var tortureDir = filepath.Join(os.Getenv("HOME"), "go/pkg/mod/modernc.org/ccorpus2@v1.6.0/assets/gcc-9.1.0/gcc/testsuite/gcc.c-torture")

var torture = flag.Bool("torture", false, "run TestTorture over the gcc torture suite (slow)")

// TestTorture translates the gcc torture tests (compile and execute):
// parse errors are fine (gcc extensions cc/v4 rejects), but the front end
// must not fail internally, and every result must pass the sanity checker.
func TestTorture(t *testing.T) {
	if !*torture {
		t.Skip("run with -torture")
	}
	var paths []string
	for _, sub := range []string{"execute", "compile"} {
		ps, _ := filepath.Glob(filepath.Join(tortureDir, sub, "*.c"))
		paths = append(paths, ps...)
	}
	if len(paths) == 0 {
		t.Skipf("no gcc torture tests in %s", tortureDir)
	}
	old := ccparse.Timeout
	ccparse.Timeout = 10 * time.Second
	defer func() { ccparse.Timeout = old }()
	ok, parseErr := 0, 0
	unsup := map[string]int{}
	for _, p := range paths {
		prog, err := Translate(Options{}, p)
		if err != nil {
			if strings.Contains(err.Error(), "frontend: internal error") {
				t.Errorf("%s: %v", p, err)
			} else {
				parseErr++
			}
			continue
		}
		if err := prog.Check(); err != nil {
			t.Errorf("%s: sanity check: %v", p, err)
			continue
		}
		ok++
		for _, e := range prog.Edges {
			if u, ok := e.Op.(*cfa.Unsupported); ok {
				unsup[u.Construct]++
				if testing.Verbose() && os.Getenv("TORTURE_SHOW") == u.Construct {
					t.Logf("%s: %s %q", e.Pos.Start, u.Construct, e.Text)
				}
			}
		}
	}
	t.Logf("Unsupported edges: %v", unsup)
	t.Logf("gcc torture: %d translated, %d rejected by the parser, of %d", ok, parseErr, len(paths))
}
