package engine_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEntryAdversaries links the programs of testdata/entry whose
// verdict is not TRUE with a caller that makes the assertion fail and
// runs them with gcc: the assertion can fail, so TRUE would be wrong.
// main's argc is 1 when run without arguments.
func TestEntryAdversaries(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	for _, tc := range []struct{ file, driver string }{
		{"entry_main.c", ""},
		{"entry_int_param.c", "int f(int, unsigned char);\nint main(void) { return f(-1, 7); }\n"},
		{"entry_ptr_param.c", "extern int g;\nint f(int *);\nint main(void) { return f(&g); }\n"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := t.TempDir()
			src, _ := filepath.Abs(filepath.Join("testdata/entry", tc.file))
			args := []string{"-O0", "-fwrapv", "-o", filepath.Join(dir, "a.out"), src}
			if tc.driver != "" {
				drv := filepath.Join(dir, "driver.c")
				if err := os.WriteFile(drv, []byte(tc.driver), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, drv)
			}
			if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
				t.Fatalf("gcc: %v\n%s", err, out)
			}
			out, err := exec.Command(filepath.Join(dir, "a.out")).CombinedOutput()
			if err == nil {
				t.Fatalf("the assertion held: exit 0\n%s", out)
			}
			if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(string(out), "Assertion") {
				t.Fatalf("run: %v, want a failed assertion\n%s", err, out)
			}
		})
	}
}
