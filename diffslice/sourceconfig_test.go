package diffslice

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig(".reverify.yml", []byte(`
sources: ["src/**/*.c", lib/a.c]
include: [include, third_party/inc]
defines: {NDEBUG_OFF: 1, MODE: fast, EMPTY: }
entry: [harness]
config: value
timeout: 90s
data_model: ilp32
`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Sources, ",") != "src/**/*.c,lib/a.c" || strings.Join(c.Include, ",") != "include,third_party/inc" ||
		c.Defines["MODE"] != "fast" || c.Defines["NDEBUG_OFF"] != "1" || c.Defines["EMPTY"] != "" || c.Entry != "harness" ||
		c.Config != "value" || c.Timeout != 90*time.Second || c.DataModel != "ILP32" {
		t.Errorf("parsed %+v", c)
	}
	if c, err := ParseConfig("x.yml", []byte("entry: main\ntimeout: 30\n")); err != nil || c.Entry != "main" || c.Timeout != 30*time.Second {
		t.Errorf("scalar entry and bare seconds: %+v, %v", c, err)
	}
	if _, err := ParseConfig("x.yml", []byte("# nothing\n")); err != nil {
		t.Errorf("empty config: %v", err)
	}
}

// TestParseConfigErrors: every broken config is one line naming the file
// and what is wrong.
func TestParseConfigErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"sources: [a.c\n", ".reverify.yml:"},
		{"source: [a.c]\n", `.reverify.yml:1: unknown key "source"`},
		{"sources: a.c\ntimeout: 6x\n", `.reverify.yml:2: timeout: invalid duration "6x"`},
		{"config: fastest\n", `.reverify.yml:1: config: unknown configuration "fastest"`},
		{"entry: [main, other]\n", `.reverify.yml:1: entry: 2 entry functions (main, other); only one is supported`},
		{"include: {a: b}\n", `.reverify.yml:1: include: want a string or a list of strings, found a mapping`},
		{"defines: [\"=1\"]\n", `.reverify.yml:1: defines: empty macro name`},
		{"sources: ['[a.c']\n", `.reverify.yml:1: sources: bad glob "[a.c"`},
		{"data_model: LP32\n", `.reverify.yml:1: data_model: want ILP32 or LP64, got "LP32"`},
		{"- a\n- b\n", `.reverify.yml:1: want a mapping of keys`},
		{"timeout: 1s\ntimeout: 2s\n", `.reverify.yml:2: timeout: duplicate key`},
	} {
		_, err := ParseConfig(".reverify.yml", []byte(tt.text))
		if err == nil {
			t.Errorf("%q: no error", tt.text)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, tt.want) || strings.Contains(msg, "\n") {
			t.Errorf("%q: error %q, want one line starting %q", tt.text, msg, tt.want)
		}
	}
}

// TestBrokenConfigInRepo: LoadRevision reports the file, the revision
// and the problem.
func TestBrokenConfigInRepo(t *testing.T) {
	r := newRepo(t)
	files := edit(t, baseFiles, ".reverify.yml", "config: value", "config: value\ntimeout: soon")
	c := r.commit("broken", files)
	_, err := LoadRevision(r.dir, c, SourceConfig{})
	if err == nil || !strings.Contains(err.Error(), ".reverify.yml at "+c+":4: timeout: invalid duration") {
		t.Errorf("error %v", err)
	}
}

func TestGlob(t *testing.T) {
	for _, tt := range []struct {
		glob, name string
		want       bool
	}{
		{"**/*.c", "a.c", true},
		{"**/*.c", "src/x/a.c", true},
		{"src/*.c", "src/a.c", true},
		{"src/*.c", "src/x/a.c", false},
		{"src/**/a.c", "src/a.c", true},
		{"src/**/a.c", "src/x/y/a.c", true},
		{"*.c", "src/a.c", false},
		{"lib/a.c", "lib/a.c", true},
	} {
		if got := matchGlob(tt.glob, tt.name); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v", tt.glob, tt.name, got)
		}
	}
}

// TestCompileCommands: without sources configured, the compilation
// database names the sources, include directories and defines.
func TestCompileCommands(t *testing.T) {
	r := newRepo(t)
	abs, _ := filepath.Abs(r.dir)
	files := map[string]string{}
	for k, v := range baseFiles {
		if k != ".reverify.yml" {
			files[k] = v
		}
	}
	files["src/other_main.c"] = "int main(void) { return 1; }\n" // not in the database
	files["src/main.c"] = strings.Replace(files["src/main.c"], "int a = 5;", "int a = BONUS;", 1)
	db := []map[string]any{
		{"directory": abs, "file": "src/main.c", "arguments": []string{"cc", "-c", "-Iinclude", "-DBONUS=5", "src/main.c"}},
		{"directory": filepath.Join(abs, "src"), "file": filepath.Join(abs, "src/parse.c"), "command": `cc -c -I ../include -D "UNUSED=a b" parse.c`},
		{"directory": abs, "file": "src/util.c", "command": "cc -c -I" + filepath.Join(abs, "include") + " src/util.c"},
	}
	data, _ := json.Marshal(db)
	files["compile_commands.json"] = string(data)
	c := r.commit("base", files)
	rev, err := LoadRevision(r.dir, c, SourceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rev.Files, ","); got != "src/main.c,src/parse.c,src/util.c" {
		t.Errorf("files %s", got)
	}
	if got := strings.Join(rev.Config.Include, ","); got != "include" || rev.Config.Defines["BONUS"] != "5" || rev.Config.Defines["UNUSED"] != "a b" {
		t.Errorf("include %q, defines %v", got, rev.Config.Defines)
	}
	if rev.Config.Origin("sources") != CompileCommandsFile {
		t.Errorf("sources from %q", rev.Config.Origin("sources"))
	}
	// Flags win over the database.
	rev, err = LoadRevision(r.dir, c, SourceConfig{Sources: []string{"src/other_main.c"}})
	if err != nil || strings.Join(rev.Files, ",") != "src/other_main.c" {
		t.Errorf("with --sources: %v, %v", rev, err)
	}
}

// TestWorkingTreeAndDirectories: the head may be the working tree of the
// repository (uncommitted edits), and two plain directories compare too.
func TestWorkingTreeAndDirectories(t *testing.T) {
	r := newRepo(t)
	b := r.commit("base", baseFiles)
	r.write(edit(t, baseFiles, "src/util.c", "return x - 1;", "return x - 3;"))
	base := load(t, r.dir, b)
	wt := load(t, r.dir, "")
	ch, err := Changes(base, wt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch) != 1 || ch[0].Def.Name != "unused_helper" || len(ch[0].Hunks) != 1 {
		t.Errorf("working tree changes %v", ch)
	}
	// Two directories: the base materialised, the working tree as is.
	dir := t.TempDir()
	for k, v := range baseFiles {
		p := filepath.Join(dir, filepath.FromSlash(k))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(v), 0o644)
	}
	d := load(t, dir, "")
	ch, err = Changes(d, wt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch) != 1 || ch[0].Def.Name != "unused_helper" || len(ch[0].Hunks) != 1 || ch[0].Hunks[0].NewFile != "src/util.c" {
		t.Errorf("directory changes %v", ch)
	}
}

// TestParseConfigAssume: assume.pure lists functions the user declares
// side-effect-free; bad entries are one-line errors.
func TestParseConfigAssume(t *testing.T) {
	c, err := ParseConfig(".reverify.yml", []byte("assume:\n  pure: [log_msg, trace]\n"))
	if err != nil || strings.Join(c.AssumePure, ",") != "log_msg,trace" {
		t.Errorf("assume.pure: %+v, %v", c.AssumePure, err)
	}
	for _, tt := range []struct{ text, want string }{
		{"assume: [log_msg]\n", `.reverify.yml:1: assume: want a mapping (pure), found a list`},
		{"assume:\n  side_effect_free: [f]\n", `.reverify.yml:2: assume: unknown key "side_effect_free"`},
		{"assume:\n  pure: [\"not an id\"]\n", `.reverify.yml:2: assume: pure: "not an id" is not a C identifier`},
	} {
		_, err := ParseConfig(".reverify.yml", []byte(tt.text))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one starting %q", tt.text, err, tt.want)
		}
	}
}
