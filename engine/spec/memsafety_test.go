package spec

import (
	"strings"
	"testing"
)

func TestParsePRPAll(t *testing.T) {
	for _, tt := range []struct {
		text, entry, memory, err string
	}{
		{"CHECK( init(main()), LTL(G ! call(reach_error())) )\n", "main", "", ""},
		{"CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n",
			"main", "valid-deref valid-free valid-memtrack", ""},
		{"CHECK( init(main()), LTL(G valid-memcleanup) )\n", "main", "valid-memcleanup", ""},
		{"CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G ! call(reach_error())) )\n", "", "", "mixes"},
		{"CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(f()), LTL(G valid-deref) )\n", "", "", "two entry functions"},
		{"CHECK( init(main()), LTL(G ! overflow) )\n", "", "", "unsupported property"},
		{"", "", "", "no property"},
	} {
		entry, mem, err := ParsePRPAll(tt.text)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParsePRPAll(%q) error %v, want %q", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || entry != tt.entry || strings.Join(mem, " ") != tt.memory {
			t.Errorf("ParsePRPAll(%q) = %q, %q, %v; want %q, %q", tt.text, entry, mem, err, tt.entry, tt.memory)
		}
	}
}

func TestMemoryProperty(t *testing.T) {
	p := MemoryProperty("main", MemSafetySubs)
	if p.ID != MemSafetyID || strings.Join(p.Memory, " ") != "valid-deref valid-free valid-memtrack" || len(p.ErrorEdges) != 0 || !p.Reachable {
		t.Errorf("MemoryProperty(main, memsafety) = %+v", p)
	}
	if p := MemoryProperty("main", []string{MemCleanupID}); p.ID != MemCleanupID {
		t.Errorf("memcleanup ID %q", p.ID)
	}
}
