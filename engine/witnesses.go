package engine

import (
	"context"
	"errors"
	"io"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/reproduce"
	"github.com/reverify/reverify/engine/witness/validate"
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
// solvers (cmd injects engine/smt/z3); ctx bounds the time. The error is
// non-nil for witness content the validator cannot use (syntax,
// unsupported waypoints, locations matching nothing): `reverify
// validate` exits 2 on it.
func ValidateWitness(ctx context.Context, prog *Program, f *WitnessFile, entry string, solver smt.Factory) (WitnessCheck, error) {
	res, err := validate.Validate(ctx, prog, f.w, validate.Options{Solver: solver, Entry: entry, Properties: spec.Properties(prog, entry)})
	if err != nil {
		return WitnessCheck{}, err
	}
	c := WitnessCheck{Confirmed: res.Confirmed, Reason: res.Reason}
	if res.Confirmed && f.IsViolation() {
		c.v = &witness.Violation{Program: prog, Path: res.Path, Inputs: res.Inputs, Task: witness.Task{
			Files: prog.Files, Entry: entry, Specification: f.metadata().Task.Specification, DataModel: prog.DataModel,
		}}
	}
	return c, nil
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
