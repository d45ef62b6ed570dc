package value_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
)

func TestEntryText(t *testing.T) {
	for _, tc := range []struct {
		text string
		e    value.Entry
	}{
		{"g", value.Entry{Name: "g", Loc: -1}},
		{"main::x@main", value.Entry{Name: "main::x", Func: "main", Loc: -1}},
		{"main::x@f:[y < 0]", value.Entry{Name: "main::x", Func: "f", Loc: -1, At: "[y < 0]"}},
		{"<heap>@main:x = x - 1#1", value.Entry{Name: value.HeapName, Func: "main", Loc: -1, At: "x = x - 1#1"}},
		// The index form of earlier versions parses as a key that no
		// location has (it tracks nothing), not as an error.
		{"main::x@main:L5", value.Entry{Name: "main::x", Func: "main", Loc: -1, At: "L5"}},
	} {
		e, err := value.ParseEntry(tc.text)
		if err != nil || e != tc.e {
			t.Errorf("ParseEntry(%q) = %+v, %v; want %+v", tc.text, e, err, tc.e)
		}
		if s := tc.e.String(); s != tc.text {
			t.Errorf("%+v.String() = %q, want %q", tc.e, s, tc.text)
		}
	}
	if s := (value.Entry{Name: "main::x", Func: "main", Loc: 5}).String(); s != "main::x@main:L5" {
		t.Errorf("entry by index prints as %q", s)
	}
	for _, bad := range []string{"", "@main", "x@", "x@main:", "x@:k", "x@:"} {
		if _, err := value.ParseEntry(bad); err == nil {
			t.Errorf("ParseEntry(%q) succeeded", bad)
		}
	}
}

// TestLocationKeys checks the stable location keys: the first out-edge's
// operation, an ordinal for repeated ones, <exit> and <end>.
func TestLocationKeys(t *testing.T) {
	p := translateSrc(t, `extern void abort(void);
int main(void) {
	int x = 0;
	x = x + 1;
	x = x + 1;
	if (x > 5)
		abort();
	while (x > 0)
		x = x + 1;
	return x;
}`)
	got := value.LocationKeys(p.Func("main"))
	want := []string{"+1:decl int x", "<exit>", "+1:x = 0", "+2:x = x + 1", "+3:x = x + 1#1", "+4:[x > 5]", "+5:abort()", "<end>",
		"+6:[x > 0]", "+7:x = x + 1#2", "+8:return x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("LocationKeys(main) =\n%q\nwant\n%q", got, want)
	}
	// A key is matched by its text wherever it is, else by its line
	// among operations of the same kind; otherwise it designates nothing.
	main, x := p.Func("main"), varNamed(t, p, "main::x")
	for _, tc := range []struct {
		key  string
		locs []int
	}{
		{"+4:[x > 5]", []int{5}},
		{"+9:[x > 5]", []int{5}},     // moved: found by its text
		{"[x > 5]", []int{5}},        // without a line
		{"+4:[x >= 5]", []int{5}},    // edited in place: found by its line
		{"+5:[x >= 5]", nil},         // line 5 holds no assumption
		{"+3:x = x + 1#1", []int{4}}, // the second of three equal ones
		{"+7:x = x + 2#2", []int{9}},
		{"<exit>", []int{1}},
		{"+2:no such thing", []int{3}},
		{"L5", nil},
	} {
		prec, err := value.ParseScopedPrecision([]string{"main::x@main:" + tc.key})
		if err != nil {
			t.Fatal(err)
		}
		var locs []int
		for _, l := range main.Locs {
			if prec.Tracks(l, x) {
				locs = append(locs, l.Index)
			}
		}
		if !slices.Equal(locs, tc.locs) {
			t.Errorf("key %q designates %v, want %v", tc.key, locs, tc.locs)
		}
	}
}

// precisionProgram has a global, locals of two functions, a static local
// and a heap block.
const precisionProgram = `
extern void *malloc(unsigned long);
int g;
int f(int a) { static int s; s = a; return s + 1; }
int main(void) {
	int x = 1;
	int *p = malloc(4);
	*p = 7;
	g = f(x);
	return g;
}`

func translateSrc(t *testing.T, src string) *cfa.Program {
	t.Helper()
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func varNamed(t *testing.T, p *cfa.Program, qual string) *cfa.Var {
	t.Helper()
	for _, v := range p.Vars {
		if v.QualName() == qual {
			return v
		}
	}
	t.Fatalf("no variable %s", qual)
	return nil
}

func TestScopedPrecision(t *testing.T) {
	p := translateSrc(t, precisionProgram)
	main, f := p.Func("main"), p.Func("f")
	x, g, a, s := varNamed(t, p, "main::x"), varNamed(t, p, "g"), varNamed(t, p, "f::a"), varNamed(t, p, "f::s")
	prec, err := value.ParseScopedPrecision([]string{"g", "main::x@main:x = 1", "f::a@f", "f::s@f:return f::s + 1", "<heap>@main"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		l    *cfa.Location
		v    *cfa.Var
		want bool
	}{
		{main.Locs[2], x, true},
		{main.Locs[3], x, false},
		{f.Locs[2], x, false}, // another function's location index 2
		{f.Entry, g, true},
		{main.Locs[5], g, true},
		{f.Entry, a, true},
		{f.Locs[2], a, true},
		{main.Locs[3], a, false},
		{f.Locs[2], s, true}, // a static local is a global named "f::s"
		{f.Locs[1], s, false},
		{main.Locs[1], nil, true},
		{f.Entry, nil, false},
	} {
		if got := prec.Tracks(tc.l, tc.v); got != tc.want {
			t.Errorf("Tracks(%s:%s, %v) = %v, want %v", tc.l.Func.Name, tc.l, tc.v, got, tc.want)
		}
	}
	if got, want := strings.Join(prec.Strings(), " "), "<heap>@main f::a@f f::s@f:return f::s + 1 g main::x@main:x = 1"; got != want {
		t.Errorf("Strings() = %q, want %q", got, want)
	}
	// Contained entries leave the precision as it is; a wider entry
	// subsumes narrower ones of the same variable.
	if q := prec.With(value.Entry{Name: "f::a", Func: "f", Loc: 7}, value.Entry{Name: "g", Func: "main", Loc: -1}); q != prec {
		t.Errorf("With(contained) = %v, want the same precision", q)
	}
	q := prec.With(value.Entry{Name: "main::x", Func: "main", Loc: -1}, value.Entry{Name: "main::x", Func: "f", Loc: 0})
	if got, want := strings.Join(q.Strings(), " "), "<heap>@main f::a@f f::s@f:return f::s + 1 g main::x@f:L0 main::x@main"; got != want {
		t.Errorf("With(wider) = %q, want %q", got, want)
	}
	if prec.Tracks(main.Locs[3], x) || !q.Tracks(main.Locs[3], x) {
		t.Error("With modified its receiver or lost the wider entry")
	}
	if got := strings.Join(q.Vars(), " "); got != "<heap> f::a f::s g main::x" {
		t.Errorf("Vars() = %q", got)
	}
	// Format keys the entries by location and leaves out what the
	// program does not have.
	q = q.With(value.Entry{Name: "main::p", Func: "main", Loc: 6}, value.Entry{Name: "main::p", Func: "main", At: "*p = 7"},
		value.Entry{Name: "main::p", Func: "main", At: "p = q"}, value.Entry{Name: "main::p", Func: "main", Loc: 99},
		value.Entry{Name: "main::q", Func: "main", Loc: -1}, value.Entry{Name: "main::x", Func: "h", Loc: -1})
	if got, want := strings.Join(q.Format(p), " | "), "<heap>@main | f::a@f | f::s@f:+0:return f::s + 1 | g | main::p@main:+3:*p = 7 | main::x@f:+0:f::s = a | main::x@main"; got != want {
		t.Errorf("Format() = %q, want %q", got, want)
	}
	var empty *value.ScopedPrecision
	if empty.Tracks(main.Entry, x) || empty.Len() != 0 || empty.String() != "{}" {
		t.Error("the nil precision tracks something")
	}
}

// TestForget follows main of precisionProgram with full precision and
// checks KnownVars and Forget on the final state.
func TestForget(t *testing.T) {
	p := translateSrc(t, precisionProgram)
	c := value.New(p, value.Options{})
	s0, _ := c.Initial()
	s := s0.(*value.State)
	step := func(st cfa.Step) {
		t.Helper()
		succ, err := c.Successors(nil, s, st, value.FullPrecision{})
		if err != nil || len(succ) != 1 {
			t.Fatalf("%v: %d successors, %v", st.Edge, len(succ), err)
		}
		s = succ[0].(*value.State)
	}
	for l := p.Init.Entry; len(l.Out) > 0; l = l.Out[0].To {
		step(cfa.Step{Edge: l.Out[0]})
	}
	main := p.Func("main")
	step(cfa.Step{Kind: cfa.Enter, Callee: main})
	for l := main.Entry; len(l.Out) > 0; l = l.Out[0].To {
		e := l.Out[0]
		if call, ok := e.Op.(*cfa.Call); ok && call.Fn == "f" {
			break // stop before the call: f's frame is not needed here
		}
		step(cfa.Step{Edge: e})
	}
	vars, heap := s.KnownVars()
	var names []string
	for _, v := range vars {
		names = append(names, v.QualName())
	}
	if got := strings.Join(names, " "); got != "g f::s main::x main::p main::__t0" || !heap {
		t.Fatalf("KnownVars = %q, heap %v; state %v", got, heap, s)
	}
	x := varNamed(t, p, "main::x")
	nx := s.Forget(x)
	if _, ok := nx.Int(x); ok {
		t.Errorf("Forget(x) = %v still knows x", nx)
	}
	if v, ok := s.Int(x); !ok || v != 1 {
		t.Errorf("Forget modified its receiver: %v", s)
	}
	if nh := s.Forget(nil); nh.Len() != s.Len()-1 {
		t.Errorf("Forget(nil) = %v, want %v without the heap cell", nh, s)
	}
	if s.Forget(varNamed(t, p, "f::a")) != s {
		t.Error("forgetting an unknown variable made a new state")
	}
}

// TestFormatSurvivesEdits: a precision formatted for one version of a
// program, parsed and applied to a version with a function added above
// main and a statement added at the top of main, tracks the same
// variables at the corresponding locations (those with the same key).
func TestFormatSurvivesEdits(t *testing.T) {
	v1 := translateSrc(t, precisionProgram)
	v2 := translateSrc(t, strings.Replace(strings.Replace(precisionProgram, "int main(void) {",
		"int unrelated(int k) { return k * 2; }\nint main(void) {\n\tint z = unrelated(3);", 1), "int g;", "int g;\nint h;", 1))
	m1, m2 := v1.Func("main"), v2.Func("main")
	k1, k2 := value.LocationKeys(m1), value.LocationKeys(m2)
	var entries []value.Entry
	for i := range m1.Locs {
		entries = append(entries, value.Entry{Name: "main::x", Func: "main", Loc: i})
	}
	texts := value.NewScopedPrecision(entries...).Format(v1)
	if len(texts) != len(m1.Locs) {
		t.Fatalf("Format gave %d entries for %d locations: %q", len(texts), len(m1.Locs), texts)
	}
	prec, err := value.ParseScopedPrecision(texts)
	if err != nil {
		t.Fatal(err)
	}
	x2 := varNamed(t, v2, "main::x")
	matched := 0
	text := func(k string) string { // the key without its line
		if _, t, ok := strings.Cut(k, ":"); ok && strings.HasPrefix(k, "+") {
			return t
		}
		return k
	}
	t1 := map[string]bool{}
	for _, k := range k1 {
		t1[text(k)] = true
	}
	for i, l := range m2.Locs {
		want := t1[text(k2[i])]
		if got := prec.Tracks(l, x2); got != want {
			t.Errorf("v2 %s (%q): Tracks(x) = %v, want %v", l, k2[i], got, want)
		}
		if want {
			matched++
		}
	}
	if matched != len(m1.Locs) {
		t.Errorf("%d of main's %d locations found again after the edit", matched, len(m1.Locs))
	}
}
