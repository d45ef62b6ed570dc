package strategy

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoReasonMatching: code decides on an UNKNOWN's cause
// (results.Cause), never on the text of its reason: no non-test file of
// the module matches a result's Reason against a string, but the
// verdict programs' expectations (internal/wants: a `// want` reason is
// a substring people read in the reason, checked by the tests and the
// verdict suite), which decide nothing.
func TestNoReasonMatching(t *testing.T) {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Skip("go list:", err)
	}
	bad := regexp.MustCompile(`strings\.(Contains|HasPrefix|HasSuffix|Index|LastIndex|ReplaceAll|Replace|Cut|CutPrefix|TrimPrefix)\([^)]*(\.Reason|\breason|\bwhy|\.Detail|\bdetail)\b|(\.Reason|\breason|\bwhy)\s*[!=]=\s*"[^"]` +
		// the analyses' explanations are typed (cpa.Explanation): their
		// texts are never parsed
		"|" + `strings\.(Contains|HasPrefix|HasSuffix|CutPrefix|TrimPrefix|Cut|Index)\([^)]*"(unmodelled|unsupported|callback|memory violation|memory: cannot)`)
	err = filepath.WalkDir(strings.TrimSpace(string(root)), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		if filepath.Base(filepath.Dir(path)) == "wants" && filepath.Base(filepath.Dir(filepath.Dir(path))) == "internal" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if bad.MatchString(line) {
				t.Errorf("%s:%d matches a reason's text: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
