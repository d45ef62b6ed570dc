// Package engine is reverify's facade: Verify decides, for each property
// of a program, TRUE, FALSE or UNKNOWN with a named configuration and
// resource limits, and returns results with their evidence.
//
// Each property is decided by its own analysis run (seed 000
// f76fde50ed4a4828.txt, section 4.1: one verification task per
// property); runs go in parallel across Config.Workers goroutines. How a
// property is decided is a value of engine/strategy built per property
// from its configuration (registry.go: strategy): one analysis
// (strategy.Func), or the portfolio of `default` (strategy.Portfolio,
// arms in analyses.go, taking turns in time slices when the property has
// fewer cores than arms), after the multi-property run's share
// (strategy.Sequence, mpv.go; the run is engine/multiprop's); rounds of
// growing budgets under Config.ShareDeadline are strategy.Rounds
// (rounds.go). Memory-safety properties are decided by the plan's first
// step, engine/memsafety.
//
// Honest verdicts (the soundness contract):
//   - TRUE only when the CPA algorithm exhausted its waitlist without a
//     feasible target state and no reached state passed an unsupported
//     construct;
//   - FALSE only with an error path that the SMT check finds satisfiable
//     bit-precisely and that a concrete run with the model's inputs
//     follows to the error (engine/interp); a FALSE whose path depends
//     on an external function without a body is UNKNOWN ("depends on
//     unmodelled f");
//   - UNKNOWN otherwise, with its cause as data (Result.Cause,
//     results.Cause: timeout, memory limit, state limit, unsupported
//     construct, unmodelled call, disagreement, internal error, …) and
//     the reason rendered from it once (strategy.Render).
//
// Each property runs under its limits (strategy.Limit): Config.Timeout
// on Config.Clock, after which every phase stops and the reason reads
// "timeout after 30s (value: 79,805 states; …)", and Config.MemoryLimit,
// which a watchdog (strategy.MemoryWatch) enforces by cancelling the
// property ("memory limit 1.5GiB exceeded"). The entry
// function's integer parameters are inputs; its other parameters are
// covered by cfa.Function.UnmodelledParam.
//
// Verdicts, counterexample inputs and loop invariants are the types of
// package results (results.Verdict, results.Input, results.Invariant),
// which witnesses and reports read without conversion; NewReport builds
// results.json (results.Report, schema in doc/DESIGN.md) from Results.
// A configuration is a named entry of the registry (registry.go; the
// registered ones are in analyses.go and slicing.go). Config's values
// that come from text are parsed once, at the edge, by ParsePrecision,
// ParsePrecisionScope and ParseSlicingCriterion (parse.go), and travel
// typed. The facade knows no concrete abstract state: the loop
// invariants of a proof come from the states that implement
// cpa.InvariantReporter (engine/invariants), and each refiner lives with its
// analysis in engine/cegar. Nothing is kept between Verify calls: state
// such as the system dependence graphs the slicing configurations and
// --reduce share belongs to one call.
//
// A results.json for the report (schema in DESIGN.md) is built by
// NewReport.
//
// Wiring code (cmd/reverify) reaches the layers below only through this
// package (layers_test.go, cmdFacades): load.go aliases the program,
// property, position and data-model types and forwards loading C sources
// (Load), listing properties (Properties, UnreachCall, ParsePRP), the CFA
// dump (WriteCFA), static slices (StaticSlices) and the host compiler of
// the front end's configuration cache (SetHostCompiler); witnesses.go
// reads and validates witnesses by replay (ReadWitness, ValidateWitness)
// and gives the reproducer of a confirmed violation witness
// (WitnessCheck.Reproducer) for `reverify validate` and `reverify
// reproduce`. A result's own witnesses, reproducer and pixel tree are
// written by report/artifacts.
package engine
