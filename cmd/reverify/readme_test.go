package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
)

var updateReadme = flag.Bool("update", false, "rewrite the README's generated configuration table")

// TestReadmeConfigTable: the README's configuration table is the
// registry's (engine.ConfigTable); -update rewrites it.
func TestReadmeConfigTable(t *testing.T) {
	const path = "../../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	const head = "## Configurations\n\n"
	i := strings.Index(s, head)
	if i < 0 {
		t.Fatal("README has no Configurations section")
	}
	start := i + len(head)
	end := start + strings.Index(s[start:], "\n\n") + 1
	got, want := s[start:end], engine.ConfigTable()
	if got == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(s[:start]+want+s[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README's configuration table differs from the registry's (go test ./cmd/reverify -run ReadmeConfigTable -update):\n%s\nwant\n%s", got, want)
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
