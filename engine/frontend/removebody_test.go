package frontend

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveBody: Config.RemoveBody drops the definitions of the named
// functions in the files of RemoveBodyIn only (CBMC's
// --remove-function-body on the project sources), so a stub elsewhere
// defines the function without a "multiple definition" error, and a
// function without a stub is left without a body.
func TestRemoveBody(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	project := write("lib.c", "int f(void) { return 1; }\nint g(void) { return 3; }\nint h(void) { return f() + g(); }\n")
	stub := write("stub.c", "int f(void) { return 2; }\n")
	if _, err := Translate(Config{}, stub, project); err == nil {
		t.Fatal("two definitions of f translated without RemoveBody")
	}
	cfg := Config{RemoveBody: map[string]bool{"f": true, "g": true}, RemoveBodyIn: map[string]bool{project: true}}
	p, err := Translate(cfg, stub, project)
	if err != nil {
		t.Fatal(err)
	}
	f := p.Func("f")
	if f == nil || filepath.Base(f.Pos.Start.File) != "stub.c" {
		t.Fatalf("f is not the stub's: %+v", f)
	}
	if p.Func("g") != nil {
		t.Fatal("g keeps its body")
	}
	if _, ok := p.Externals["g"]; !ok {
		t.Fatal("g, called and without a body, is not external")
	}
	if p.Func("h") == nil {
		t.Fatal("h lost its body")
	}
}
