package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// readmeWorkflows returns the YAML code blocks of README.md that are
// workflows (they have jobs), parsed.
func readmeWorkflows(t *testing.T) []map[string]any {
	t.Helper()
	text := readFile(t, filepath.Join("..", "..", "README.md"))
	var out []map[string]any
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(text, -1) {
		var wf map[string]any
		if err := yaml.Unmarshal([]byte(m[1]), &wf); err != nil {
			t.Fatalf("README.md: a yaml block does not parse: %v\n%s", err, m[1])
		}
		if _, ok := wf["jobs"]; ok {
			out = append(out, wf)
		}
	}
	return out
}

// TestReadmeWorkflows runs the Action steps of README.md's workflow
// snippets as written, with their inputs, against the fake repository
// and API of TestActionEndToEnd: the pull-request workflow, the push
// workflow that warms the cache, and the sharded matrix with its merge
// job (artifacts emulated: each shard's output directory becomes
// shards/<artifact name>, as download-artifact lays them out).
func TestReadmeWorkflows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	wfs := readmeWorkflows(t)
	if len(wfs) != 3 {
		t.Fatalf("README.md has %d workflow snippets, want 3 (pull request, push, shards)", len(wfs))
	}
	w := newActionWorld(t)
	w.prFiles(w.head)
	matrixExpr := regexp.MustCompile(`\$\{\{\s*matrix\.shard\s*\}\}`)
	for i, wf := range wfs {
		event := "pull_request"
		switch on := wf["on"].(type) {
		case string:
			event = on
		case map[string]any:
			for k := range on {
				event = k
			}
		}
		jobs := wf["jobs"].(map[string]any)
		// Jobs in dependency order: a job with "needs" after the others.
		var names []string
		for name, j := range jobs {
			if _, needs := j.(map[string]any)["needs"]; !needs {
				names = append(names, name)
			}
		}
		for name, j := range jobs {
			if _, needs := j.(map[string]any)["needs"]; needs {
				names = append(names, name)
			}
		}
		steps := 0
		for _, name := range names {
			job := jobs[name].(map[string]any)
			shards := []string{""}
			if st, ok := job["strategy"].(map[string]any); ok {
				shards = nil
				for _, v := range st["matrix"].(map[string]any)["shard"].([]any) {
					shards = append(shards, fmt.Sprint(v))
				}
			}
			for _, shard := range shards {
				for _, s := range job["steps"].([]any) {
					step := s.(map[string]any)
					uses, _ := step["uses"].(string)
					with, _ := step["with"].(map[string]any)
					if uses == "actions/upload-artifact@v4" && strings.HasPrefix(fmt.Sprint(with["name"]), "reverify-shard-") {
						artifact := matrixExpr.ReplaceAllString(fmt.Sprint(with["name"]), shard)
						if err := os.MkdirAll(filepath.Join(w.ws, "shards"), 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.Rename(filepath.Join(w.ws, fmt.Sprint(with["path"])), filepath.Join(w.ws, "shards", artifact)); err != nil {
							t.Fatalf("workflow %d, job %s: upload %s: %v", i+1, name, artifact, err)
						}
					}
					if !strings.HasPrefix(uses, "reverify/reverify@") {
						continue
					}
					steps++
					inputs := map[string]string{}
					for k, v := range with {
						inputs[k] = matrixExpr.ReplaceAllString(fmt.Sprint(v), shard)
					}
					var ev map[string]any
					if event == "push" {
						ev = map[string]any{"after": w.base}
					} else {
						ev = prEvent(7, w.base, w.head, "o/r")
					}
					r := w.run(event, ev, inputs)
					what := fmt.Sprintf("workflow %d (%s), job %s %s, inputs %v", i+1, event, name, shard, inputs)
					if strings.Contains(r.stdout, "::error") || r.code == 2 {
						t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", what, r.code, r.stdout, r.stderr)
						continue
					}
					// The pull request breaks clamp(): FALSE, which fails
					// the gate under fail-on violation only.
					want := 0
					if inputs["fail-on"] == "violation" && event == "pull_request" {
						want = 1
					}
					if r.code != want {
						t.Errorf("%s: exit %d, want %d\nstdout:\n%s", what, r.code, want, r.stdout)
					}
					if inputs["merge"] == "" && shard == "" && r.outputs["reverified"]+"+"+r.outputs["reused"] == "0+0" {
						t.Errorf("%s: nothing verified: outputs %v", what, r.outputs)
					}
				}
			}
		}
		if steps == 0 {
			t.Errorf("workflow %d has no reverify step", i+1)
		}
	}

	// Inputs that name nothing are one-line errors (exit 2), never
	// ignored: a compile-commands file that does not exist, and paths
	// that match no C file (the message names the input).
	for _, c := range []struct {
		inputs map[string]string
		want   string
	}{
		{map[string]string{"compile-commands": "build/compile_commands.json"}, "compile-commands build/compile_commands.json: no such file in the repository"},
		{map[string]string{"paths": "lib"}, "input paths lib: no C source file (.c or .i) matches"},
	} {
		r := w.run("pull_request", prEvent(7, w.base, w.head, "o/r"), c.inputs)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("inputs %v: exit %d, stderr %q; want exit 2 and one line with %q", c.inputs, r.code, r.stderr, c.want)
		}
	}
}
