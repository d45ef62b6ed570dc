package frontend

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// TestWeakDefinitions: a strong definition replaces a weak one, as gcc
// links them (no "multiple definition"); a weak definition alone is not
// final: the object has no initialiser of its own (an input), and the
// function has no body at its calls, its body kept as "f.weak".
func TestWeakDefinitions(t *testing.T) {
	weak := Source{Name: "w.c", Content: "int g;\n__attribute__((weak)) void hook(void) { }\n__attribute__((weak)) int limit = 3;\nint main(void) { hook(); return limit; }\n"}
	strong := Source{Name: "s.c", Content: "extern int g;\nvoid hook(void) { g = 1; }\nint limit = 4;\n"}
	p, err := TranslateSources(Options{}, []Source{weak, strong})
	if err != nil {
		t.Fatal(err)
	}
	var init strings.Builder
	for _, l := range p.Init.Locs {
		for _, e := range l.Out {
			init.WriteString(e.Op.String() + "; ")
		}
	}
	if !strings.Contains(init.String(), "limit = 4") || strings.Contains(init.String(), "limit = 3") {
		t.Errorf("strong limit: init is %s", init.String())
	}
	if f := p.Func("hook"); f == nil || f.Unit != "s.c" || p.Func("hook.weak") != nil {
		t.Errorf("strong hook: got %v (weak body %v)", f, p.Func("hook.weak"))
	}

	p, err = TranslateSources(Options{}, []Source{weak})
	if err != nil {
		t.Fatal(err)
	}
	if p.Func("hook") != nil || p.Func("hook.weak") == nil || p.Extern("hook") != cfa.ExternUnmodelled {
		t.Errorf("weak hook alone: body %v, weak body %v, extern kind %v", p.Func("hook"), p.Func("hook.weak"), p.Extern("hook"))
	}
	havoc := false
	for _, e := range p.Edges {
		if h, ok := e.Op.(*cfa.Havoc); ok && h.Source == "extern limit" {
			havoc = true
		}
	}
	if !havoc {
		t.Error("weak limit alone: no input for its value")
	}
}

// TestExternInputs: an extern object no source defines is an input per
// scalar, the C library's own objects (stderr, optind) are not.
func TestExternInputs(t *testing.T) {
	src := Source{Name: "e.c", Content: "typedef struct F F;\nextern F *stderr;\nextern int optind;\nextern int cfg;\nextern struct { int a; char b[2]; } tab;\nint main(void) { return cfg + optind + tab.b[1] + (stderr != 0); }\n"}
	p, err := TranslateSources(Options{}, []Source{src})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range p.Init.Locs {
		for _, x := range e.Out {
			if h, ok := x.Op.(*cfa.Havoc); ok {
				got = append(got, h.Source+" "+h.LHS.String())
			}
		}
	}
	if want := "extern cfg cfg, extern tab tab.a, extern tab tab.b[0], extern tab tab.b[1]"; strings.Join(got, ", ") != want {
		t.Errorf("inputs in Init: %s, want %s", strings.Join(got, ", "), want)
	}
}

// TestAttributeWords: only the words inside __attribute__((…)) are
// attributes: a parameter named constructor or weak makes no function a
// constructor or weak.
func TestAttributeWords(t *testing.T) {
	src := Source{Name: "a.c", Content: "int g;\nvoid f(int constructor, int weak) { g = constructor + weak; }\n__attribute__((weak, constructor(300))) void h(void) { g = 2; }\nint main(void) { f(1, 2); return g; }\n"}
	p, err := TranslateSources(Options{}, []Source{src})
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, l := range p.Init.Locs {
		for _, e := range l.Out {
			if c, ok := e.Op.(*cfa.Call); ok {
				calls = append(calls, c.Fn)
			}
		}
	}
	if got := strings.Join(calls, ","); got != "h" {
		t.Errorf("constructors called in Init: %q, want h", got)
	}
	if p.Func("f") == nil || p.Func("h.weak") == nil || p.Func("h") != nil {
		t.Errorf("f %v, h.weak %v, h %v: want f with its body and h weak", p.Func("f"), p.Func("h.weak"), p.Func("h"))
	}
}
