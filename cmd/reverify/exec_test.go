package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// execSites lists, per source file that imports os/exec, the programs it
// runs (exec.Command, exec.CommandContext, exec.LookPath), whether
// `reverify action` runs them, and why. Programs the Action runs must come
// with the Debian package that provides them (actionPackages), installed
// by the Dockerfile's runtime stage.
var execSites = []struct {
	file     string
	programs []string
	action   bool
	why      string
}{
	{"diffslice/git.go", []string{"git"}, true, "the definitions a change touches, the base revision's files, fetching the base of a shallow checkout"},
	{"cmd/reverify/main.go", []string{"cc", "gcc"}, true, "the host C compiler, whose predefined macros and include paths the C front end reads (modernc.org/cc/v4 runs it)"},
	{"clangir/clangir.go", []string{"clang", "llvm-dis", "llvm-link"}, true, "the LLVM front end (.ll and .bc inputs, --frontend clang, the Action's input frontend: clang)"},
	{"report/artifacts/reproducer.go", []string{"gcc", "clang"}, false, "reverify reproduce builds a reproducer; the Action writes reproducers and does not build them"},
	{"report/reproducer/run.go", []string{"qemu-i386"}, false, "runs a built reproducer (reverify reproduce), under qemu-i386 where the kernel refuses i386 programs"},
	{"report/bench/run.go", nil, false, "reverify bench runs reverify itself under limits"},
	{"solverproc/solverproc.go", nil, true, "bmc's one-shot checks and its Horn engine run reverify itself as their solver process (killed at the deadline, bounded in memory; Z3 4.8.12's Spacer can crash)"},
	{"report/bench/peers.go", []string{"frama-c", "cbmc"}, false, "reverify bench --peer"},
	{"internal/difftest/run.go", []string{"gcc", "qemu-i386"}, false, "the differential test against gcc"},
}

// actionPackages are the Debian packages that provide the programs
// `reverify action` runs.
var actionPackages = map[string]string{
	"git": "git",
	"cc":  "gcc", // /usr/bin/cc is gcc's alternative
	"gcc": "gcc",
	// Debian's clang and llvm packages provide the unversioned names
	"clang":     "clang",
	"llvm-dis":  "llvm",
	"llvm-link": "llvm",
}

// TestRuntimeImagePrograms: every non-test Go file that imports os/exec
// is in execSites, every program named by a string literal at an exec
// call in it is listed there, and every program `reverify action` runs is
// installed by the Dockerfile's runtime stage (its Debian package in an
// apt-get install line). A new exec site fails here until it is
// classified; one the Action runs, until the image has its program.
func TestRuntimeImagePrograms(t *testing.T) {
	root := filepath.Join("..", "..")
	listed := map[string]map[string]bool{}
	for _, s := range execSites {
		listed[s.file] = map[string]bool{}
		for _, p := range s.programs {
			listed[s.file][p] = true
		}
	}
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		name := execImport(f)
		if name == "" {
			return nil
		}
		found[rel] = true
		if listed[rel] == nil {
			t.Errorf("%s imports os/exec but is not in execSites: list the programs it runs and whether reverify action runs them", rel)
			return nil
		}
		for _, p := range execLiterals(f, name) {
			if !listed[rel][p] {
				t.Errorf("%s runs %q, which execSites does not list for it", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range execSites {
		if !found[s.file] {
			t.Errorf("execSites lists %s, which does not import os/exec (or is gone)", s.file)
		}
	}

	stages, _ := readDockerfile(t)
	if len(stages) == 0 {
		t.Fatal("Dockerfile has no stage")
	}
	installed := map[string]bool{}
	installRE := regexp.MustCompile(`apt-get install ([^&;|]*)`)
	for _, run := range stages[len(stages)-1].runs {
		for _, m := range installRE.FindAllStringSubmatch(run, -1) {
			for _, w := range strings.Fields(m[1]) {
				if !strings.HasPrefix(w, "-") {
					installed[w] = true
				}
			}
		}
	}
	var missing []string
	for _, s := range execSites {
		if !s.action {
			continue
		}
		for _, p := range s.programs {
			pkg, ok := actionPackages[p]
			switch {
			case !ok:
				t.Errorf("reverify action runs %s (%s), which actionPackages maps to no Debian package", p, s.file)
			case !installed[pkg]:
				missing = append(missing, pkg+" (for "+p+")")
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the Dockerfile's runtime stage does not install %s; it installs %v", strings.Join(missing, ", "), installed)
	}
}

// execImport returns the name under which f imports os/exec ("" when it
// does not).
func execImport(f *ast.File) string {
	for _, imp := range f.Imports {
		if imp.Path.Value != `"os/exec"` {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return "exec"
	}
	return ""
}

// execLiterals returns the program names given as string literals to
// exec.Command, exec.CommandContext (after the context) and exec.LookPath
// in f, where pkg is os/exec's name in f.
func execLiterals(f *ast.File, pkg string) []string {
	var progs []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); !ok || id.Name != pkg {
			return true
		}
		arg := 0
		switch sel.Sel.Name {
		case "Command", "LookPath":
		case "CommandContext":
			arg = 1
		default:
			return true
		}
		if len(call.Args) <= arg {
			return true
		}
		if lit, ok := call.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				progs = append(progs, s)
			}
		}
		return true
	})
	return progs
}
