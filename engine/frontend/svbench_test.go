package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/reverify/reverify/engine/cfa"
)

// svbenchDir holds SV-COMP benchmarks (sv-benchmarks layout: c/<set>/*.yml
// task files naming the .c/.i input and the data model). They are never
// copied into the repository.
const svbenchDir = "/root/svbench"

type svTask struct {
	InputFiles any `yaml:"input_files"`
	Options    struct {
		DataModel string `yaml:"data_model"`
	} `yaml:"options"`
}

// svTasks lists the input files of the benchmark tasks with their data
// model (LP64 when the task does not say).
func svTasks(t testing.TB) map[string]cfa.DataModel {
	tasks := map[string]cfa.DataModel{}
	filepath.Walk(svbenchDir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".yml") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		var task svTask
		if yaml.Unmarshal(b, &task) != nil {
			return nil
		}
		dm := cfa.LP64
		if strings.EqualFold(task.Options.DataModel, "ILP32") {
			dm = cfa.ILP32
		}
		var files []string
		switch f := task.InputFiles.(type) {
		case string:
			files = []string{f}
		case []any:
			for _, x := range f {
				if s, ok := x.(string); ok {
					files = append(files, s)
				}
			}
		}
		for _, f := range files {
			tasks[filepath.Join(filepath.Dir(path), f)] = dm
		}
		return nil
	})
	// Sources without a task file: LP64.
	filepath.Walk(svbenchDir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.HasSuffix(path, ".c") || strings.HasSuffix(path, ".i")) {
			if _, ok := tasks[path]; !ok {
				tasks[path] = cfa.LP64
			}
		}
		return nil
	})
	return tasks
}

// TestSVBench translates every SV-COMP program under /root/svbench (when
// present) and requires at least 98% to translate without error; every
// result must pass the sanity checker. Failures and Unsupported
// constructs are reported.
func TestSVBench(t *testing.T) {
	if _, err := os.Stat(svbenchDir); err != nil {
		t.Skipf("no SV-COMP benchmarks in %s: skipped", svbenchDir)
	}
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	tasks := svTasks(t)
	var paths []string
	for p := range tasks {
		if _, err := os.Stat(p); err == nil {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		t.Skip("no benchmark sources")
	}
	var failed []string
	unsupported := map[string]int{}
	withUnsupported := 0
	for _, path := range paths {
		p, err := Translate(Options{DataModel: tasks[path]}, path)
		if err != nil {
			msg := err.Error()
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i] + " …"
			}
			failed = append(failed, fmt.Sprintf("%s: %s", path, msg))
			continue
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s: sanity check: %v", path, err)
		}
		seen := false
		for _, e := range p.Edges {
			if u, ok := e.Op.(*cfa.Unsupported); ok {
				unsupported[u.Construct]++
				seen = true
			}
		}
		if seen {
			withUnsupported++
		}
	}
	ok := len(paths) - len(failed)
	rate := float64(ok) / float64(len(paths)) * 100
	t.Logf("SV-COMP: %d/%d programs translated (%.1f%%), %d with Unsupported edges", ok, len(paths), rate, withUnsupported)
	var kinds []string
	for k, n := range unsupported {
		kinds = append(kinds, fmt.Sprintf("%s ×%d", k, n))
	}
	sort.Strings(kinds)
	if len(kinds) > 0 {
		t.Logf("Unsupported edges: %s", strings.Join(kinds, ", "))
	}
	for _, f := range failed {
		t.Logf("failed: %s", f)
	}
	if rate < 98 {
		t.Errorf("translation rate %.1f%% < 98%%", rate)
	}
}
