package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// witnessInput is what validate and reproduce share: the parsed witness
// and the program it is about.
type witnessInput struct {
	w     *witness.Witness
	prog  *cfa.Program
	props []*spec.Property
	entry string
}

// loadWitness parses the flags common to validate and reproduce, reads
// the witness and translates the program (under the witness's data model
// unless --data-model is given). It returns a non-zero exit code on bad
// input, after printing one line.
func loadWitness(name string, args []string, stderr io.Writer) (*witnessInput, *time.Duration, int) {
	fs := newFlagSet(name, stderr)
	var ff frontendFlags
	ff.register(fs)
	wpath := fs.String("witness", "", "the YAML witness (format 2.0)")
	entry := fs.String("entry", "main", "entry function")
	timeout := fs.Duration("timeout", 60*time.Second, "time limit")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, nil, 2
	}
	fail := func(format string, a ...any) (*witnessInput, *time.Duration, int) {
		fmt.Fprintf(stderr, "reverify %s: "+format+"\n", append([]any{name}, a...)...)
		return nil, nil, 2
	}
	if err := checkLimits(fs); err != nil {
		return fail("%v", err)
	}
	if *wpath == "" {
		return fail("--witness is required")
	}
	if len(files) == 0 {
		return fail("no input files")
	}
	f, err := os.Open(*wpath)
	if err != nil {
		return fail("%v", err)
	}
	w, err := witness.ReadWitness(f)
	f.Close()
	if err != nil {
		return fail("%s: %v", *wpath, err)
	}
	if !explicitFlags(fs)["data-model"] {
		var dm string
		if len(w.Violation) > 0 {
			dm = w.Violation[0].Metadata.Task.DataModel
		} else {
			dm = w.Correctness[0].Metadata.Task.DataModel
		}
		if dm != "" {
			ff.dataModel = dm
		}
	}
	cfg, err := ff.config()
	if err != nil {
		return fail("%v", err)
	}
	prog, err := frontend.Translate(cfg, files...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, 2
	}
	if prog.Func(*entry) == nil {
		return fail("entry function %q is not defined in %s", *entry, strings.Join(files, ", "))
	}
	return &witnessInput{w: w, prog: prog, props: spec.Properties(prog, *entry), entry: *entry}, timeout, 0
}

// validateWitness runs the validator; bad witness content is exit code 2.
func validateWitness(in *witnessInput, timeout time.Duration) (witness.Validation, error) {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return witness.Validate(ctx, in.prog, in.w, witness.ValidateOptions{Solver: z3.Factory, Entry: in.entry, Properties: in.props})
}

// runValidate implements `reverify validate --witness W FILE...`: witness
// validation by replay (engine/witness.Validate). Exit codes: 0
// confirmed, 1 rejected, 2 bad input (unreadable or unsupported witness,
// untranslatable program).
func runValidate(args []string, stdout, stderr io.Writer) int {
	in, timeout, code := loadWitness("validate", args, stderr)
	if in == nil {
		return code
	}
	res, err := validateWitness(in, *timeout)
	if err != nil {
		// a *witness.BadWitnessError: content the validator cannot use
		fmt.Fprintf(stderr, "reverify validate: %v\n", err)
		return 2
	}
	if res.Confirmed {
		fmt.Fprintln(stdout, "confirmed:", res.Reason)
		return 0
	}
	fmt.Fprintln(stdout, "rejected:", res.Reason)
	return 1
}

// correctnessOf returns the correctness witness content of a TRUE result.
func correctnessOf(prog *cfa.Program, files []string, entry, config, prp string, r *engine.Result) *witness.Correctness {
	c := &witness.Correctness{Program: prog, Invariants: r.Invariants, Task: witness.Task{
		Files: files, Entry: entry, Specification: prp, DataModel: prog.DataModel,
		Producer: "reverify", Version: version, Configuration: config,
	}}
	if r.Property.ID != spec.UnreachCallID {
		c.Property = r.Property.ID
	}
	return c
}

// selectTimeout bounds the choice of invariants (witness.Correctness.Select)
// per TRUE property (wall-clock time).
const selectTimeout = 20 * time.Second

// selectBudget is the time invariant selection may take for a TRUE
// result under the property's time limit (0: none): what the analysis
// left of the limit, at most selectTimeout, so that a property never
// overshoots its limit by more than 10 % + 1 s (issue 14). A budget of
// zero keeps the reached-set invariants.
func selectBudget(timeout time.Duration, r *engine.Result) time.Duration {
	if timeout <= 0 {
		return selectTimeout
	}
	left := timeout - time.Duration(r.Seconds*float64(time.Second))
	return max(0, min(selectTimeout, left))
}

// writeCorrectness writes the correctness witnesses of a TRUE result
// into dir (witness.yml when it has a loop invariant, witness.graphml
// always) and names them in pr; it returns the errors.
func writeCorrectness(dir string, prog *cfa.Program, files []string, entry, config, prp string, r *engine.Result, pr *results.PropertyReport, timeout time.Duration) []string {
	c := correctnessOf(prog, files, entry, config, prp, r)
	// Prefer compact invariants the validator proves (Houdini over
	// candidates); on failure the reached-set invariants stay.
	if budget := selectBudget(timeout, r); budget > 0 {
		sctx, cancel := context.WithTimeout(context.Background(), budget)
		_, _ = c.Select(sctx, witness.ValidateOptions{Solver: z3.Factory, Entry: entry, Properties: []*spec.Property{r.Property}})
		cancel()
	}
	var errs []string
	e, err := witness.CorrectnessYAML(c)
	if err != nil {
		return []string{err.Error()}
	}
	if len(e.Content) > 0 {
		yml := filepath.Join(dir, "witness.yml")
		if err := writeWith(yml, func(b *bytes.Buffer) error { return witness.WriteCorrectnessYAML(b, c) }); err != nil {
			errs = append(errs, err.Error())
		} else {
			pr.Witness = yml
		}
	}
	gml := filepath.Join(dir, "witness.graphml")
	if err := writeWith(gml, func(b *bytes.Buffer) error { return witness.WriteCorrectnessGraphML(b, c) }); err != nil {
		errs = append(errs, err.Error())
	} else {
		pr.WitnessGraphML = gml
	}
	return errs
}
