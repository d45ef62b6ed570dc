package scopegraph

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/reverify/reverify/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// twoOfFive is the scope engine.TestScopeTwoOfFive computes for
// engine/testdata/scope/two.c (value-cegar), and a second property of the
// same program whose scope is log_msg's.
func twoOfFive() []*results.Scope {
	prog := []string{"parse_header", "clamp_len", "log_msg", "checksum", "main"}
	a := &results.Scope{Functions: []string{"clamp_len", "main"}, FunctionsExplored: 5, FunctionsTotal: 5,
		Locations: 5, LocationsExplored: 25, LocationsTotal: 25, Share: 0.2,
		Graph: &results.ScopeGraph{Property: "main:len<=64", Program: prog,
			Funcs: []results.ScopeFunc{
				{Name: "main", States: 20, InScope: 7, Calls: 1, Locations: 14, LocationsInScope: 4, Total: 14},
				{Name: "parse_header", States: 2, Calls: 1, Locations: 2, Total: 2},
				{Name: "clamp_len", States: 5, InScope: 2, Calls: 1, Locations: 4, LocationsInScope: 1, Total: 4},
				{Name: "log_msg", States: 12, Calls: 4, Locations: 3, Total: 3},
				{Name: "checksum", States: 4, Calls: 2, Locations: 2, Total: 2},
			},
			Calls: []results.ScopeCall{{From: 0, To: 1}, {From: 0, To: 2}, {From: 0, To: 3}, {From: 0, To: 4}}}}
	b := &results.Scope{Functions: []string{"log_msg", "main"}, FunctionsExplored: 3, FunctionsTotal: 5,
		Locations: 6, LocationsExplored: 20, LocationsTotal: 25, Share: 0.24, Partial: true,
		Graph: &results.ScopeGraph{Property: "log_msg:counter<100", Program: prog,
			Funcs: []results.ScopeFunc{
				{Name: "main", States: 16, InScope: 2, Calls: 1, Locations: 14, LocationsInScope: 2, Total: 14},
				{Name: "log_msg", States: 30, InScope: 30, Calls: 10, Locations: 3, LocationsInScope: 3, Total: 3},
				{Name: "clamp_len", States: 3, Calls: 1, Locations: 3, Total: 4},
			},
			Calls: []results.ScopeCall{{From: 0, To: 1}, {From: 0, To: 2}}}}
	return []*results.Scope{a, b}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", path, got)
	}
}

func TestSVGGolden(t *testing.T) {
	var b bytes.Buffer
	if err := SVG(&b, twoOfFive()...); err != nil {
		t.Fatal(err)
	}
	golden(t, "two.svg", b.Bytes())
}

func TestTextGolden(t *testing.T) {
	var b bytes.Buffer
	for _, s := range twoOfFive() {
		if err := Text(&b, s); err != nil {
			t.Fatal(err)
		}
	}
	golden(t, "two.txt", b.Bytes())
}

func TestHeat(t *testing.T) {
	for _, c := range []struct {
		imp  float64
		want string
	}{{0, "#ffffff"}, {-1, "#ffffff"}, {1e-9, "#ffff99"}, {0.5, "#fdae61"}, {1, "#d7191c"}, {2, "#d7191c"}} {
		if got := Heat(c.imp); got != c.want {
			t.Errorf("Heat(%v) = %s, want %s", c.imp, got, c.want)
		}
	}
	if r := radius(0); r != 0 {
		t.Errorf("radius(0) = %v", r)
	}
	if r := radius(100); r != 2 {
		t.Errorf("radius(100) = %v, want 2", r)
	}
}
