package reproduce

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/witnesstest"
	"github.com/reverify/reverify/results"
)

// TestReproducerExternObjects: the FALSE verdicts of
// testdata/verdicts/extern_outside.c that depend on objects declared
// extern and defined by no source (config_value, table) or defined
// weakly (weak_limit) get reproducers that define the objects with the
// counterexample's values (a strong definition overrides the weak one)
// and reach the reported assertion (exit 77), in both data models.
// Another value of config_value does not reach it. The program also
// calls get_handler, a function without a body the counterexamples do
// not call; it is linked from a file of its own, as a user links the
// program's other objects.
func TestReproducerExternObjects(t *testing.T) {
	file, err := filepath.Abs(filepath.Join("..", "..", "testdata", "verdicts", "extern_outside.c"))
	if err != nil {
		t.Fatal(err)
	}
	const stub = "typedef void (*fp_t)(void);\nfp_t get_handler(void) { return 0; }\n"
	for _, dm := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		for _, tc := range []struct {
			name string
			line int
			vals []uint64 // config_value, table[0], table[1], weak_limit, which's declaration, which
			want []string
		}{
			{"config_value", 30, []uint64{1, 0, 0, 3, 0, 0}, []string{"int config_value = "}},
			{"table", 32, []uint64{0, 0, 5, 3, 0, 1}, []string{"int table[2] = {\n\t[0] = ", "\t[1] = 5,\n};", "_Static_assert(sizeof table == 8"}},
			{"weak_limit", 42, []uint64{0, 0, 0, 4, 0, 4}, []string{"int weak_limit = "}},
		} {
			t.Run(dm.String()+"/"+tc.name, func(t *testing.T) {
				p, err := frontend.Translate(frontend.Options{DataModel: dm}, file)
				if err != nil {
					t.Fatal(err)
				}
				v := pathViolation(t, p, file, tc.vals, true)
				line := 0
				for _, s := range v.Path {
					if s.Kind == cfa.Enter && s.Callee != nil && s.Callee.Name == "__VERIFIER_assert" {
						line = s.Edge.Pos.Start.Line
					}
				}
				if line != tc.line {
					t.Fatalf("the run fails the assertion on line %d, want %d", line, tc.line)
				}
				harness, err := Reproducer(v)
				if err != nil {
					t.Fatal(err)
				}
				for _, want := range tc.want {
					if !strings.Contains(harness, want) {
						t.Errorf("harness lacks %q", want)
					}
				}
				// the values the counterexample needs
				if not, ok := map[int]string{30: "int config_value = 0;", 42: "int weak_limit = 3;"}[tc.line]; ok && strings.Contains(harness, not) {
					t.Errorf("harness has %q", not)
				}
				needGCC(t, dm)
				code, stderr := runFiles(t, dm, []string{file}, stub, harness)
				if code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
					t.Fatalf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
				}
				if tc.line == 30 {
					// config_value 0: the assertion holds
					wrong := regexp.MustCompile(`int config_value = [^;]*;`).ReplaceAllString(harness, "int config_value = 0;")
					if code, stderr := runFiles(t, dm, []string{file}, stub, wrong); code != 0 || strings.Contains(stderr, ReachedMarker) {
						t.Errorf("config_value 0: exit %d, stderr %q", code, stderr)
					}
				}
			})
		}
	}
}

// TestReproducerExternAggregates: extern structs and arrays are defined
// by the harness with their declared layout, from the counterexample's
// values of their scalars: a struct of natural layout (nested struct
// array, long long members, which ILP32 aligns to 4, a const object)
// with designated initializers, a two-dimensional array, and a packed
// struct as its bytes; in both data models the reproducer reaches the
// assertion, also for a program in CBMC's dialect. An extern pointer
// is refused, with the reason.
func TestReproducerExternAggregates(t *testing.T) {
	const src = `#include <assert.h>
struct pt { short x; long long y; char tag[3]; };
struct cfg { int mode; struct pt pts[2]; unsigned char flags[4]; };
struct __attribute__((packed)) pk { char a; int b; _Bool c; unsigned short d; };
extern const struct cfg settings;
extern struct pk bits;
extern long counts[2][3];
int main(void) {
  if (settings.mode == 3 && settings.pts[1].y == -5 && settings.pts[0].tag[2] == 'z' && settings.flags[3] == 200)
    if (bits.a == 6 && bits.b == -7 && bits.c && bits.d == 300 && counts[1][2] == -9 && counts[0][0] == 0)
      assert(settings.pts[1].x != 77);
  return 0;
}
`
	for _, dm := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		t.Run(dm.String(), func(t *testing.T) {
			p, err := frontend.TranslateSources(frontend.Options{DataModel: dm}, []frontend.Source{{Name: "u.c", Content: src}})
			if err != nil {
				t.Fatal(err)
			}
			// the inputs in the order of the objects' declarations, the
			// scalars of each in cfa.HavocInputs's order
			neg := func(x uint64) uint64 { return -x }
			vals := []uint64{
				// settings: mode, pts[0] {x, y, tag[0..2]}, pts[1] {…}, flags[0..3]
				3, 1, 2, 'a', 'b', 'z', 77, neg(5), 0, 0, 0, 0, 0, 0, 200,
				// bits: a, b, c, d
				6, neg(7), 1, 300,
				// counts
				0, 0, 0, 0, 0, neg(9),
			}
			v := pathViolation(t, p, "u.c", vals, false)
			v.Task.Contents = map[string]string{"u.c": src}
			harness, err := Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				"const struct {\n\tint mode;\n\tstruct {\n\t\tshort x;\n\t\tlong long y;\n\t\tsigned char tag[3];\n\t} pts[2];",
				"\t.pts[1].x = 77,\n\t.pts[1].y = -5,\n",
				"\t.flags[3] = 200,\n",
				"long long counts[2][3] = {", // long is 32 bits in ILP32: int there
				"\t[1][2] = -9,\n",
				"unsigned char bits[8] __attribute__((aligned(1))) = {\n\t0x06, 0xf9, 0xff, 0xff, 0xff, 0x01, 0x2c, 0x01,\n};",
				" *   bits.d = 300\n",
			} {
				if dm == cfa.ILP32 {
					want = strings.Replace(want, "long long counts", "int counts", 1)
				}
				if !strings.Contains(harness, want) {
					t.Errorf("harness lacks %q", want)
				}
			}
			needGCC(t, dm)
			code, stderr := runFiles(t, dm, nil, src, harness)
			if code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Fatalf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
			}
		})
	}

	// CBMC's dialect: the definitions are in the harness's own part, not
	// in what the build force-includes into the program
	const cbmc = `extern int __VERIFIER_nondet_int(void);
extern int limit;
extern unsigned char buf[4];
int main(void) {
  int n = __VERIFIER_nondet_int();
  __CPROVER_assume(n >= 0 && n < 4);
  __CPROVER_assert(buf[n] != limit, "buf[n] differs from limit");
  return 0;
}
`
	t.Run("cbmc", func(t *testing.T) {
		p, err := frontend.TranslateSources(frontend.Options{DataModel: cfa.LP64}, []frontend.Source{{Name: "u.c", Content: cbmc}})
		if err != nil {
			t.Fatal(err)
		}
		if !p.CBMC {
			t.Fatal("not translated as CBMC's dialect")
		}
		// limit, buf[0..3], n's declaration, n
		v := pathViolation(t, p, "u.c", []uint64{7, 0, 0, 7, 0, 0, 2}, true)
		harness, err := Reproducer(v)
		if err != nil {
			t.Fatal(err)
		}
		if i, j := strings.Index(harness, "#else"), strings.Index(harness, "unsigned char buf[4] = {"); i < 0 || j < i {
			t.Errorf("buf is not defined in the harness's own part:\n%s", harness)
		}
		needGCC(t, cfa.LP64)
		if code, stderr := runFiles(t, cfa.LP64, nil, cbmc, harness); code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
			t.Fatalf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
		}
	})

	const ptr = `extern void reach_error(void);
extern int *ptr;
int main(void) {
  if (ptr == 0) reach_error();
  return 0;
}
`
	p := witnesstest.Translate(t, cfa.LP64, "u.c", ptr)
	path, inputs, reached := witnesstest.Execute(t, p, "main", []uint64{0}, witnesstest.ExecOpts{})
	if !reached {
		t.Fatal("no violation")
	}
	_, err := Reproducer(&witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{Contents: map[string]string{"u.c": ptr}}})
	if err == nil || !strings.Contains(err.Error(), "extern ptr, which holds a pointer (ptr)") {
		t.Errorf("extern pointer: error %v", err)
	}
}

// pathViolation runs p from main with vals to the error and returns the
// counterexample: with the inputs smt.CheckPath gives the path (withSMT),
// else with vals as the inputs of the path's Havoc steps in order (for
// paths SMT does not encode, such as bit-fields).
func pathViolation(t *testing.T, p *cfa.Program, file string, vals []uint64, withSMT bool) *witness.Violation {
	t.Helper()
	tr, err := interp.Run(context.Background(), p, "main", append(append([]uint64{}, vals...), make([]uint64, 16)...), interp.Options{})
	if err != nil || tr.Stop != interp.ReachedError {
		t.Fatalf("run: %v (%s), %v", tr.Stop, tr.Reason, err)
	}
	v := &witness.Violation{Program: p, Path: tr.Steps, Task: witness.Task{Files: []string{file}, DataModel: p.DataModel}}
	if withSMT {
		r, err := smt.CheckPath(context.Background(), smt.NewBuilder(), z3.Factory, p, tr.Steps)
		if err != nil || r.Status != smt.Sat {
			t.Fatalf("CheckPath = %v %v (%s)", r.Status, err, r.Reason)
		}
		for _, in := range r.Inputs {
			v.Inputs = append(v.Inputs, results.NewInput(in.Source, in.Type, in.Value, in.Step, tr.Steps))
		}
		return v
	}
	k := 0
	for i, s := range tr.Steps {
		if s.Edge == nil || k == len(vals) {
			continue
		}
		if h, ok := s.Edge.Op.(*cfa.Havoc); ok {
			ht := h.LHS.Type()
			v.Inputs = append(v.Inputs, results.NewInput(h.Source, ht, cfa.Truncate(vals[k], ht.Width()), i, tr.Steps))
			k++
		}
	}
	return v
}

// runFiles compiles the program's files (and, with src, the program u.c
// of that text; with files, src is another file of the program) with the
// harness per BuildLine and runs the result: its exit status and stderr.
func runFiles(t *testing.T, dm cfa.DataModel, files []string, src, harness string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	name := "u.c"
	if len(files) > 0 {
		name = "other.c"
	}
	other, repro, exe := filepath.Join(dir, name), filepath.Join(dir, "reproducer.c"), filepath.Join(dir, "repro")
	os.WriteFile(other, []byte(src), 0o644)
	os.WriteFile(repro, []byte(harness), 0o644)
	argv := BuildLine(dm, append(files, other), repro, exe, BuildFlags(harness)...)
	if out, err := exec.Command(argv[0], append(argv[1:], "-Wall", "-Wno-main")...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s\n--- harness:\n%s", strings.Join(argv, " "), err, out, harness)
	} else if bytes.Contains(out, []byte("reproducer.c")) {
		t.Errorf("warnings in the harness:\n%s", out)
	}
	var stderr bytes.Buffer
	code, _, err := RunReproducer(context.Background(), exe, nil, nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

// TestExternBitFields: an extern struct with bit-fields (whose declared
// storage types the analysis does not keep) is defined as its bytes, the
// bit-fields at the analysis's bit offsets, a long double's value as an
// x87 number: linked with a program that compares the members with the
// values, in both data models, it exits 0.
func TestExternBitFields(t *testing.T) {
	const src = `struct bf { unsigned a : 3; int b : 5; _Bool c; unsigned short d : 9; int e : 20; long double f; };
extern struct bf bits;
int main(void) {
  return !(bits.a == 6 && bits.b == -7 && bits.c && bits.d == 300 && bits.e == -123456 && bits.f == -2.5L);
}
`
	for _, dm := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		t.Run(dm.String(), func(t *testing.T) {
			p, err := frontend.TranslateSources(frontend.Options{DataModel: dm}, []frontend.Source{{Name: "u.c", Content: src}})
			if err != nil {
				t.Fatal(err)
			}
			objs, err := externObjects(p)
			if err != nil || objs["bits"] == nil {
				t.Fatalf("externObjects: %v %v", objs, err)
			}
			vals := map[string]uint64{".a": 6, ".b": uint64(1<<5 - 7), ".c": 1, ".d": 300, ".e": uint64(-123456 & (1<<20 - 1)), ".f": math.Float64bits(-2.5)}
			for _, s := range objs["bits"].scalars {
				v, ok := vals[s.desig]
				if !ok {
					t.Fatalf("scalar %s", s.desig)
				}
				s.bits, s.set = v, true
			}
			defs, err := externDefs(objs)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(defs, "unsigned char bits[") || !strings.Contains(defs, " *   bits.d = 300\n") {
				t.Errorf("definition:\n%s", defs)
			}
			needGCC(t, dm)
			dir := t.TempDir()
			prog, def, exe := filepath.Join(dir, "u.c"), filepath.Join(dir, "defs.c"), filepath.Join(dir, "u")
			os.WriteFile(prog, []byte(src), 0o644)
			os.WriteFile(def, []byte(defs), 0o644)
			argv := BuildLine(dm, []string{prog}, def, exe)
			if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
			}
			code, _, err := RunReproducer(context.Background(), exe, nil, nil, nil)
			if err != nil || code != 0 {
				t.Errorf("exit %d, %v\n%s", code, err, defs)
			}
		})
	}
}
