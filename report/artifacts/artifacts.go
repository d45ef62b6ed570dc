package artifacts

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/reproduce"
	"github.com/reverify/reverify/engine/witness/validate"
	"github.com/reverify/reverify/results"
)

// Task is the verification run whose results Write documents.
type Task struct {
	// Program is the program the results are about.
	Program *engine.Program
	// Files are the input files as given to the verifier; the witnesses
	// name and hash them, reproduce.sh compiles them.
	Files []string
	// Entry is the entry function; Config the configuration's name.
	Entry, Config string
	// Specification is the property line of the witnesses, e.g.
	// "CHECK( init(main()), LTL(G ! call(reach_error())) )".
	Specification string
	// Version is the producer version the witnesses name.
	Version string
	// Timeout is each property's time limit (0: none); it bounds the
	// choice of invariants (SelectBudget).
	Timeout time.Duration
	// Solver creates the SMT solvers that choose a TRUE result's
	// invariants (cmd injects engine/smt/z3).
	Solver smt.Factory
	// Sources, in library mode, are the files as Program was translated
	// from them (with the most general contexts appended), by name: a
	// reproducer of a FALSE decided in a context compiles copies of them
	// and calls the context (libraryBuild).
	Sources map[string]string
	// IncludeDirs are the program's include directories (-I) as paths
	// on disk; reproduce.sh passes them to gcc relative to its own
	// directory.
	IncludeDirs []string
	// Defines are the macros the program was read with (-D; the value
	// "" is 1, " " is nothing, as engine.SourceOptions.Defines):
	// reproduce.sh passes them to gcc, so that it compiles the program
	// the verdict is about.
	Defines map[string]string
}

// unsafeName matches the runs of characters Dir replaces.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// SafeName returns s with every run of characters other than letters,
// digits, '_', '.' and '-' replaced by one '_': a file-name-safe
// directory name.
func SafeName(s string) string { return unsafeName.ReplaceAllString(s, "_") }

// Dir is the directory of one property's artifacts inside out: the
// property ID made file-name safe (SafeName, at most 60 bytes), with its
// line for uniqueness ("<id>-L<line>").
func Dir(out string, r *engine.Result) string {
	id := SafeName(r.Property.ID)
	if len(id) > 60 {
		id = id[:60]
	}
	return filepath.Join(out, fmt.Sprintf("%s-L%d", id, r.Property.Pos.Line))
}

// Write writes, per result of rs, its pixel tree (PNG, SVG, text) and,
// for TRUE, its correctness witnesses, for FALSE, its violation
// witnesses (YAML 2.0, GraphML) and reproducer, into Dir(out, r), and
// records their paths in report.Properties (aligned with rs). A FALSE
// result whose path no harness can replay gets "; no reproducer: why"
// appended to its report's Reason. Failures to write one artifact are
// returned joined ("writing artifacts: ...") but do not stop the others;
// only a directory that cannot be created stops Write.
func Write(out string, t Task, rs []*engine.Result, report *results.Report) error {
	prog := t.Program
	var errs []string
	for i, r := range rs {
		pr := &report.Properties[i]
		dir := Dir(out, r)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		// The per-site memory properties of an entry share one run's
		// ARG: only a violated site gets a picture of it.
		if (r.ARG != nil || r.Shape != nil) && (r.Property.Sites == nil || r.Verdict == results.False) {
			base := filepath.Join(dir, "pixeltree")
			var cex []cfa.Step
			if r.Verdict == results.False {
				cex = r.Counterexample
			}
			if err := writePixelTree(base, r, cex); err != nil {
				errs = append(errs, err.Error())
			} else {
				pr.PixelTree = base + ".png"
			}
		}
		if err := writeScope(dir, r); err != nil {
			errs = append(errs, err.Error())
		}
		if r.Verdict == results.True && len(r.Property.Memory) == 0 { // memory safety: no correctness witness yet
			errs = append(errs, writeCorrectness(dir, t, r, pr)...)
		}
		if r.Verdict != results.False {
			continue
		}
		wt := t.witnessTask()
		if r.Entry != "" {
			wt.Entry = r.Entry
		}
		v := &witness.Violation{Program: prog, Path: r.Counterexample, Inputs: r.Inputs, Task: wt, Memory: r.Violated, Property: r.Property}
		yml := filepath.Join(dir, "witness.yml")
		if err := writeWith(yml, func(b *bytes.Buffer) error { return witness.WriteViolationYAML(b, v) }); err != nil {
			errs = append(errs, err.Error())
		} else {
			pr.Witness = yml
		}
		if err := writeWith(filepath.Join(dir, "witness.graphml"), func(b *bytes.Buffer) error { return witness.WriteViolationGraphML(b, v) }); err != nil {
			errs = append(errs, err.Error())
		} else {
			pr.WitnessGraphML = filepath.Join(dir, "witness.graphml")
		}
		src, err := reproduce.Reproducer(t.withHeap(r, v)) // contract.go
		if err != nil {
			pr.Reason = strings.TrimSpace(pr.Reason + "; no reproducer: " + err.Error())
			continue
		}
		files, flags := t.Files, reproduce.BuildFlags(src)
		for k, inc := range t.IncludeDirs {
			if prog.CBMC {
				q, err := lowerTree(inc, filepath.Join(dir, "quantifiers", fmt.Sprint(k)))
				if err != nil {
					errs = append(errs, err.Error())
				} else if q != "" {
					flags = append(flags, "-I", relTo(dir, q))
				}
			}
			flags = append(flags, "-I", relTo(dir, inc))
		}
		flags = append(flags, DefineFlags(t.Defines)...)
		if cfa.IsContext(r.Entry) {
			lt, err := t.requiresSources(r) // contract.go
			if err != nil {
				pr.Reason = strings.TrimSpace(pr.Reason + "; no reproducer: " + err.Error())
				continue
			}
			var more []string
			src, files, more, err = lt.libraryBuild(dir, r.Entry, src)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			flags = append(flags, more...)
		} else if prog.CBMC {
			var more []string
			if files, more, err = lowerSources(dir, files); err != nil {
				errs = append(errs, err.Error())
				continue
			}
			flags = append(flags, more...)
		}
		repro := filepath.Join(dir, "reproducer.c")
		if err := os.WriteFile(repro, []byte(src), 0o644); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		stdin, hasStdin := reproduce.Stdin(src)
		script, err := reproduceScript(prog.DataModel, files, dir, flags, stdin, hasStdin, r.Violated != "")
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "reproduce.sh"), []byte(script), 0o755); err != nil {
			errs = append(errs, err.Error())
		}
		pr.Reproducer = repro
	}
	if len(errs) > 0 {
		return fmt.Errorf("writing artifacts: %s", strings.Join(errs, "; "))
	}
	return nil
}

// witnessTask is the task part of t's witnesses.
func (t Task) witnessTask() witness.Task {
	return witness.Task{
		Files: t.Files, Entry: t.Entry, Specification: t.Specification, DataModel: t.Program.DataModel,
		Producer: "reverify", Version: t.Version, Configuration: t.Config,
	}
}

// correctnessOf returns the correctness witness content of a TRUE result.
func correctnessOf(t Task, r *engine.Result) *witness.Correctness {
	c := &witness.Correctness{Program: t.Program, Invariants: r.Invariants, K: r.InductionDepth, Task: t.witnessTask()}
	if r.Property.ID != spec.UnreachCallID {
		c.Property = r.Property.ID
	}
	return c
}

// SelectTimeout bounds the choice of invariants
// (validate.Select) per TRUE property (wall-clock time).
const SelectTimeout = 20 * time.Second

// SelectBudget is the time invariant selection may take for a TRUE
// result under the property's time limit (0: none): what the analysis
// left of the limit, at most SelectTimeout, so that a property never
// overshoots its limit by more than 10 % + 1 s. A budget of
// zero keeps the reached-set invariants.
func SelectBudget(timeout time.Duration, r *engine.Result) time.Duration {
	if timeout <= 0 {
		return SelectTimeout
	}
	left := timeout - time.Duration(r.Seconds*float64(time.Second))
	return max(0, min(SelectTimeout, left))
}

// writeCorrectness writes the correctness witnesses of a TRUE result
// into dir (witness.yml and witness.graphml) and names them in pr; it
// returns the errors.
func writeCorrectness(dir string, t Task, r *engine.Result, pr *results.PropertyReport) []string {
	c := correctnessOf(t, r)
	// Prefer compact invariants the validator proves (Houdini over
	// candidates); on failure the reached-set invariants stay.
	if budget := SelectBudget(t.Timeout, r); budget > 0 {
		sctx, cancel := context.WithTimeout(context.Background(), budget)
		_, _ = validate.Select(sctx, c, validate.Options{Solver: t.Solver, Entry: t.Entry, Properties: []*engine.Property{r.Property}})
		cancel()
	}
	var errs []string
	// Every TRUE gets a YAML witness, an empty invariant set where the
	// program has no loop.
	yml := filepath.Join(dir, "witness.yml")
	if err := writeWith(yml, func(b *bytes.Buffer) error { return witness.WriteCorrectnessYAML(b, c) }); err != nil {
		errs = append(errs, err.Error())
	} else {
		pr.Witness = yml
	}
	gml := filepath.Join(dir, "witness.graphml")
	if err := writeWith(gml, func(b *bytes.Buffer) error { return witness.WriteCorrectnessGraphML(b, c) }); err != nil {
		errs = append(errs, err.Error())
	} else {
		pr.WitnessGraphML = gml
	}
	return errs
}

// writeWith writes what f puts into a buffer to path; f's error is
// prefixed with the path.
func writeWith(path string, f func(*bytes.Buffer) error) error {
	var b bytes.Buffer
	if err := f(&b); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// DefineFlags returns gcc's -D flags for defines (as
// engine.SourceOptions.Defines), sorted by name: the value "" is -Dname
// (1), " " is -Dname= (nothing).
func DefineFlags(defines map[string]string) []string {
	names := make([]string, 0, len(defines))
	for n := range defines {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		switch v := defines[n]; v {
		case "":
			out = append(out, "-D"+n)
		case " ":
			out = append(out, "-D"+n+"=")
		default:
			out = append(out, "-D"+n+"="+v)
		}
	}
	return out
}
