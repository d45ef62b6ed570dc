package engine_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/results"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/reproduce"
)

// TestMemoryReproducersASan verifies programs of testdata/verdicts that
// violate memory safety (LP64), builds each counterexample's reproducer
// with AddressSanitizer (the flags the reproducer itself names) and
// requires the sanitizer to report the violation: the kind of error for
// invalid accesses and frees, a leak for valid-memtrack. (A block still
// reachable at exit, a valid-memcleanup violation only, is no leak to
// LeakSanitizer.) The fast tier (go test -short) runs the first case of
// each property form and violated subproperty.
func TestMemoryReproducersASan(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	covered := map[string]bool{} // property form and violated subproperty
	for _, tt := range []struct {
		file, prop, violated, report string
	}{
		{"memsafety_uaf.c", spec.MemSafetyID, "valid-deref", "heap-use-after-free"},
		// lists of nondeterministic length (list abstraction, analysis/smg, smg_mem.go)
		{"memsafety_list_uaf.c", spec.MemSafetyID, "valid-deref", "heap-use-after-free"},
		{"memsafety_list_sizes.c", spec.MemSafetyID, "valid-deref", "heap-buffer-overflow"},
		{"memsafety_list_lost.c", spec.MemSafetyID, "valid-memtrack", "detected memory leaks"},
		{"memsafety_list_lastleak.c", spec.MemSafetyID, "valid-memtrack", "detected memory leaks"},
		{"memsafety_double_free.c", spec.MemSafetyID, "valid-free", "attempting double-free"},
		{"memsafety_off_by_one.c", spec.MemSafetyID, "valid-deref", "heap-buffer-overflow"},
		{"memsafety_array_read.c", spec.MemSafetyID, "valid-deref", "global-buffer-overflow"},
		{"memsafety_container_of.c", spec.MemSafetyID, "valid-deref", "heap-buffer-overflow"},
		{"memsafety_container_of_back.c", spec.MemSafetyID, "valid-deref", "heap-buffer-overflow"},
		{"memsafety_uninit_pointer.c", spec.MemSafetyID, "valid-deref", "SEGV"},
		{"memsafety_overwritten_free.c", spec.MemSafetyID, "valid-free", "attempting free on address which was not malloc()-ed"},
		{"memsafety_int_pointer.c", spec.MemSafetyID, "valid-deref", "SEGV"},
		{"memsafety_leak_via_freed.c", spec.MemSafetyID, "valid-memtrack", "detected memory leaks"},
		{"memsafety_free_offset.c", spec.MemSafetyID, "valid-free", "attempting free on address which was not malloc()-ed"},
		{"memsafety_leak.c", spec.MemSafetyID, "valid-memtrack", "detected memory leaks"},
		// per-site properties (spec.MemorySites): the violated site's
		{"memsites_stack.c", "sites", "valid-deref", "stack-buffer-overflow"},
		// a block of symbolic size, refuted by symbolic execution
		{"memsites_symsize.c", "sites", "valid-deref", "heap-buffer-overflow"},
		// pointers with a symbolic offset, memcpy of a symbolic length
		{"symoff_ptr.c", "sites", "valid-deref", "heap-buffer-overflow"},
		{"symoff_memcpy.c", "sites", "valid-deref", "heap-buffer-overflow"},
	} {
		kind := tt.prop + " " + tt.violated
		again := covered[kind]
		covered[kind] = true
		t.Run(tt.file, func(t *testing.T) {
			if testing.Short() && again {
				t.Skipf("an earlier case covers %s; the full tier runs every case", kind)
			}
			file := filepath.Join("testdata/verdicts", tt.file)
			prog, err := frontend.Translate(frontend.Options{DataModel: cfa.LP64}, file)
			if err != nil {
				t.Fatal(err)
			}
			subs := spec.MemSafetySubs
			if tt.prop == spec.MemCleanupID {
				subs = []string{spec.MemCleanupID}
			}
			props := []*spec.Property{spec.MemoryProperty("main", subs)}
			if tt.prop == "sites" {
				props = spec.MemorySites(prog, "main", subs)
			}
			res, err := engine.Verify(context.Background(), prog, props,
				engine.Config{Name: "value", Timeout: time.Minute, Solver: z3.Factory, MemoryLimit: testMemory})
			if err != nil {
				t.Fatal(err)
			}
			r := res[0]
			for _, x := range res {
				if x.Verdict == results.False {
					r = x
				}
			}
			if r.Verdict != results.False || r.Violated != tt.violated {
				t.Fatalf("%s (%s), violated %q; want FALSE %s", r.Verdict, r.Reason, r.Violated, tt.violated)
			}
			v := &witness.Violation{Program: prog, Path: r.Counterexample, Memory: r.Violated, Inputs: r.Inputs,
				Task: witness.Task{Files: []string{file}, Entry: "main", DataModel: prog.DataModel}}
			src, err := reproduce.Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			repro, exe := filepath.Join(dir, "reproducer.c"), filepath.Join(dir, "repro")
			if err := os.WriteFile(repro, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			argv := reproduce.BuildLine(prog.DataModel, []string{file}, repro, exe, reproduce.BuildFlags(src)...)
			if !strings.Contains(strings.Join(argv, " "), "-fsanitize=address") {
				t.Fatalf("build line without AddressSanitizer: %s", argv)
			}
			if out, err := exec.Command(gcc, argv[1:]...).CombinedOutput(); err != nil {
				t.Skipf("gcc -fsanitize=address unavailable: %v\n%s", err, out)
			}
			var stderr bytes.Buffer
			cmd := exec.Command(exe)
			cmd.Stderr = &stderr
			cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1")
			err = cmd.Run()
			if err == nil || !strings.Contains(stderr.String(), tt.report) {
				t.Errorf("reproducer run: %v, stderr does not report %q:\n%s", err, tt.report, stderr.String())
			}
		})
	}
}

// TestMemorySitesCoverChecks verifies the per-site memory properties of
// every memory-safety program of testdata/verdicts and requires that no
// check of the analysis falls outside the sites spec.MemorySites lists
// (the engine would answer UNKNOWN "outside the enumerated sites" for
// every site), and that the per-site verdicts agree with the
// whole-program one: FALSE there needs a FALSE site, TRUE there needs
// every site TRUE or NOT_CHECKED. The fast tier (go test -short) checks
// every third file.
func TestMemorySitesCoverChecks(t *testing.T) {
	files, _ := filepath.Glob("testdata/verdicts/memsafety_*.c")
	more, _ := filepath.Glob("testdata/verdicts/memsites_*.c")
	files = append(files, more...)
	for i, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			if testing.Short() && i%3 != 0 {
				t.Skip("the fast tier checks every third file; the full tier checks them all")
			}
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var fcfg frontend.Options
			if strings.Contains(string(src), "// malloc: may-fail") {
				fcfg.Malloc = frontend.MallocMayFail
			}
			prog, err := frontend.Translate(fcfg, file)
			if err != nil {
				t.Fatal(err)
			}
			entry := "main"
			if m := entryRE.FindStringSubmatch(string(src)); m != nil {
				entry = m[1]
			}
			sites := spec.MemorySites(prog, entry, []string{spec.DerefID, spec.FreeID})
			whole := spec.MemoryProperty(entry, []string{spec.DerefID, spec.FreeID})
			rs, err := engine.Verify(context.Background(), prog, append([]*spec.Property{whole}, sites...),
				engine.Config{Name: "value", Entry: entry, Timeout: time.Minute, Solver: z3.Factory, MemoryLimit: testMemory})
			if err != nil {
				t.Fatal(err)
			}
			falseSite, allTrue := false, true
			for _, r := range rs[1:] {
				if strings.Contains(r.Reason, "outside the enumerated sites") {
					t.Errorf("%s: %s (%s)", r.Property.ID, r.Verdict, r.Reason)
				}
				falseSite = falseSite || r.Verdict == results.False
				allTrue = allTrue && (r.Verdict == results.True || r.Verdict == results.NotChecked)
			}
			switch w := rs[0]; {
			case w.Verdict == results.False && !falseSite:
				t.Errorf("whole program FALSE (%s), no site FALSE", w.Reason)
			case w.Verdict == results.True && !allTrue:
				t.Errorf("whole program TRUE, a site is not")
			case falseSite && w.Verdict == results.True:
				t.Errorf("a site FALSE, the whole program TRUE")
			}
		})
	}
}

// TestAbortLocalsValgrind runs memsafety_abort_locals.c, compiled with
// gcc, under Valgrind on both of its ends inside a frame (abort in main,
// exit in a callee): the blocks that only locals reach are "still
// reachable", never "definitely lost", the comparison SV-COMP's
// valid-memtrack names. The engine's verdict on the file is TRUE
// (TestVerdicts).
func TestAbortLocalsValgrind(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		t.Skip("valgrind not installed")
	}
	dir := t.TempDir()
	driver := filepath.Join(dir, "nondet.c")
	src := "#include <stdlib.h>\nint __VERIFIER_nondet_int(void) { return atoi(getenv(\"NONDET\")); }\n"
	if err := os.WriteFile(driver, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	if out, err := exec.Command(gcc, "-O0", "-o", exe, "testdata/verdicts/memsafety_abort_locals.c", driver).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	for _, nondet := range []string{"0", "1"} { // abort in main; exit(2) in fail
		cmd := exec.Command(vg, "--leak-check=full", exe)
		cmd.Env = append(os.Environ(), "NONDET="+nondet)
		out, _ := cmd.CombinedOutput()
		s := string(out)
		if !strings.Contains(s, "still reachable: 4 bytes in 1 blocks") && !strings.Contains(s, "still reachable: 8 bytes in 2 blocks") {
			t.Errorf("NONDET=%s: no block still reachable:\n%s", nondet, s)
		}
		if strings.Contains(s, "definitely lost: ") && !strings.Contains(s, "definitely lost: 0 bytes") {
			t.Errorf("NONDET=%s: a block definitely lost:\n%s", nondet, s)
		}
	}
}

// TestMemoryFacts: a memory-safety FALSE carries what the violation did
// as a typed fact (results.MemoryViolation), filled where the value
// analysis found it: the problem, the object with the position and
// function of its allocation, and the access; reports read it instead of
// the reason's text.
func TestMemoryFacts(t *testing.T) {
	const prog = `#include <stdlib.h>
int main(void) {
  int *q = malloc(sizeof(int));
  int *p = malloc(sizeof(int));
  if (!p || !q)
    return 0;
  BUG
  return 0;
}
`
	for _, tc := range []struct {
		bug  string
		sub  string
		want results.MemoryViolation
	}{
		{"free(p); *p = 1;", spec.DerefID, results.MemoryViolation{Problem: results.UseAfterFree, AllocFile: "f.c", AllocLine: 4, AllocFunc: "malloc", Access: "*p"}},
		{"free(q); free(q);", spec.FreeID, results.MemoryViolation{Problem: results.DoubleFree, AllocFile: "f.c", AllocLine: 3, AllocFunc: "malloc"}},
	} {
		p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "f.c", Content: strings.Replace(prog, "BUG", tc.bug, 1)}})
		if err != nil {
			t.Fatal(err)
		}
		rs, err := engine.Verify(context.Background(), p, []*spec.Property{spec.MemoryProperty("main", []string{tc.sub})}, engine.Config{Name: "value", Timeout: time.Minute, Solver: z3.Factory, MemoryLimit: testMemory})
		if err != nil {
			t.Fatal(err)
		}
		r := rs[0]
		if r.Verdict != results.False || r.Memory == nil {
			t.Fatalf("%s: %s, fact %v (%s)", tc.bug, r.Verdict, r.Memory, r.Reason)
		}
		got := *r.Memory
		if !strings.HasPrefix(got.Object, "heap") {
			t.Errorf("%s: object %q, want a heap block", tc.bug, got.Object)
		}
		if !strings.Contains(got.Detail, got.Object) || !strings.Contains(r.Reason, got.Detail) {
			t.Errorf("%s: detail %q: want the object %s, as the reason says it (%s)", tc.bug, got.Detail, got.Object, r.Reason)
		}
		got.Object, got.Detail = "", ""
		if got != tc.want {
			t.Errorf("%s: fact %+v, want %+v", tc.bug, got, tc.want)
		}
	}
}
