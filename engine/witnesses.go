package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reverify/reverify/engine/frontend/cmodel"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/reproduce"
	"github.com/reverify/reverify/engine/witness/validate"
	"github.com/reverify/reverify/results"
)

// The facade's access to witness validation and reproducer replay, for
// `reverify validate` and `reverify reproduce` (cmd/reverify
// imports no package below the facade). Writing a result's witnesses and
// reproducer is report/artifacts' job.

// WitnessFile is a parsed YAML witness of format 2.0: one
// violation_sequence entry or invariant_set entries (engine/witness,
// ReadWitness).
type WitnessFile struct {
	w *witness.Witness
}

// ReadWitness parses a YAML witness of format 2.0 (witness.ReadWitness).
// Unreadable, GraphML, mixed or unsupported witnesses are an error that
// names the offending entry.
func ReadWitness(r io.Reader) (*WitnessFile, error) {
	w, err := witness.ReadWitness(r)
	if err != nil {
		return nil, err
	}
	return &WitnessFile{w: w}, nil
}

// IsViolation reports whether f is a violation witness (else it is a
// correctness witness).
func (f *WitnessFile) IsViolation() bool { return len(f.w.Violation) > 0 }

// metadata is the metadata of f's first entry.
func (f *WitnessFile) metadata() witness.YAMLMetadata {
	if f.IsViolation() {
		return f.w.Violation[0].Metadata
	}
	return f.w.Correctness[0].Metadata
}

// DataModel is the data model the witness's task names ("ILP32",
// "LP64", or "" when it names none), as written.
func (f *WitnessFile) DataModel() string { return f.metadata().Task.DataModel }

// WitnessCheck is the outcome of ValidateWitness.
type WitnessCheck struct {
	// Confirmed reports that the witness holds on the program.
	Confirmed bool
	// Reason says what was confirmed, or why the witness was rejected
	// (which invariant at which location, which waypoint).
	Reason string

	// v is, for a confirmed violation witness, the feasible error path
	// it describes with its inputs in read order (for Reproducer).
	v *witness.Violation
}

// ValidateWitness checks the witness f against prog by replay
// (validate.Validate, engine/witness/validate; doc/DESIGN.md, layer 6): a violation witness must
// describe a bit-precisely feasible path from entry to the error call, a
// correctness witness's invariants must be inductive and imply the
// properties of prog reachable from entry. solver creates the SMT
// solvers (cmd injects engine/smt/z3); ctx bounds the time. opts are
// the front end's options prog was read with (Load): with them, a
// correctness witness of C sources that the replay rejects, or that
// takes half of ctx's time without an answer, is checked again with its
// invariants as loop contracts for the rest (validateByContracts). The
// error is non-nil for witness content the validator cannot use
// (syntax, unsupported waypoints, locations matching nothing): `reverify
// validate` exits 2 on it.
func ValidateWitness(ctx context.Context, prog *Program, f *WitnessFile, entry string, solver smt.Factory, opts SourceOptions) (WitnessCheck, error) {
	vopts := validate.Options{Solver: solver, Entry: entry, Properties: spec.Properties(prog, entry)}
	if f.IsViolation() || !contractsApply(prog, opts) {
		return validateReplay(ctx, prog, f, vopts)
	}
	first, cancel := halfTime(ctx)
	defer cancel()
	c, err := validateReplay(first, prog, f, vopts)
	if err != nil || c.Confirmed || ctx.Err() != nil {
		return c, err
	}
	if cc, ok := validateByContracts(ctx, prog, f, entry, solver, opts, vopts); ok {
		return cc, nil
	}
	return c, nil
}

// halfTime returns ctx with half of the time to its deadline (ctx itself
// when it has none).
func halfTime(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok {
		return context.WithDeadline(ctx, time.Now().Add(time.Until(d)/2))
	}
	return ctx, func() {}
}

// validateReplay is validate.Validate as a WitnessCheck.
func validateReplay(ctx context.Context, prog *Program, f *WitnessFile, vopts validate.Options) (WitnessCheck, error) {
	res, err := validate.Validate(ctx, prog, f.w, vopts)
	if err != nil {
		return WitnessCheck{}, err
	}
	c := WitnessCheck{Confirmed: res.Confirmed, Reason: res.Reason}
	if res.Confirmed && f.IsViolation() {
		c.v = &witness.Violation{Program: prog, Path: res.Path, Inputs: res.Inputs, Task: witness.Task{
			Files: prog.Files, Entry: vopts.Entry, Specification: f.metadata().Task.Specification, DataModel: prog.DataModel,
		}}
	}
	return c, nil
}

// contractsApply reports whether prog was read from C sources by the
// built-in front end, which translates loop contracts.
func contractsApply(prog *Program, opts SourceOptions) bool {
	if opts.Frontend != "" && opts.Frontend != "cc" || len(prog.Files) == 0 {
		return false
	}
	for _, f := range prog.Files {
		if IsIR(f) {
			return false
		}
	}
	return true
}

// validateByContracts validates the correctness witness f by
// verification (validate.LoopContracts; Beyer and Spiessl, "MetaVal:
// Witness Validation via Verification", CAV 2020): prog's sources are
// read again with the witness's invariants as loop contracts, and `bmc`
// must prove, within half of ctx's time, every obligation of the
// contracts (each invariant holds on entry and is preserved: it is an
// invariant) and the property the witness is about (all of prog's when
// it names none). A loop whose invariant says nothing ("1") keeps its
// code, for bmc to unroll. When the invariants hold but do not suffice
// for bmc, or the witness has none that say anything (it claims that
// the program needs none), bmc must prove the property of the program
// as it is in the rest of the time. A witness with an invariant the
// contracts cannot carry (at a do … while or goto loop) is not checked
// this way. ok is false when the sources do not read or no proof comes;
// the replay's reason then stands.
func validateByContracts(ctx context.Context, prog *Program, f *WitnessFile, entry string, solver smt.Factory, opts SourceOptions, vopts validate.Options) (WitnessCheck, bool) {
	texts, loops, unplaced, err := validate.LoopContracts(prog, f.w, vopts)
	if err != nil || unplaced > 0 {
		return WitnessCheck{}, false
	}
	held := ""
	if loops > 0 {
		half, cancel := halfTime(ctx)
		defer cancel()
		obligations, property, n := proveWith(half, prog, f, entry, solver, opts, vopts, texts)
		if obligations && property {
			return WitnessCheck{Confirmed: true, Reason: fmt.Sprintf("the invariants at %s, as loop contracts (asserted on entry, preserved by an iteration from any state they describe with the loop's frame havocked, assumed after the loop), hold and imply the property: bmc proved %s of the program with the contracts", count(loops, "loop", "loops"), count(n, "property", "properties"))}, true
		}
		if !obligations || ctx.Err() != nil {
			return WitnessCheck{}, false
		}
		held = "the invariants at " + count(loops, "loop", "loops") + " hold as loop contracts, and "
	}
	if _, property, n := proveWith(ctx, prog, f, entry, solver, opts, vopts, nil); property {
		return WitnessCheck{Confirmed: true, Reason: held + "bmc proved " + count(n, "property", "properties") + " of the program without them"}, true
	}
	return WitnessCheck{}, false
}

// proveWith reads prog's sources, with the texts that replace some of
// them, and has bmc verify the witness's property (all of prog's
// properties when the witness names none) and every property prog
// does not have (the contracts' obligations). obligations and property
// report whether bmc proved all of each (obligations is true when there
// are none); n is the number of properties proved.
func proveWith(ctx context.Context, prog *Program, f *WitnessFile, entry string, solver smt.Factory, opts SourceOptions, vopts validate.Options, texts map[string]string) (obligations, property bool, n int) {
	srcs := make([]Source, 0, len(prog.Files))
	for _, name := range prog.Files {
		if cmodel.IsUnit(name) {
			continue // the front end adds the models it needs
		}
		t, ok := texts[name]
		if !ok {
			b, err := os.ReadFile(name)
			if err != nil {
				return false, false, 0
			}
			t = string(b)
		}
		srcs = append(srcs, Source{Name: name, Content: t})
	}
	with, err := LoadSources(opts, srcs)
	if err != nil {
		return false, false, 0
	}
	orig := map[string]bool{}
	for _, p := range vopts.Properties {
		orig[p.ID] = true
	}
	id, named := witness.DescriptionField(f.metadata().Producer.Description, witness.PropertyKey)
	var props []*Property
	for _, p := range spec.Properties(with, entry) {
		if !p.Reachable {
			continue // NOT_CHECKED in any case, as in prog
		}
		if !orig[p.ID] || !named || p.ID == id {
			props = append(props, p)
		}
	}
	rs, err := Verify(ctx, with, props, Config{Name: "bmc", Entry: entry, Solver: solver, Workers: 1})
	if err != nil {
		return false, false, 0
	}
	obligations, property = true, true
	targets := 0
	for _, r := range rs {
		ok := r.Verdict == results.True
		if ok {
			n++
		}
		if orig[r.Property.ID] {
			targets++
			property = property && ok
		} else {
			obligations = obligations && ok
		}
	}
	// the witness's property must be among them
	return obligations, property && targets > 0, n
}

// Reproducer returns the C source of the test harness that replays the
// confirmed violation witness's path with its input values
// (reproduce.Reproducer; report/artifacts.BuildAndRun compiles and runs
// it). It is an error when the check did
// not confirm a violation witness, or when the path's inputs cannot be
// replayed by a harness.
func (c WitnessCheck) Reproducer() (string, error) {
	if c.v == nil {
		return "", errNoViolation
	}
	return reproduce.Reproducer(c.v)
}

// errNoViolation is Reproducer's error without a confirmed violation.
var errNoViolation = errors.New("no confirmed violation witness")

// count is "1 one" or "n many".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
