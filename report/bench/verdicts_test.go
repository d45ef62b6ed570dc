package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

// TestVerdictPrograms: a verdict program is a task (alone, and as the
// contents of a directory without .yml files), its directives become
// check's flags, its configurations are intersected with --config's, and
// results.json is compared with its wants.
func TestVerdictPrograms(t *testing.T) {
	dir := t.TempDir()
	src := `// configs: value symex
// max-states: 500
// signed-overflow: assume-none
// assume-pure: f g
// entry: start
// malloc: may-fail
// memory: valid-memsafety FALSE "valid-deref"
// memory: sites
int start(void) {
  assert(x); // want TRUE symex:UNKNOWN "state limit"
  *p = 1; // site: valid-deref FALSE "offset 8" // violation
}
`
	prog := filepath.Join(dir, "v", "p.c")
	os.MkdirAll(filepath.Dir(prog), 0o755)
	os.WriteFile(prog, []byte(src), 0o644)
	os.WriteFile(filepath.Join(dir, "v", "plain.c"), []byte("int main(void) { return 0; }\n"), 0o644)
	got, err := ExpandTasks([]string{filepath.Join(dir, "v")}, dir)
	if err != nil || !reflect.DeepEqual(got, []string{prog}) {
		t.Errorf("ExpandTasks(dir) = %v, %v; want the verdict program alone", got, err)
	}
	if _, err := ExpandTasks([]string{filepath.Join(dir, "v", "plain.c")}, dir); err == nil {
		t.Error("ExpandTasks(plain.c): no error")
	}
	task, err := readProgram(prog)
	if err != nil {
		t.Fatal(err)
	}
	p := task.Program
	if c := programConfigs(p, nil); !reflect.DeepEqual(c, []string{"value", "symex"}) {
		t.Errorf("configs %v", c)
	}
	if c := programConfigs(p, []string{"symex", "default"}); !reflect.DeepEqual(c, []string{"symex"}) {
		t.Errorf("configs with --config symex,default: %v", c)
	}
	args := strings.Join(programArgs(p, "symex", "r.json", "4GiB"), " ")
	for _, want := range []string{"--config symex", "--entry start", "--properties assertions,valid-memsafety,memory-sites",
		"--json r.json", "--signed-overflow assume-none", "--memory 4GiB", "--max-states 500", "--assume-pure f,g", "--malloc-may-fail", prog} {
		if !strings.Contains(args, want) {
			t.Errorf("check arguments %q lack %q", args, want)
		}
	}

	write := func(rep results.Report) string {
		path := filepath.Join(dir, "r.json")
		data, _ := json.Marshal(rep)
		os.WriteFile(path, data, 0o644)
		return path
	}
	steps := []results.StepJSON{{File: "p.c", Line: 11}}
	good := results.Report{Properties: []results.PropertyReport{
		{ID: "start.assert.1", Line: 10, Verdict: results.Unknown, Reason: "state limit 500"},
		{ID: "valid-memsafety", Expression: "G valid-deref && G valid-free && G valid-memtrack", Line: 11, Verdict: results.False, Reason: "valid-deref: ...", Steps: steps},
		{ID: "start:valid-deref@p.c:11:3", Expression: "G valid-deref", Line: 11, Verdict: results.False, Reason: "at offset 8", Steps: steps},
	}}
	if v, reason := programVerdict(p, "symex", write(good), 1, ""); v != VerdictMet {
		t.Errorf("as wanted: %s %s", v, reason)
	}
	if v, reason := programVerdict(p, "value", write(good), 1, ""); v != VerdictNotMet || !strings.Contains(reason, "got UNKNOWN (state limit 500), want TRUE") {
		t.Errorf("value wants TRUE: %s %s", v, reason)
	}
	bad := good
	bad.Properties = good.Properties[:2]
	if v, reason := programVerdict(p, "symex", write(bad), 1, ""); v != VerdictNotMet || !strings.Contains(reason, "no memory site at line 11") {
		t.Errorf("site missing: %s %s", v, reason)
	}
	if v, reason := programVerdict(p, "symex", filepath.Join(dir, "none.json"), 2, "boom\n"); v != VerdictNotMet || !strings.Contains(reason, "boom") {
		t.Errorf("no results.json: %s %s", v, reason)
	}
	row := Row{Verdict: VerdictUnknown, Reason: "timeout"}
	row.classifyWants()
	if row.Status != Wrong || row.Verdict != VerdictNotMet {
		t.Errorf("a timeout: %+v, want wrong", row)
	}
}
