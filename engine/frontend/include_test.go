package frontend

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAbsoluteInclude: a quoted include of an absolute path is opened as
// gcc opens it, written in the source and through a macro a -D option
// defines (mlkem-native's -DMLK_CONFIG_ARITH_BACKEND_FILE="\"$(SRCDIR)/…\"");
// cc/v4 alone joins it to the includer's directory and fails. A
// contract in such a header is found and rewritten as well (CBMC's
// dialect, as a proof reads it).
func TestAbsoluteInclude(t *testing.T) {
	dir := t.TempDir()
	h := filepath.Join(dir, "sub", "backend.h")
	if err := os.MkdirAll(filepath.Dir(h), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h, []byte("int backend_value(void) { return 7; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "#include \"" + h + "\"\n#include BACKEND_FILE\nint main(void) { return backend_value() + twice(1); }\n"
	h2 := filepath.Join(dir, "other", "twice.h")
	if err := os.MkdirAll(filepath.Dir(h2), 0o755); err != nil {
		t.Fatal(err)
	}
	// a contract in the header: the contract pass must find the header too
	if err := os.WriteFile(h2, []byte("int twice(int x)\n__CPROVER_requires(x > 0)\n{ return 2 * x; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "main.c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := Translate(Options{CBMC: true, Defines: map[string]string{"BACKEND_FILE": `"` + h2 + `"`}}, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"backend_value", "twice", "main"} {
		if prog.Func(f) == nil {
			t.Errorf("no function %s", f)
		}
	}
}

// TestModelYieldsToHeader: a C library function the program defines in
// a header (which the model selection, reading the sources' own text,
// does not see) is the program's: the model unit's definition of it
// yields, without a "multiple definition" error, and the model's other
// functions stay (cmodel.Strto's strtol).
func TestModelYieldsToHeader(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "my.h"), []byte("int atoi(const char *s) { return 99; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "main.c")
	src := "#include \"my.h\"\nlong strtol(const char *, char **, int);\nint main(void) { return atoi(\"5\") + (int)strtol(\"1\", 0, 10); }\n"
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := Translate(Options{}, c)
	if err != nil {
		t.Fatal(err)
	}
	if f := prog.Func("atoi"); f == nil || f.Pos.Start.File != filepath.Join(dir, "my.h") {
		t.Errorf("atoi: %v, want the header's definition", f)
	}
	if f := prog.Func("strtol"); f == nil || f.Pos.Start.File != "<strto>" {
		t.Errorf("strtol: %v, want the model's definition", f)
	}
}
