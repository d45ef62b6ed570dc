package frontend

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// archive is a tiny txtar: a comment, then sections introduced by lines
// "-- name --".
type archive struct {
	comment string
	files   []Source
}

func parseArchive(data string) archive {
	var a archive
	cur := -1
	var b strings.Builder
	flush := func() {
		if cur < 0 {
			a.comment = b.String()
		} else {
			a.files[cur].Content = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		l := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && len(l) > 6 {
			flush()
			a.files = append(a.files, Source{Name: strings.TrimSpace(l[3 : len(l)-3])})
			cur = len(a.files) - 1
			continue
		}
		b.WriteString(line)
	}
	flush()
	return a
}

// goldenCase translates the sources of a testdata/golden/*.txtar archive.
// A "config" section holds options, one per line: "datamodel ILP32",
// "define NAME=VALUE", "include DIR", "show vars", "show defs",
// "show text" (edge texts and ranges), "show externals", "malloc
// may-fail" or "malloc never-fails" (Options.Malloc).
func goldenCase(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := parseArchive(string(data))
	var cfg Options
	show := map[string]bool{}
	var srcs []Source
	for _, f := range a.files {
		if f.Name != "config" {
			srcs = append(srcs, f)
			continue
		}
		for _, line := range strings.Split(f.Content, "\n") {
			fs := strings.Fields(line)
			if len(fs) < 2 {
				continue
			}
			switch fs[0] {
			case "datamodel":
				if cfg.DataModel, err = cfa.ParseDataModel(fs[1]); err != nil {
					t.Fatal(err)
				}
			case "define":
				if cfg.Defines == nil {
					cfg.Defines = map[string]string{}
				}
				n, v, _ := strings.Cut(fs[1], "=")
				cfg.Defines[n] = v
			case "include":
				cfg.IncludeDirs = append(cfg.IncludeDirs, fs[1])
			case "malloc":
				cfg.Malloc = map[string]MallocMode{"may-fail": MallocMayFail, "never-fails": MallocNeverFails}[fs[1]]
			case "show":
				show[fs[1]] = true
			}
		}
	}
	p, err := TranslateSources(cfg, srcs)
	if err != nil {
		return "error:\n" + err.Error() + "\n"
	}
	if err := p.Check(); err != nil {
		t.Errorf("%s: sanity check: %v", path, err)
	}
	var b strings.Builder
	b.WriteString(p.Text())
	if show["vars"] {
		b.WriteString("\n-- vars --\n")
		for _, v := range p.Vars {
			var flags []string
			for _, f := range []struct {
				on   bool
				name string
			}{{v.Global, "global"}, {v.Param, "param"}, {v.Temp, "temp"}, {v.Volatile, "volatile"}, {v.AddrTaken, "addr"}} {
				if f.on {
					flags = append(flags, f.name)
				}
			}
			fmt.Fprintf(&b, "%s %s orig=%q %s @%s\n", v.QualName(), v.T, v.Orig, strings.Join(flags, ","), v.Pos)
		}
	}
	if show["externals"] {
		b.WriteString("\n-- externals --\n")
		for _, n := range sortedKeys(p.Externals) {
			fmt.Fprintf(&b, "%s %s\n", n, p.Externals[n])
		}
	}
	if show["text"] {
		b.WriteString("\n-- edges --\n")
		for _, f := range append([]*cfa.Function{p.Init}, p.Funcs...) {
			for _, l := range f.Locs {
				for _, e := range l.Out {
					fmt.Fprintf(&b, "%s %s: %s  [%s-%d:%d] %q\n", f.Name, e, e.Op, e.Pos.Start, e.Pos.End.Line, e.Pos.End.Col, e.Text)
				}
			}
		}
	}
	if show["defs"] {
		b.WriteString("\n-- defs --\n")
		for _, d := range p.Defs {
			fmt.Fprintf(&b, "%s %s %s:%d-%d %s\n", d.Kind, d.Name, d.File, d.Line, d.EndLine, d.Fingerprint[:12])
		}
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestGolden compares the CFA text of every testdata/golden/*.txtar with
// its .golden file (go test -update rewrites them; review the diff: the
// golden files are the specification).
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			got := goldenCase(t, path)
			gpath := strings.TrimSuffix(path, ".txtar") + ".golden"
			if *update {
				if err := os.WriteFile(gpath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gpath)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s: CFA differs from %s:\n%s", path, gpath, diff(string(want), got))
			}
		})
	}
}

// diff is a minimal line diff for test failures.
func diff(want, got string) string {
	w := strings.Split(want, "\n")
	g := strings.Split(got, "\n")
	var b strings.Builder
	i, j := 0, 0
	for i < len(w) || j < len(g) {
		switch {
		case i < len(w) && j < len(g) && w[i] == g[j]:
			i++
			j++
		case j < len(g) && (i >= len(w) || !contains(w[i:], g[j])):
			fmt.Fprintf(&b, "+ %s\n", g[j])
			j++
		default:
			fmt.Fprintf(&b, "- %s\n", w[i])
			i++
		}
	}
	return b.String()
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
