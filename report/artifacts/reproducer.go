package artifacts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/harness"
	"github.com/reverify/reverify/engine/witness/reproduce"
	"github.com/reverify/reverify/report/reproducer"
)

// The observable outcome of a reproducer run that reaches the error: the
// harness prints a line starting with ReachedMarker to stderr and exits
// with ReachedExitCode (engine/witness).
const (
	ReachedMarker   = reproduce.ReachedMarker
	ReachedExitCode = reproduce.ReachedExitCode
)

// reproduceScript is the text of dir/reproduce.sh: its first comment
// says what a run shows (exit code 77 for an assertion; for a reproducer
// built with -fsanitize=address, AddressSanitizer's report and exit
// status 1; memory says it is one: a reproducer of an assertion may be
// built with it too, for CBMC's memory queries); it builds
// dir/reproducer.c with the program's files (reproduce.BuildLine, with the
// reproducer's own flags, reproduce.BuildFlags) and runs
// it: an ILP32 reproducer under qemu-i386 when the kernel cannot execute
// it (exit 2 when neither works). With stdin (hasStdin: the
// counterexample reads standard input, reproduce.Stdin), printf pipes those
// bytes into the run. Every path is relative to the script's own directory, so the script
// still works when the output directory and the checkout move together
// (a downloaded Actions artifact unpacked at its place in a checkout).
func reproduceScript(dm cfa.DataModel, files []string, dir string, flags []string, stdin []byte, hasStdin, memory bool) (string, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel := func(p string) (string, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		return filepath.Rel(absDir, abs)
	}
	relFiles := make([]string, len(files))
	isPath := map[string]bool{"reproducer.c": true, "reproducer": true}
	for i, f := range files {
		r, err := rel(f)
		if err != nil {
			return "", err
		}
		relFiles[i] = r
		isPath[r] = true
	}
	build := reproduce.BuildLine(dm, relFiles, "reproducer.c", "reproducer", flags...)
	q := make([]string, len(build))
	for i, a := range build {
		q[i] = ShellQuote(a)
		if isPath[a] || i > 0 && (build[i-1] == "-iquote" || build[i-1] == "-I") { // include dirs are relative to dir
			q[i] = `"$here"/` + q[i]
		}
	}
	feed, input := "", ""
	if hasStdin {
		// The bytes the counterexample reads from standard input; the
		// input ends after them (EOF).
		input = "# Standard input, as the counterexample reads it.\ninput() {\n\tprintf '" + reproduce.StdinPrintf(stdin) + "'\n}\n"
		feed = "input | "
	}
	run := feed + "\"$here\"/reproducer\n"
	if dm == cfa.ILP32 {
		// An i386 program on a kernel without 32-bit support fails with
		// "exec format error": the probe (reproduce.ProbeEnv) tells, and
		// qemu-i386 runs it instead (reproducer.Run does the same).
		run = fmt.Sprintf(`if %[1]s=1 "$here"/reproducer >/dev/null 2>&1 </dev/null; then
	%[3]s"$here"/reproducer
elif command -v %[2]s >/dev/null 2>&1; then
	%[3]s%[2]s "$here"/reproducer
else
	echo "reproduce.sh: this kernel cannot execute the i386 reproducer and %[2]s is missing (Debian package qemu-user)" >&2
	exit 2
fi
`, reproduce.ProbeEnv, reproduce.Emulator, feed)
	}
	what := "# Builds and runs the reproducer; exit code 77 means the assertion failed.\n"
	for _, f := range flags {
		if f == "-fsanitize=address" && memory {
			// A memory-safety violation: the sanitizer, not the
			// harness, reports it (ASan's default exitcode is 1).
			what = "# Builds and runs the reproducer with AddressSanitizer, which reports the memory-safety\n" +
				"# violation on stderr and exits with status 1 (a leak: LeakSanitizer, when the program exits).\n"
		}
	}
	return "#!/bin/sh\n" + what +
		"# Paths are relative to this script's directory.\nset -e\nhere=$(cd \"$(dirname \"$0\")\" && pwd)\n" +
		input + strings.Join(q, " ") + "\n" + run, nil
}

// ShellQuote returns s as one word of a POSIX shell command line: as is
// when it has no character the shell treats specially, else in single
// quotes, each embedded quote closed, escaped and reopened.
func ShellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ErrNoCompiler says that gcc is not installed (BuildAndRun).
var ErrNoCompiler = errors.New("gcc not found in PATH")

// BuildAndRun compiles the reproducer source src (engine.WitnessCheck's
// Reproducer, or reproduce.Reproducer) with the program's files under data
// model dm (reproduce.BuildLine: gcc -O0 -fwrapv, -m32 for ILP32, with the
// reproducer's own flags, then flags: the sources' -I and -D) in a
// temporary directory, and runs it with the
// time limit (0: one minute; reproducer.Run, under qemu-i386 when the
// kernel cannot execute an i386 program). reached reports that it exited
// with ReachedExitCode and printed ReachedMarker; out is its stderr (for
// the message when not reached), ending in "(time limit reached)" when
// the limit stopped it. Errors are failures to compile or start it
// (ErrNoCompiler without gcc).
func BuildAndRun(dm engine.DataModel, files []string, src string, timeout time.Duration, flags ...string) (reached bool, out string, err error) {
	if _, err := exec.LookPath("gcc"); err != nil {
		return false, "", ErrNoCompiler
	}
	dir, err := os.MkdirTemp("", "reverify-reproduce-")
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(dir)
	repro := filepath.Join(dir, "reproducer.c")
	if err := os.WriteFile(repro, []byte(src), 0o644); err != nil {
		return false, "", err
	}
	abs := make([]string, len(files))
	for i, f := range files {
		if abs[i], err = filepath.Abs(f); err != nil {
			return false, "", err
		}
	}
	exe := filepath.Join(dir, "reproducer")
	argv := reproduce.BuildLine(dm, abs, repro, exe, append(reproduce.BuildFlags(src), flags...)...)
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	build := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var cerr bytes.Buffer
	build.Stderr = &cerr
	if err := build.Run(); err != nil {
		return false, "", fmt.Errorf("cannot compile the reproducer (%s): %v\n%s", strings.Join(argv, " "), err, cerr.String())
	}
	var rerr bytes.Buffer
	stdin, _ := reproduce.Stdin(src)
	code, _, err := reproducer.RunInput(ctx, exe, nil, stdin, io.Discard, &rerr)
	switch {
	case err != nil:
		return false, "", fmt.Errorf("cannot run the reproducer: %v", err)
	case ctx.Err() != nil:
		return false, rerr.String() + "(time limit reached)\n", nil
	}
	return code == ReachedExitCode && strings.Contains(rerr.String(), ReachedMarker), rerr.String(), nil
}

// libraryBuild turns the reproducer src of a FALSE decided in the most
// general context entry (library mode) into a unit test: the program's
// files with their contexts appended (t.Sources) are written below
// dir/sources, their own directories stay on the include path (-iquote,
// relative to dir as reproduce.sh's paths are),
// and src gets a main that calls the context, which builds the API
// function's arguments from the counterexample's values and calls it. A
// main of the program itself is renamed away (-Dmain=…; the reproducer
// undefines the macro before its own). It returns the new source, the
// files to compile and the extra compiler flags.
func (t Task) libraryBuild(dir, entry, src string) (string, []string, []string, error) {
	var files, flags []string
	seen := map[string]bool{}
	for _, f := range t.Files {
		text, ok := t.Sources[f]
		if !ok {
			files = append(files, f)
			continue
		}
		copyPath := filepath.Join(dir, "sources", filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(copyPath), 0o755); err != nil {
			return "", nil, nil, err
		}
		if t.Program.CBMC {
			text, _ = reproduce.LowerQuantifiers(text)
		}
		if err := os.WriteFile(copyPath, []byte(text), 0o644); err != nil {
			return "", nil, nil, err
		}
		files = append(files, copyPath)
		if d := filepath.Dir(f); !seen[d] {
			seen[d] = true
			flags = append(flags, "-iquote", relTo(dir, d))
		}
	}
	if t.Program.Func("main") != nil {
		flags = append(flags, "-Dmain=reverify_program_main")
	}
	// A library's files call functions of files not given. They stay
	// unresolved, which a position-dependent executable loads (in a
	// position-independent one the loader rejects their PLT entries); a
	// run that calls one stops with a segmentation fault, never with
	// status 77.
	flags = append(flags, "-Wl,--unresolved-symbols=ignore-all", "-no-pie")
	// The contexts fill const members through their bytes under gcc.
	flags = append(flags, "-D"+harness.ReproducerMacro)
	// The unit test is the harness's: a reproducer of a program in
	// CBMC's dialect is also force-included into every source
	// (reproduce's selfInclude), where it must add nothing but the
	// dialect.
	src += "\n#if __INCLUDE_LEVEL__ == 0\n" + callbackStubs(t.Sources)
	src += fmt.Sprintf("/* The unit test: the most general context of the function, fed the\n * counterexample's values, calls it. */\n#undef main\nvoid %s(void);\nint main(void)\n{\n\t%s();\n\treturn 0;\n}\n#endif\n", entry, entry)
	return src, files, flags, nil
}

// relTo returns the path p relative to dir (both as on disk), or p made
// absolute when it has no relative form.
func relTo(dir, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(absDir, abs)
	if err != nil {
		return abs
	}
	return rel
}

// lowerSources returns the files of a program in CBMC's dialect for the
// reproducer's build: a file that holds a quantifier is replaced by a
// copy below dir/sources with its quantifiers lowered as the front end
// lowers them (reproduce.LowerQuantifiers: every line where it was), its
// own directory kept on the include path (-iquote, relative to dir).
func lowerSources(dir string, files []string) ([]string, []string, error) {
	var out, flags []string
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			out = append(out, f) // the front end's own units ("<atexit>")
			continue
		}
		text, ok := reproduce.LowerQuantifiers(string(b))
		if !ok {
			out = append(out, f)
			continue
		}
		copyPath := filepath.Join(dir, "sources", filepath.FromSlash(strings.TrimLeft(filepath.ToSlash(f), "/.")))
		if err := os.MkdirAll(filepath.Dir(copyPath), 0o755); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(copyPath, []byte(text), 0o644); err != nil {
			return nil, nil, err
		}
		out = append(out, copyPath)
		if d := filepath.Dir(f); !seen[d] {
			seen[d] = true
			flags = append(flags, "-iquote", relTo(dir, d))
		}
	}
	return out, flags, nil
}

// maxTreeFiles bounds the files lowerTree reads below one include
// directory.
const maxTreeFiles = 20000

// lowerTree writes, below out, a copy of each file under the include
// directory inc that holds a CBMC quantifier, lowered as the front end
// lowers it (the front end reads every such file lowered), with the
// other files of its directory beside it (a quoted include of a sibling
// finds it there), and returns out, or "" when no file holds one. The
// reproducer's build searches out before inc. A quantifier in a file
// outside the include directories is left as it is: gcc then fails to
// compile the reproducer, which confirms nothing.
func lowerTree(inc, out string) (string, error) {
	var dirs []string
	n := 0
	err := filepath.WalkDir(inc, func(path string, d fs.DirEntry, err error) error {
		if err != nil || n >= maxTreeFiles {
			return filepath.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		n++
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		if _, ok := reproduce.LowerQuantifiers(string(b)); ok {
			if d := filepath.Dir(path); len(dirs) == 0 || dirs[len(dirs)-1] != d {
				dirs = append(dirs, d)
			}
		}
		return nil
	})
	if err != nil || len(dirs) == 0 {
		return "", err
	}
	for _, d := range dirs {
		rel, err := filepath.Rel(inc, d)
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Join(out, rel), 0o755); err != nil {
			return "", err
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			return "", err
		}
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(d, e.Name()))
			if err != nil {
				return "", err
			}
			text, _ := reproduce.LowerQuantifiers(string(b))
			if err := os.WriteFile(filepath.Join(out, rel, e.Name()), []byte(text), 0o644); err != nil {
				return "", err
			}
		}
	}
	return out, nil
}

// callbackRE matches the functions outside the sources that contexts
// assign to function pointers (engine/harness: declared, never
// defined).
var callbackRE = regexp.MustCompile(`__rv_callback_[A-Za-z0-9_]*`)

// callbackStubs defines the contexts' functions outside the sources
// (callbackRE) in texts, sorted, so that the unit test links: a
// counterexample that calls one has no reproducer
// (reproduce.Reproducer), so a run that calls one has left the
// counterexample, and the stub stops it with status 0, never 77. The
// definitions are weak and take no parameters: only their addresses
// are used, under the declared types in the sources.
func callbackStubs(texts map[string]string) string {
	seen := map[string]bool{}
	var names []string
	for _, text := range texts {
		for _, n := range callbackRE.FindAllString(text, -1) {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "__attribute__((weak)) void %[1]s(void)\n{\n\tfflush(stdout);\n\tfprintf(stderr, \"reverify-reproducer: the run called %[1]s, a function outside the sources: it left the counterexample\\n\");\n\t_exit(0);\n}\n", n)
	}
	return b.String()
}
