package diffslice

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const tinyMain = "int main(void) { return 0; }\n"

// TestSourceSelection: a directory means every C file under it; .i files
// are sources by default, except the preprocessed twin of a .c.
func TestSourceSelection(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"src/main.c":        tinyMain,
		"src/lib/util.c":    "int util(int x) { return x; }\n",
		"src/lib/util.i":    "int util(int x) { return x; }\n",
		"pre/solo.i":        "int solo(int x) { return x + 1; }\n",
		"other/unrelated.c": "int unrelated(void) { return 1; }\n",
	})
	for _, tt := range []struct {
		sources []string
		want    string
	}{
		{[]string{"src"}, "src/lib/util.c src/lib/util.i src/main.c"},
		{[]string{"src/"}, "src/lib/util.c src/lib/util.i src/main.c"},
		{[]string{"./src", "pre"}, "pre/solo.i src/lib/util.c src/lib/util.i src/main.c"},
		{[]string{"src/*.c"}, "src/main.c"},
		{nil, "other/unrelated.c pre/solo.i src/lib/util.c src/main.c"}, // default: **/*.c, **/*.i; util.i is util.c's twin
	} {
		r, err := LoadRevision(dir, "", SourceConfig{Sources: tt.sources})
		if tt.want == "src/lib/util.c src/lib/util.i src/main.c" || tt.want == "pre/solo.i src/lib/util.c src/lib/util.i src/main.c" {
			// Both util.c and util.i define util: the translation
			// rejects the redefinition, naming both.
			if err == nil || !strings.Contains(err.Error(), "util") {
				t.Errorf("sources %v: err %v, want a redefinition of util", tt.sources, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("sources %v: %v", tt.sources, err)
			continue
		}
		if got := strings.Join(r.Files, " "); got != tt.want {
			t.Errorf("sources %v: files %q, want %q", tt.sources, got, tt.want)
		}
	}
}

// TestSourceErrors: the error names the input that matched nothing; a
// compile-commands file named explicitly must exist, sources given or not.
func TestSourceErrors(t *testing.T) {
	dir := writeTree(t, map[string]string{"src/main.c": tinyMain})
	cfg := SourceConfig{Sources: []string{"lib"}}
	cfg.SetOrigin("sources", "input paths")
	if _, err := LoadRevision(dir, "", cfg); err == nil || err.Error() != "input paths lib: no C source file (.c or .i) matches" {
		t.Errorf("err %v", err)
	}
	if _, err := LoadRevision(dir, "", SourceConfig{Sources: []string{"src/*.h"}}); err == nil || !strings.HasPrefix(err.Error(), "--sources src/*.h: no C source file") {
		t.Errorf("err %v", err)
	}
	for _, sources := range [][]string{nil, {"src"}} {
		_, err := LoadRevision(dir, "", SourceConfig{Sources: sources, CompileCommands: "build/compile_commands.json"})
		if err == nil || !strings.HasPrefix(err.Error(), "compile-commands build/compile_commands.json: no such file") {
			t.Errorf("sources %v: err %v, want the missing compile-commands", sources, err)
		}
	}
}
