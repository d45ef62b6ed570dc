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
	first := ctx
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		first, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(d)/2))
		defer cancel()
	}
	c, err := validateReplay(first, prog, f, vopts)
	if err != nil || c.Confirmed || ctx.Err() != nil {
		return c, err
	}
	if cc, ok := validateByContracts(ctx, prog, f, entry, solver, opts, vopts); ok {
		return cc, nil
	}
	return c, nil
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
// must prove, within half of ctx's time, the property the witness is
// about (all of prog's when it names none) and every obligation of the
// contracts. A loop whose invariant says nothing ("1") keeps its code,
// for bmc to unroll. When that fails, or no invariant could be placed
// (a witness without invariants claims that the program needs none),
// bmc must prove the program as it is in the rest of the time. ok is
// false when the sources do not read or no proof comes; the replay's
// reason then stands.
func validateByContracts(ctx context.Context, prog *Program, f *WitnessFile, entry string, solver smt.Factory, opts SourceOptions, vopts validate.Options) (WitnessCheck, bool) {
	texts, loops, err := validate.LoopContracts(prog, f.w, vopts)
	if err != nil {
		return WitnessCheck{}, false
	}
	if loops > 0 {
		half := ctx
		if d, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			half, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(d)/2))
			defer cancel()
		}
		if n, ok := proveWith(half, prog, f, entry, solver, opts, vopts, texts); ok {
			return WitnessCheck{Confirmed: true, Reason: fmt.Sprintf("the invariants at %d loops, as loop contracts (asserted on entry, preserved by an iteration from any state they describe with the loop's frame havocked, assumed after the loop), hold and imply the property: bmc proved %s of the program with the contracts", loops, properties(n))}, true
		}
		if ctx.Err() != nil {
			return WitnessCheck{}, false
		}
	}
	if n, ok := proveWith(ctx, prog, f, entry, solver, opts, vopts, nil); ok {
		return WitnessCheck{Confirmed: true, Reason: "verified without the invariants: bmc proved " + properties(n) + " of the program"}, true
	}
	return WitnessCheck{}, false
}

// proveWith reads prog's sources, with the texts that replace some of
// them, and has bmc prove the witness's property and every property
// prog does not have (the contracts' obligations); n is the number of
// properties proved.
func proveWith(ctx context.Context, prog *Program, f *WitnessFile, entry string, solver smt.Factory, opts SourceOptions, vopts validate.Options, texts map[string]string) (n int, ok bool) {
	srcs := make([]Source, 0, len(prog.Files))
	for _, name := range prog.Files {
		if cmodel.IsUnit(name) {
			continue // the front end adds the models it needs
		}
		t, ok := texts[name]
		if !ok {
			b, err := os.ReadFile(name)
			if err != nil {
				return 0, false
			}
			t = string(b)
		}
		srcs = append(srcs, Source{Name: name, Content: t})
	}
	with, err := LoadSources(opts, srcs)
	if err != nil {
		return 0, false
	}
	orig := map[string]bool{}
	for _, p := range vopts.Properties {
		orig[p.ID] = true
	}
	id, named := witness.DescriptionField(f.metadata().Producer.Description, witness.PropertyKey)
	var props []*Property
	found := !named
	for _, p := range spec.Properties(with, entry) {
		if !p.Reachable {
			continue // NOT_CHECKED in any case, as in prog
		}
		if !orig[p.ID] || !named || p.ID == id {
			props = append(props, p)
			found = found || p.ID == id
		}
	}
	if !found || len(props) == 0 {
		return 0, false
	}
	rs, err := Verify(ctx, with, props, Config{Name: "bmc", Entry: entry, Solver: solver, Workers: 1})
	if err != nil {
		return 0, false
	}
	for _, r := range rs {
		if r.Verdict != results.True {
			return 0, false
		}
	}
	return len(rs), true
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

// properties is "1 property" or "n properties".
func properties(n int) string {
	if n == 1 {
		return "1 property"
	}
	return fmt.Sprintf("%d properties", n)
}
