// Package witness turns counterexamples into verification witnesses
// (DESIGN.md, output contracts; seed
// 001_7a124141fc78263e.txt, sections 3.6 and 5.4: a violation witness
// documents the cause of the violation by the path and the concrete values
// along it).
//
// A counterexample is a Violation: the Program, the interprocedural error
// path ([]cfa.Step, ending at the call of the error function) and the
// values of the nondeterministic inputs in read order, each tied to the
// step that read it (a Havoc of __VERIFIER_nondet_*, a Decl of an
// uninitialised local, or a call of an external function). Inputs and
// loop invariants are the types of package results ([results.Input],
// [results.Invariant]) that the engine produces, so a Violation or
// Correctness is built from an engine.Result without conversion.
// uninitialised local, or a call of an external function). A violation
// of memory safety (Violation.Memory: valid-deref, valid-free,
// valid-memtrack, valid-memcleanup) ends at the violating step instead:
// its witnesses state "G valid-deref" (SV-COMP's formula of the violated
// subproperty) with that step as the target, and its reproducer
// (engine/witness/reproduce) names -fsanitize=address among its build
// flags, so that AddressSanitizer reports the error.
//
// # YAML witnesses, format 2.0
//
// WriteViolationYAML follows the violation-witness format 2.0 of the
// sv-witnesses project (schema violation-witness-schema.yml, rendered at
// https://sosy-lab.gitlab.io/benchmarking/sv-witnesses/yaml/violation-witnesses.html;
// the GitHub mirror sosy-lab/sv-witnesses only has the older README-YAML.md
// for 0.1 invariant entries). The file is a list with one entry:
// entry_type "violation_sequence"; metadata with format_version "2.0", a
// random RFC 4122 uuid, creation_time (ISO 8601), producer {name, version,
// configuration} and task {input_files, input_file_hashes (SHA-256),
// specification (the LTL formula of the .prp, "G ! call(reach_error())";
// when the path's error call is not one the formula names, as for an
// assert() property whose path ends in __assert_fail, "G ! call(f())" for
// the function f called, so that the witness violates its own
// specification), data_model (ILP32 or LP64), language C}; content a list of segments.
// Each segment here holds exactly one waypoint with action follow (the
// format allows avoid waypoints before it; none are written). Waypoints
// come from the path, in order:
//
//   - assumption: after a nondeterministic value is stored into a program
//     variable x by a statement that ends right after the call
//     ("x = __VERIFIER_nondet_int();", "int x = …;", also "int x;" for an
//     uninitialised local), the constraint "x == 11" (format
//     c_expression) at the start of the next statement, which the format
//     requires ("evaluated at the sequence point immediately before the
//     waypoint location"); only when the path executes that statement next.
//     Assumptions at the same place are joined with &&.
//   - function_return: otherwise, when the value comes from a call (a
//     temporary in "if (__VERIFIER_nondet_int())", a cast, a larger
//     expression), "\result == 11" (format acsl_expression, the only form
//     2.0 allows there) at the right parenthesis closing the call's
//     arguments. Values of other origins (volatile reads) and pointers
//     other than null are left out.
//   - branching: for the conditions of if, while and for statements, the
//     value "true" or "false" of the whole controlling expression at the
//     statement's keyword. The front end splits &&, ||, ! and ?: into
//     several assume edges, so the package finds the keyword and the
//     controlling expression in the source (comments, literals and
//     preprocessor lines masked), parses its logical structure and
//     evaluates it from the assume edges taken; the waypoint is written
//     when the last condition deciding the statement is taken. switch
//     (whose constraint is the controlling value) and do … while (whose
//     keyword the format leaves open) get none, nor do conditions in value
//     position.
//   - function_enter: entering a function with a body, at the right
//     parenthesis of the call.
//   - target: the first call of the error function named by the
//     specification (reach_error or __VERIFIER_error; else __assert_fail and
//     its relatives), at the first character of the call. Steps after it do
//     not matter.
//
// Source locations are 1-based lines and byte columns of the files the CFA
// positions name. The writers need the source text (Task.Contents or the
// files on disk) for branching keywords and statement starts; without it
// they write only the waypoints positions alone give (fewer waypoints
// make a weaker, still valid witness). The YAML must hash the input files,
// so it fails without their text or Task.Hashes.
//
// Example, for "int x = __VERIFIER_nondet_int(); if (x > 10) {
// reach_error(); }" with x = 11:
//
//	# testdata/simple.yml
//	- entry_type: violation_sequence
//	  metadata:
//	    format_version: "2.0"
//	    uuid: 0f8e1d2c-3b4a-4596-8877-665544332211
//	    creation_time: "2024-05-01T12:00:00Z"
//	    producer:
//	      name: reverify
//	      version: 0.0.0-test
//	      configuration: value
//	    task:
//	      input_files:
//	        - simple.c
//	      input_file_hashes:
//	        simple.c: 02bfa422f2b3ffb0f1a2dce17776ca1847516dd822b3ab1a18143fcf5218f5b6
//	      specification: G ! call(reach_error())
//	      data_model: LP64
//	      language: C
//	  content:
//	    - segment:
//	        - waypoint:
//	            type: assumption
//	            action: follow
//	            constraint:
//	              value: x == 11
//	              format: c_expression
//	            location:
//	              file_name: simple.c
//	              line: 8
//	              column: 3
//	              function: main
//	    - segment:
//	        - waypoint:
//	            type: branching
//	            action: follow
//	            constraint:
//	              value: "true"
//	            location:
//	              file_name: simple.c
//	              line: 8
//	              column: 3
//	              function: main
//	    - segment:
//	        - waypoint:
//	            type: target
//	            action: follow
//	            location:
//	              file_name: simple.c
//	              line: 9
//	              column: 5
//	              function: main
//
// # GraphML witnesses, format 1.0
//
// WriteViolationGraphML follows README-GraphML.md of sosy-lab/sv-witnesses
// (format 1.0): graph data witness-type violation_witness, sourcecodelang
// C, producer, specification (the whole CHECK( init(main()), LTL(…) )
// line), programfile and programhash (the first input file), architecture
// (32bit or 64bit) and creationtime; an entry node, a violation node, and
// a chain of transitions between them. A validator stays in a state until
// a transition matches, so only transitions that surely match a CFA edge
// are written: nondeterministic values as "\result == 11;" with
// assumption.resultfunction (the test-vector form of the sv-witnesses
// test-harness examples), uninitialised locals as "x == 7;" with
// assumption.scope, the conditions of branching statements as control
// condition-true/condition-false per condition (as && and || are split),
// enterFunction and returnFromFunction, and startline/endline throughout.
//
// The package tests check the structure (the YAML parses back with the
// expected waypoints and the format's per-type rules; the GraphML is
// well-formed with the required graph data); cmd/reverify's
// TestWitnesslint runs the sv-witnesses linter (lint/witnesslinter.py,
// Python with lxml) on the GraphML witnesses when REVERIFY_WITNESSLINT
// names it.
//
// # Correctness witnesses
//
// A TRUE verdict's final reached set is a fixed point that covers every
// reachable state; engine.Result.Invariants ([results.Invariant]) takes,
// per CFA loop head, the disjunction over the reached states there of
// the conjunction of what each knows (values of integer variables; for symbolic execution also
// equalities of variables holding one symbol and the path constraints
// over held symbols, as comparisons; for predicate abstraction the
// abstraction, a Boolean combination of predicates, as bit-precise C
// conditions). k-induction has no reached set: its invariants are the
// Houdini-selected candidates its proof assumed (or, with evidence kept,
// searched after a proof that needed none), with the proof's k + 1 as
// the witness's induction depth (Correctness.K); bounded model checking
// (engine/bmc) writes the invariant "1" at every loop head with the
// depth of its proof: k + 1 for its k-induction, and for unwinding
// assertions a bound on the loop head visits of every execution, so
// that the validator's base case covers every execution. A program
// without loops gets an empty invariant set. Correctness (mirroring it as
// Invariant and Fact) locates each loop head at the first character of
// its while or for keyword (the statement whose controlling expression
// holds the head's condition, or whose body starts with the head's
// first edge for a loop without a condition); do … while and goto loops,
// which have no such keyword, at the first character of the statement
// their head precedes (a location_invariant: it holds whenever control
// reaches that statement) and prints the invariant as a C expression over
// the variables an invariant there can name (scope: parameters, locals
// declared before the keyword in an enclosing block or in the for
// statement's parentheses, globals they do not shadow; ambiguous names
// are left out). Facts over other variables are dropped, which weakens
// the invariant soundly; facts shared by all disjuncts are factored out,
// one variable's contiguous values become a range, "1" is written when
// nothing is known and "0" at loop heads the reached set never reaches.
//
// Before writing, validate.Select (engine/witness/validate, called by
// `reverify check`) may replace the invariants by ones the validator
// proves (Correctness.Chosen) and set the induction depth.
//
// WriteCorrectnessYAML writes one invariant_set entry (format 2.0: the
// metadata of violation witnesses, content items invariant {type
// loop_invariant or location_invariant, location {file_name, line,
// column, function}, value,
// format c_expression}); a per-assertion property is named in
// producer.description as "property: ID" (SV-COMP's specification
// covers every reach_error call), an induction depth above 1 as a line
// "k-induction: K" there (the format has no field for it; description
// is free text, so other validators ignore it and check the invariants
// as usual). WriteCorrectnessGraphML writes the
// GraphML 1.0 correctness witness: entry node N0, one node per invariant
// (invariant, invariant.scope) entered from N0 by the transitions
// matching the CFA edges into the loop head (enterLoopHead, startline,
// endline) and left by an unguarded transition back to N0.
//
// # Reading witnesses
//
// ReadWitness parses a YAML witness (format 2.0) of violation_sequence or
// invariant_set entries for the validator (engine/witness/validate);
// content it cannot use is a *BadWitnessError. The validator locates
// waypoints and loop invariants in the source as the writers place them
// (Sources, LoopSiteOf, Scope) and reads the producer.description fields
// the writers record (Description, InductionDepth).
package witness
