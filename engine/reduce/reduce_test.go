package reduce_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/reduce"
	"github.com/reverify/reverify/engine/spec"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar")

// sections splits a txtar archive into its comment and "-- name --"
// sections, in order.
func sections(data string) (comment string, names []string, bodies map[string]string) {
	bodies = map[string]string{}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur == "" {
			comment = b.String()
		} else {
			bodies[cur] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		l := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && len(l) > 6 {
			flush()
			cur = strings.TrimSpace(l[3 : len(l)-3])
			names = append(names, cur)
			continue
		}
		b.WriteString(line)
	}
	flush()
	return comment, names, bodies
}

// passByName returns the named pass ("slice", "constprop", "deadbranch",
// "compact").
func passByName(t *testing.T, name string, g *pdg.SDG) reduce.Pass {
	switch name {
	case "slice":
		return reduce.SlicePass(g)
	case "constprop":
		return reduce.ConstPass
	case "deadbranch":
		return reduce.DeadBranchPass
	case "compact":
		return reduce.CompactPass
	case "inline":
		return reduce.InlinePass
	case "thin":
		return reduce.ThinSlicePass(g, nil)
	case "value":
		return reduce.ValueSlicePass(g, nil)
	}
	t.Fatalf("unknown pass %q", name)
	return reduce.Pass{}
}

// TestGolden reduces src.c of every testdata/*.txtar for each property
// with the passes listed in the archive's comment ("passes: slice
// constprop", default all), compacting and running the CFA sanity
// checker after each, and compares the sizes and the reduced program's
// text with the want section (-update rewrites it).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			comment, _, bodies := sections(string(data))
			src, ok := bodies["src.c"]
			if !ok {
				t.Fatal("no src.c section")
			}
			names := []string{"slice", "constprop", "deadbranch"}
			for _, line := range strings.Split(comment, "\n") {
				if rest, ok := strings.CutPrefix(line, "passes:"); ok {
					names = strings.Fields(rest)
				}
			}
			prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "src.c", Content: src}})
			if err != nil {
				t.Fatal(err)
			}
			g := pdg.Build(prog)
			before := prog.Text()
			var out strings.Builder
			props := spec.Properties(prog, "main")
			spec.SortByPos(props)
			for _, prop := range props {
				var passes []reduce.Pass
				for _, n := range names {
					passes = append(passes, passByName(t, n, g), reduce.CompactPass)
				}
				r := reduce.Reduce(prog, reduce.Target{ErrorEdges: prop.ErrorEdges, Via: prop.Via, Entry: "main"}, passes)
				if err := r.Prog.Check(); err != nil {
					t.Fatalf("%s: CFA sanity after the passes: %v", prop.ID, err)
				}
				fmt.Fprintf(&out, "property %s: %s\n", prop.ID, r.Before)
				for i := 0; i < len(r.Steps); i += 2 {
					fmt.Fprintf(&out, "  %s: %s\n", r.Steps[i].Pass, r.Steps[i+1].Size)
				}
				fmt.Fprintf(&out, "  error edges %d\n", len(r.Target.ErrorEdges))
				for _, e := range r.Target.ErrorEdges {
					fmt.Fprintf(&out, "    %s: %s\n", e.From.Func.Name, e)
				}
				out.WriteString(r.Prog.Text())
				out.WriteString("\n")
			}
			if prog.Text() != before {
				t.Fatal("Reduce changed the original program")
			}
			got := out.String()
			if *update {
				i := strings.Index(string(data), "-- want --\n")
				if i < 0 {
					data = append(data, "-- want --\n"...)
					i = len(data) - len("-- want --\n")
				}
				if err := os.WriteFile(file, append(data[:i:i], "-- want --\n"+got...), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := bodies["want"]; got != want {
				t.Errorf("reduced program differs (-update rewrites):\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

// TestSanityAfterEachPass runs every pass alone (with compaction) on
// every program of engine/testdata/verdicts and checks the CFA sanity
// of the result. The fast tier (go test -short) takes every fourth
// program.
func TestSanityAfterEachPass(t *testing.T) {
	files, _ := filepath.Glob("../testdata/verdicts/*.c")
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	for i, file := range files {
		if testing.Short() && i%4 != 0 {
			continue
		}
		prog, err := frontend.Translate(frontend.Options{}, file)
		if err != nil {
			t.Fatal(err)
		}
		g := pdg.Build(prog)
		for _, prop := range spec.Properties(prog, "main") {
			for _, n := range []string{"slice", "constprop", "deadbranch", "compact", "inline", "thin", "value"} {
				r := reduce.Reduce(prog, reduce.Target{ErrorEdges: prop.ErrorEdges, Via: prop.Via, Entry: "main"}, []reduce.Pass{passByName(t, n, g), reduce.CompactPass})
				if err := r.Prog.Check(); err != nil {
					t.Errorf("%s %s after %s: %v", filepath.Base(file), prop.ID, n, err)
				}
			}
			r := reduce.Reduce(prog, reduce.Target{ErrorEdges: prop.ErrorEdges, Via: prop.Via, Entry: "main"}, reduce.Passes(reduce.Full, g))
			if err := r.Prog.Check(); err != nil {
				t.Errorf("%s %s after the full pipeline: %v", filepath.Base(file), prop.ID, err)
			}
		}
	}
}
