package reverify

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// This file states the package policy of doc/DESIGN.md ("Layering") and
// fails on every import or call the policy does not allow, in production
// and test files (white-box and black-box) alike. Each exception is listed
// with its reason, and an exception that no longer occurs fails the test
// as well: the exception lists are the to-do of making cmd wiring only.

const module = "github.com/reverify/reverify/"

// layer gives every package directory of the module its layer. A package
// may import the packages of lower layers, and a package of its own layer
// only where peers (or, in test files, testPeers) lists the pair. A
// package missing here, or a listed one that no longer exists, fails the
// test. The root package (the module's doc.go and this test) has no layer
// and may import no package of the module.
var layer = map[string]int{
	"engine/graph":               0,
	"engine/timeslice":           0,
	"engine/ctext":               0,
	"engine/cfa":                 1,
	"engine/features":            2,
	"engine/cfa/csem":            1,
	"engine/cfa/cfatest":         1,
	"results":                    1,
	"engine/contract":            1,
	"engine/frontend":            2,
	"engine/llvmir":              2,
	"engine/spec":                2,
	"engine/harness":             2,
	"engine/pdg":                 2,
	"engine/reduce":              2,
	"engine/smt":                 2,
	"engine/smt/z3":              2,
	"engine/interp":              2,
	"engine/cpa":                 3,
	"engine/analysis/callstack":  4,
	"engine/analysis/location":   4,
	"engine/analysis/property":   4,
	"engine/analysis/slicing":    4,
	"engine/analysis/symbolic":   4,
	"engine/analysis/value":      4,
	"engine/analysis/predicate":  4,
	"engine/analysis/cpatest":    4,
	"engine/cegar":               5,
	"engine/kinduction":          5,
	"engine/bmc":                 5,
	"engine/witness":             5,
	"engine/witness/validate":    5,
	"engine/witness/reproduce":   5,
	"engine/witness/witnesstest": 5,
	"engine/scope":               5,
	"engine/strategy":            5,
	"engine":                     6,
	"diffslice":                  7,
	"proofs":                     7,
	"library":                    7,
	"clangir":                    7,
	"report/artifacts":           8,
	"report/bench":               8,
	"report/github":              8,
	"report/github/githubfake":   8,
	"report/markdown":            8,
	"report/pixeltree":           8,
	"report/reproducer":          8,
	"report/scopegraph":          8,
	"report/sarif":               8,
	"cmd/reverify":               9,
	"internal/difftest":          10,
}

// peers lists the imports allowed between two packages of one layer
// (importer, imported) with the reason; they hold in every file.
var peers = map[[2]string]string{
	{"engine/cfa/csem", "engine/cfa"}:                        "csem computes on cfa's integer types",
	{"engine/cfa/cfatest", "engine/cfa"}:                     "cfatest builds cfa programs for tests",
	{"engine/contract", "engine/cfa"}:                        "contracts are checked and used by instrumenting the CFA the front end built",
	{"results", "engine/cfa"}:                                "counterexample inputs have C types and steps, invariants are CFA expressions at CFA locations",
	{"engine/reduce", "engine/pdg"}:                          "the slice pass keeps pdg's backward slice of the property",
	{"engine/smt/z3", "engine/smt"}:                          "z3 implements smt's solver interfaces",
	{"engine/analysis/symbolic", "engine/analysis/value"}:    "a symbolic state extends a value state and its precision",
	{"engine/analysis/predicate", "engine/analysis/value"}:   "a predicate state holds the memory of a value state in symbolic mode",
	{"engine/analysis/cpatest", "engine/analysis/callstack"}: "the test builder composes analyses",
	{"engine/analysis/cpatest", "engine/analysis/location"}:  "the test builder composes analyses",
	{"engine/analysis/cpatest", "engine/analysis/property"}:  "the test builder composes analyses",
	{"engine/analysis/cpatest", "engine/analysis/value"}:     "the test builder composes analyses",
	{"engine/kinduction", "engine/cegar"}:                    "a counterexample of the base case is checked by cegar.CheckPathOpts (SMT and replay)",
	{"engine/bmc", "engine/cegar"}:                           "the execution of a satisfying unrolling is checked by cegar.CheckPathOpts (SMT and replay)",
	{"engine/witness/reproduce", "engine/witness"}:           "the reproducer reads the path as the witness writers do (witness.Trace) and builds on witness.Violation",
	{"engine/witness/validate", "engine/witness"}:            "the validator reads the witness formats and locates waypoints and invariants in the source as the writers place them",
	{"report/github", "report/markdown"}:                     "the sticky comment and the job summary are Markdown",
	{"report/github", "report/sarif"}:                        "SARIF upload and the shared trace text",
	{"report/artifacts", "report/pixeltree"}:                 "a property's artifacts include the pixel tree of its ARG",
	{"report/artifacts", "report/scopegraph"}:                "a property's artifacts include the picture of its scope",
	{"report/artifacts", "report/reproducer"}:                "BuildAndRun runs the compiled reproducer with reproducer.Run",
	{"diffslice", "clangir"}:                                 "a revision read with the clang front end is compiled by clang",
}

// testPeers lists imports between two packages of one layer that occur
// in test files only, with the reason.
var testPeers = map[[2]string]string{
	{"engine/analysis/location", "engine/analysis/callstack"}:  "tests run location × callstack",
	{"engine/analysis/slicing", "engine/analysis/value"}:       "tests wrap a value analysis in the slicing CPA",
	{"engine/analysis/symbolic", "engine/analysis/callstack"}:  "tests run the full composite CPA",
	{"engine/analysis/symbolic", "engine/analysis/location"}:   "tests run the full composite CPA",
	{"engine/analysis/symbolic", "engine/analysis/property"}:   "tests run the full composite CPA",
	{"engine/analysis/predicate", "engine/analysis/callstack"}: "tests run the full composite CPA",
	{"engine/analysis/predicate", "engine/analysis/location"}:  "tests run the full composite CPA",
	{"engine/analysis/predicate", "engine/analysis/property"}:  "tests run the full composite CPA",
	{"engine/interp", "engine/smt"}:                            "tests cross-check the interpreter against the SMT encoding",
	{"engine/pdg", "engine/spec"}:                              "tests slice per property",
	{"engine/reduce", "engine/spec"}:                           "tests reduce per property",
	{"engine/bmc", "engine/kinduction"}:                        "the encoder benchmark measures merged paths against k-induction's path enumeration",
	{"engine/witness", "engine/witness/witnesstest"}:           "the writers' tests run programs with the test executor and compare golden files",
	{"engine/witness/reproduce", "engine/witness/witnesstest"}: "the reproducer's tests run programs with the test executor and compare golden files",
	{"engine/witness/validate", "engine/witness/witnesstest"}:  "the validator's tests compare written witnesses with golden files",
}

// testUpward lists imports from test files to a higher layer, with the
// reason (black-box tests are leaves, so they cannot close a cycle, but
// each one is a test that belongs one layer up).
var testUpward = map[[2]string]string{
	{"engine/witness/validate", "engine"}:             "validation and loop-invariant tests produce witnesses with engine.Verify",
	{"engine/witness/reproduce", "report/reproducer"}: "reproducer tests run the compiled harness (the engine runs no processes)",
}

// testSupport lists the packages that any test file may import whatever
// its layer: they build test inputs or stand in for a service.
var testSupport = map[string]string{
	"engine/frontend":          "C source → cfa.Program",
	"engine/smt/z3":            "the solver factory",
	"engine/analysis/cpatest":  "the standard composite CPA run on a test program",
	"report/github/githubfake": "a fake GitHub API server",
}

// only lists third-party imports confined to one package (prefix match
// on whole path elements), in every file.
var only = map[string]string{
	"modernc.org/cc":                        "engine/frontend",
	"github.com/aclements/go-z3":            "engine/smt/z3",
	"github.com/google/go-github":           "report/github",
	"github.com/sethvargo/go-githubactions": "report/github",
	"gonum.org/v1/plot":                     "report/bench",
	"github.com/llir/llvm":                  "engine/llvmir",
}

// cmdFacades lists what cmd/reverify may import from the module: the
// facades and the solver factory it injects (a prefix ending in "/"
// admits every package below it).
var cmdFacades = []string{"engine", "diffslice", "proofs", "library", "clangir", "results", "engine/smt/z3", "report/"}

// cmdDeep lists today's imports of cmd/reverify past the facades, with
// what cmd uses them for; making cmd wiring only removes them.
var cmdDeep = map[string]string{}

// sysImports are the imports engine/... production files must not have:
// the engine takes programs and configurations and returns results; it
// runs no processes and uses no network (doc/DESIGN.md, "Layering").
// sysCalls are the calls of package os they must not make (reading the
// environment). Test files are exempt: they may compile and run
// reproducers with gcc and read opt-in environment variables.
var (
	sysImports = []string{"os/exec", "net", "net/http"}
	sysCalls   = []string{"Getenv", "LookupEnv", "Environ", "ExpandEnv"}
)

// sysDeep lists today's engine files that break the rule above, keyed by
// file and import path or os call, with the reason.
var sysDeep = map[[2]string]string{}

// hasPrefix reports whether path p is prefix or lies below it.
func hasPrefix(p, prefix string) bool {
	return p == prefix || strings.HasPrefix(p, strings.TrimSuffix(prefix, "/")+"/")
}

// used records which exceptions occurred, to report stale ones.
type used map[string]bool

func TestLayering(t *testing.T) {
	seen := used{}
	dirs := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		path = filepath.ToSlash(path)
		dir := filepath.ToSlash(filepath.Dir(path))
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if dir == "." {
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, module) {
					t.Errorf("%s imports %s; the root package may import no package of the module", path, p)
				}
			}
			return nil
		}
		dirs[dir] = true
		from, ok := layer[dir]
		if !ok {
			t.Errorf("%s: package %s has no layer in layers_test.go", path, dir)
			return nil
		}
		checkFile(t, fset, seen, path, dir, from, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range layer {
		if !dirs[dir] {
			t.Errorf("layers_test.go gives %s a layer, but it has no Go files", dir)
		}
	}
	stale := func(kind string, keys []string) {
		sort.Strings(keys)
		for _, k := range keys {
			if !seen[kind+" "+k] {
				t.Errorf("%s exception %s no longer occurs: delete it from layers_test.go", kind, k)
			}
		}
	}
	var ks []string
	for k := range peers {
		ks = append(ks, k[0]+" → "+k[1])
	}
	stale("peer", ks)
	ks = nil
	for k := range testPeers {
		ks = append(ks, k[0]+" → "+k[1])
	}
	stale("test peer", ks)
	ks = nil
	for k := range testUpward {
		ks = append(ks, k[0]+" → "+k[1])
	}
	stale("test upward", ks)
	ks = nil
	for k := range cmdDeep {
		ks = append(ks, k)
	}
	stale("cmd", ks)
	ks = nil
	for k := range sysDeep {
		ks = append(ks, k[0]+" "+k[1])
	}
	stale("engine system", ks)
}

// checkFile checks the imports and os calls of the file at path, of the
// package in dir at layer from.
func checkFile(t *testing.T, fset *token.FileSet, seen used, path, dir string, from int, f *ast.File) {
	test := strings.HasSuffix(path, "_test.go")
	engine := hasPrefix(dir, "engine")
	osName := ""
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		for prefix, owner := range only {
			if hasPrefix(p, prefix) && dir != owner {
				t.Errorf("%s imports %s; only %s may", path, p, owner)
			}
		}
		if p == "os" {
			osName = "os"
			if imp.Name != nil {
				osName = imp.Name.Name
			}
		}
		if engine && !test {
			for _, bad := range sysImports {
				if p == bad {
					key := [2]string{path, p}
					if _, ok := sysDeep[key]; ok {
						seen["engine system "+key[0]+" "+key[1]] = true
					} else {
						t.Errorf("%s imports %s: engine/... runs no processes and uses no network", path, p)
					}
				}
			}
		}
		if !strings.HasPrefix(p, module) {
			continue
		}
		to := strings.TrimPrefix(p, module)
		if dir == "cmd/reverify" {
			checkCmd(t, seen, path, to)
		}
		tl, ok := layer[to]
		switch {
		case !ok || to == dir:
			// An unknown package is reported for its own files.
		case tl < from:
		case test && testSupport[to] != "":
		case tl == from && peers[[2]string{dir, to}] != "":
			seen["peer "+dir+" → "+to] = true
		case test && tl == from && testPeers[[2]string{dir, to}] != "":
			seen["test peer "+dir+" → "+to] = true
		case test && tl > from && testUpward[[2]string{dir, to}] != "":
			seen["test upward "+dir+" → "+to] = true
		case tl == from:
			t.Errorf("%s (layer %d) imports its peer %s: list the pair with its reason in peers (or testPeers), or import downward only", path, from, to)
		default:
			t.Errorf("%s (layer %d) imports %s (layer %d): imports must point downward", path, from, to, tl)
		}
	}
	if !engine || test || osName == "" || osName == "_" {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != osName {
			return true
		}
		for _, bad := range sysCalls {
			if sel.Sel.Name != bad {
				continue
			}
			key := [2]string{path, "os." + bad}
			if _, ok := sysDeep[key]; ok {
				seen["engine system "+key[0]+" "+key[1]] = true
			} else {
				t.Errorf("%s: os.%s: engine/... does not read the environment; take the value as a parameter", fset.Position(sel.Pos()), bad)
			}
		}
		return true
	})
}

// checkCmd checks one import to of cmd/reverify (in the file at path)
// against cmdFacades and cmdDeep.
func checkCmd(t *testing.T, seen used, path, to string) {
	for _, f := range cmdFacades {
		if to == f || strings.HasSuffix(f, "/") && strings.HasPrefix(to, f) {
			return
		}
	}
	if _, ok := cmdDeep[to]; ok {
		seen["cmd "+to] = true
		return
	}
	t.Errorf("%s imports %s: cmd/reverify wires facades only (%s)", path, to, strings.Join(cmdFacades, ", "))
}

// designRow matches a row of the layer table of doc/DESIGN.md:
// "| layer | `package` | job |".
var designRow = regexp.MustCompile("^\\| *([0-9]+) *\\| *`([^`]+)` *\\|")

// TestDesignMap checks that doc/DESIGN.md's layer table lists every
// package with the layer given here, and no package that does not exist.
func TestDesignMap(t *testing.T) {
	b, err := os.ReadFile("doc/DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		m := designRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		l, _ := strconv.Atoi(m[1])
		doc[m[2]] = l
		if want, ok := layer[m[2]]; !ok {
			t.Errorf("doc/DESIGN.md lists %s, which has no layer in layers_test.go", m[2])
		} else if want != l {
			t.Errorf("doc/DESIGN.md puts %s in layer %d, layers_test.go in layer %d", m[2], l, want)
		}
	}
	for dir := range layer {
		if _, ok := doc[dir]; !ok {
			t.Errorf("doc/DESIGN.md's layer table does not list %s", dir)
		}
	}
}

// TestDocFiles: every package of the module keeps its package comment in
// a doc.go of its own, the first file a reader opens, and no other file
// of the package carries a package comment.
func TestDocFiles(t *testing.T) {
	fset := token.NewFileSet()
	for dir := range layer {
		doc, err := parser.ParseFile(fset, filepath.Join(dir, "doc.go"), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Errorf("%s: no doc.go (%v)", dir, err)
			continue
		}
		if doc.Doc == nil || len(doc.Doc.Text()) < 40 {
			t.Errorf("%s/doc.go: no package comment that says what the package is for", dir)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "doc.go" {
				continue
			}
			pf, err := parser.ParseFile(fset, f, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err == nil && pf.Doc != nil {
				t.Errorf("%s: a package comment outside doc.go", f)
			}
		}
	}
}
