package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
)

var updateConfigTable = flag.Bool("update", false, "rewrite the generated configuration table of doc/configurations.md")

// TestConfigTableDoc: the configuration table of doc/configurations.md
// (from its header line to the first blank line) is the registry's
// (engine.ConfigTable); -update rewrites it.
func TestConfigTableDoc(t *testing.T) {
	const path = "../../doc/configurations.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	want := engine.ConfigTable()
	header, _, _ := strings.Cut(want, "\n")
	start := strings.Index(s, "\n"+header+"\n")
	if start < 0 {
		t.Fatalf("%s has no configuration table (a line %q)", path, header)
	}
	start++
	end := strings.Index(s[start:], "\n\n")
	if end < 0 {
		end = len(s)
	} else {
		end += start + 1
	}
	got := s[start:end]
	if got == want {
		return
	}
	if *updateConfigTable {
		if err := os.WriteFile(path, []byte(s[:start]+want+s[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the configuration table differs from the registry's (go test ./cmd/reverify -run ConfigTableDoc -update):\n%s\nwant\n%s", path, got, want)
}

// TestActionConfigInput: the Action's config input names every
// registered configuration (each is selectable there).
func TestActionConfigInput(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "\n  config:\n")
	if i < 0 {
		t.Fatal("action.yml has no config input")
	}
	desc, _, _ := strings.Cut(s[i:], "\n    required:")
	for _, n := range engine.ConfigNames() {
		if !strings.Contains(desc, n+",") && !strings.Contains(desc, n+")") {
			t.Errorf("action.yml's config input does not name %s", n)
		}
	}
}
