package clangir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/llvmir"
)

func need(t *testing.T, tools ...string) {
	for _, n := range tools {
		if _, err := tool(n, n); err != nil {
			t.Skip(err)
		}
	}
}

// TestCompileAndLink compiles two C files that call each other, links
// them into one module and translates it: both functions have bodies,
// and the positions of their edges are the C files' lines.
func TestCompileAndLink(t *testing.T) {
	need(t, "clang", "llvm-link")
	dir := t.TempDir()
	a := filepath.Join(dir, "a.c")
	b := filepath.Join(dir, "b.c")
	os.WriteFile(a, []byte("int twice(int);\nint main(void) {\n\treturn twice(3) - 6;\n}\n"), 0o644)
	os.WriteFile(b, []byte("int twice(int x) {\n\treturn 2 * x;\n}\n"), 0o644)
	text, err := CompileC(llvmir.ClangOptions{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.LoadIR(engine.SourceOptions{}, a, text, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"main", "twice"} {
		f := p.Func(fn)
		if f == nil {
			t.Fatalf("no body for %s in the linked module", fn)
		}
	}
	ret := p.Func("twice").Exit.In[0]
	if ret.Pos.Start.File != b || ret.Pos.Start.Line != 2 {
		t.Errorf("twice's return edge at %v, want %s:2", ret.Pos.Start, b)
	}
	if len(p.Files) != 2 {
		t.Errorf("Files = %v, want both C files", p.Files)
	}
}

// TestReadBitcode disassembles a bitcode file (llvm-as makes one from
// textual IR): the module read back is the same program.
func TestReadBitcode(t *testing.T) {
	need(t, "llvm-as", "llvm-dis")
	dir := t.TempDir()
	ll := filepath.Join(dir, "m.ll")
	os.WriteFile(ll, []byte("define i32 @main() {\n  ret i32 0\n}\n"), 0o644)
	as, _ := tool("llvm-as", "llvm")
	bc := filepath.Join(dir, "m.bc")
	if out, err := exec.Command(as, "-o", bc, ll).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as: %v %s", err, out)
	}
	name, text, err := ReadIR(bc)
	if err != nil {
		t.Fatal(err)
	}
	if name != bc || !strings.Contains(text, "define i32 @main()") {
		t.Fatalf("ReadIR(%s) = %s, %q", bc, name, text)
	}
}

// TestClangError: a C file clang rejects is an error with clang's
// diagnostic, file and line.
func TestClangError(t *testing.T) {
	need(t, "clang")
	f := filepath.Join(t.TempDir(), "bad.c")
	os.WriteFile(f, []byte("int main(void) { return x; }\n"), 0o644)
	_, err := CompileC(llvmir.ClangOptions{}, f)
	if err == nil || !strings.Contains(err.Error(), "bad.c:1:25: error: use of undeclared identifier 'x'") {
		t.Fatalf("got %v, want clang's diagnostic", err)
	}
}

// TestDefinitionFingerprints compiles versions of one file in the way a
// revision is (CompileCIn, a repository path) and compares the IR
// definitions' fingerprints (engine/llvmir, defs.go): moving code and
// renumbering strings and metadata keep a definition's fingerprint; a
// change of a struct it uses, of a string it uses, or of its own code
// changes it.
func TestDefinitionFingerprints(t *testing.T) {
	need(t, "clang")
	const v1 = `int g = 3;
struct s { int a[1]; int b; };
int f(struct s *p) { return p->b + g; }
const char *h(void) { return "hello"; }
int m(void) { return g; }
`
	for _, tc := range []struct {
		name, src string
		changed   []string // the definitions whose fingerprints differ
	}{
		{"moved", "\n\n/* moved */\nconst char *k(void) { return \"world\"; }\n" + v1, nil},
		// f's text stays (field 1 of %struct.s), its offset does not
		{"struct", strings.Replace(v1, "int a[1];", "int a[2];", 1), []string{"f"}},
		{"string", strings.Replace(v1, `"hello"`, `"hullo"`, 1), []string{"h"}},
		{"global", strings.Replace(v1, "g = 3", "g = 4", 1), []string{"g"}},
		{"body", strings.Replace(v1, "return g; }", "return g + 1; }", 1), []string{"m"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, head := fingerprints(t, v1), fingerprints(t, tc.src)
			var changed []string
			for _, n := range []string{"g", "f", "h", "m"} {
				if base[n] == "" || head[n] == "" {
					t.Fatalf("no definition %s: base %v, head %v", n, base, head)
				}
				if base[n] != head[n] {
					changed = append(changed, n)
				}
			}
			if strings.Join(changed, " ") != strings.Join(tc.changed, " ") {
				t.Errorf("changed %v, want %v", changed, tc.changed)
			}
		})
	}
}

// fingerprints compiles src as src/x.c in a fresh directory (clang run
// there) and returns its definitions' fingerprints by name, checking
// that positions name the repository path.
func fingerprints(t *testing.T, src string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	f := filepath.Join(dir, "src", "x.c")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	text, err := CompileCIn(dir, llvmir.ClangOptions{}, "src/x.c")
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.LoadIRNamed(engine.SourceOptions{}, "x.ll", text, map[string]string{f: "src/x.c"}, "src/x.c")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range p.Defs {
		if d.File != "src/x.c" || d.Line < 1 {
			t.Errorf("definition %s at %s:%d", d.Name, d.File, d.Line)
		}
		out[d.Name] = d.Fingerprint
	}
	return out
}
