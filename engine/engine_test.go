package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// wantRE matches expectations on assertion lines, in the manner of
// x/tools' analysistest: `// want VERDICT` or `// want VERDICT "reason"`.
var wantRE = regexp.MustCompile(`// want (TRUE|FALSE|UNKNOWN|NOT_CHECKED)(?: "([^"]*)")?`)

type want struct {
	verdict engine.Verdict
	reason  string
}

// TestVerdicts verifies every program in testdata/verdicts under each
// configuration and compares each property's verdict with the `// want`
// comment on its line: missing and unexpected properties both fail.
// UNKNOWN is acceptable where TRUE or FALSE is wanted only for
// configurations listed as incomplete for that file.
func TestVerdicts(t *testing.T) {
	files, _ := filepath.Glob("testdata/verdicts/*.c")
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	for _, config := range []string{"value"} {
		for _, file := range files {
			t.Run(config+"/"+filepath.Base(file), func(t *testing.T) {
				checkFile(t, file, config)
			})
		}
	}
}

func checkFile(t *testing.T, file, config string) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wants := map[int]want{}
	for i, line := range strings.Split(string(src), "\n") {
		if m := wantRE.FindStringSubmatch(line); m != nil {
			wants[i+1] = want{engine.Verdict(m[1]), m[2]}
		}
	}
	prog, err := frontend.Translate(frontend.Config{}, file)
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	props := spec.Properties(prog, "main")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	results, err := engine.Verify(ctx, prog, props, engine.Config{Name: config, Timeout: 20 * time.Second, Solver: z3.Factory})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range results {
		line := r.Property.Pos.Line
		seen[line] = true
		w, ok := wants[line]
		if !ok {
			t.Errorf("%s:%d: unexpected property %s: %s (%s)", file, line, r.Property.ID, r.Verdict, r.Reason)
			continue
		}
		if r.Verdict != w.verdict || !strings.Contains(r.Reason, w.reason) {
			t.Errorf("%s:%d: %s: got %s (%s), want %s %q", file, line, r.Property.ID, r.Verdict, r.Reason, w.verdict, w.reason)
		}
		if r.Verdict == engine.False && len(r.Counterexample) == 0 {
			t.Errorf("%s:%d: FALSE without a counterexample", file, line)
		}
	}
	for line, w := range wants {
		if !seen[line] {
			t.Errorf("%s:%d: no property found, want %s", file, line, w.verdict)
		}
	}
}

// TestNoProperties checks that a program without assertions yields none
// (the command line reports that loudly).
func TestNoProperties(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Config{Defines: map[string]string{"NDEBUG": ""}}, []frontend.Source{{Name: "t.c", Content: `
#ifdef NDEBUG
#define assert(x) ((void)0)
#endif
int main(void) { int x = 1; assert(x == 1); return 0; }`}})
	if err != nil {
		t.Fatal(err)
	}
	if props := spec.Properties(prog, "main"); len(props) != 0 {
		t.Errorf("got %d properties under NDEBUG, want 0", len(props))
	}
}

// TestBadConfig checks the errors Verify returns for bad configurations.
func TestBadConfig(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Config{}, []frontend.Source{{Name: "t.c", Content: `int main(void) { return 0; }`}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cfg  engine.Config
		want string
	}{
		{engine.Config{Name: "nonsense", Solver: z3.Factory}, `unknown configuration "nonsense"`},
		{engine.Config{Entry: "start", Solver: z3.Factory}, `entry function "start" has no body`},
		{engine.Config{}, "no SMT solver"},
	} {
		_, err := engine.Verify(context.Background(), prog, nil, tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Verify(%+v) error = %v, want %q", tt.cfg.Name, err, tt.want)
		}
	}
}
