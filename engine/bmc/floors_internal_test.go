package bmc

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
)

const floorsSrc = `int g;
extern int nondet(void);
static int helper(int n) {
	int s = 0;
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 5; j++) s++;
	}
	while (s < n) s += 2;
	return s;
}
int f(int *p) {
	unsigned n = 0;
	while (n < 7U) n += 2U;
	for (int j = 10; j > 0; j--) g++;
	for (int k = 0; k < 1000; k++) g++;
	for (int k = 0; k < g; k++) g--;
	for (unsigned char c = 250; c != 4; c++) g++;
	int m = 0;
	for (; m < 9; m++) { if (nondet()) break; }
	do { g++; } while (g < 3);
	return helper(*p) + n;
}
int main(void) { int x = 1; return f(&x); }
`

// loopsAt returns "function:line" of each natural loop head of the
// program, keyed by head.
func loopsAt(t *testing.T, src string) (*cfa.Program, *cfa.Loops, map[*cfa.Location]string) {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "dir/my-file.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	loops := cfa.NaturalLoops(prog)
	at := map[*cfa.Location]string{}
	for h := range loops.Body {
		line := 0
		for _, e := range h.Out {
			line = e.Pos.Start.Line
		}
		at[h] = fmt.Sprintf("%s:%d", h.Func.Name, line)
	}
	return prog, loops, at
}

// TestCBMCLoopIDs: loops are numbered per function in the order their
// statements end (a nested loop before the loop around it), and a
// static function also has goto-cc's file-local name.
func TestCBMCLoopIDs(t *testing.T) {
	prog, loops, at := loopsAt(t, floorsSrc)
	var got []string
	for id, hs := range cbmcLoopIDs(prog, loops) {
		for _, h := range hs {
			got = append(got, id+" "+at[h])
		}
	}
	sort.Strings(got)
	want := []string{
		"__CPROVER_file_local_my_file_c_helper.0 helper:6",
		"__CPROVER_file_local_my_file_c_helper.1 helper:5",
		"__CPROVER_file_local_my_file_c_helper.2 helper:8",
		"f.0 f:13",
		"f.1 f:14",
		"f.2 f:15",
		"f.3 f:16",
		"f.4 f:17",
		"f.5 f:19",
		"f.6 f:20",
		"helper.0 helper:6",
		"helper.1 helper:5",
		"helper.2 helper:8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("loop ids:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConstantTrips: the trip counts the CFA states of innermost loops
// without calls, and none where a bound is an input, a variable, beyond
// maxTripFloor, where the counter has a second write, or where the loop
// holds a loop or a call.
func TestConstantTrips(t *testing.T) {
	_, loops, at := loopsAt(t, floorsSrc)
	var got []string
	for h, n := range constantTrips(loops) {
		got = append(got, fmt.Sprintf("%s %d", at[h], n))
	}
	sort.Strings(got)
	// helper:6 (5); f:13 n = 0, 2, 4, 6 (4); f:14 10 … 1 (10); f:17 an
	// unsigned char from 250 wrapping to 4 (10). Not: helper:5 (it holds
	// a loop), helper:8 (n is an input), f:15 (1000 > maxTripFloor),
	// f:16 (g is no constant), f:19 (it calls nondet), f:20 (do-while:
	// the head is the body, no exit test at the head).
	want := []string{"f:13 4", "f:14 10", "f:17 10", "helper:6 5"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("trip counts: %s\nwant: %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}

// TestCBMCLoopIDsCopies: a static function that two translation units
// define is one function to CBMC; its id names the loop in both copies.
func TestCBMCLoopIDsCopies(t *testing.T) {
	helper := "static int twice(int n) { int s = 0; for (int i = 0; i < n; i++) s += 2; return s; }\n"
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{
		{Name: "a.c", Content: helper + "int fa(int n) { return twice(n); }\n"},
		{Name: "b.c", Content: helper + "int fb(int n) { return twice(n); }\nint main(void) { return fa(1) + fb(2); }\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := cbmcLoopIDs(prog, cfa.NaturalLoops(prog))
	if hs := ids["twice.0"]; len(hs) != 2 || hs[0].Func == hs[1].Func {
		t.Errorf("twice.0 names %d loops, want one in each copy of twice", len(hs))
	}
	floors := floorsOf(prog, cfa.NaturalLoops(prog), prog.Func("main"), map[string]int{"twice.0": 6})
	n := 0
	for h, f := range floors {
		if strings.HasPrefix(h.Func.Name, "twice") && f == 5 {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d copies of twice have floor 5, want 2 (floors %v)", n, floors)
	}
}

// TestQuantifierFloors: a quantifier of CBMC's contract language, which
// the front end lowers to a loop (cfa.QuantifierLoop), is unwound whole
// even in the entry function, where the program's own loops keep the
// uniform bound.
func TestQuantifierFloors(t *testing.T) {
	prog, loops, at := loopsAt(t, `int a[8];
void main(void) {
	for (int k = 0; k < 8; k++)
		a[k] = k;
	__CPROVER_assert(__CPROVER_forall { int i; (0 <= i && i < 8) ==> a[i] >= 0 }, "non-negative");
}
`)
	var got []string
	for h, n := range floorsOf(prog, loops, prog.Func("main"), nil) {
		got = append(got, fmt.Sprintf("%s %d", at[h], n))
	}
	if want := "main:5 8"; strings.Join(got, ", ") != want {
		t.Errorf("floors: %s, want %s (the quantifier's loop only)", strings.Join(got, ", "), want)
	}
	n := 0
	for _, body := range loops.Body {
		if cfa.QuantifierLoop(body) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d quantifier loops, want 1", n)
	}
}
