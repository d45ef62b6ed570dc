package proofs

import (
	"strings"
)

// The implicit checks of CBMC 6 (cbmc --help, "Program instrumentation
// options"), by option name without the leading "--". CBMC's
// cbmc_parse_options.cpp (set_default_analysis_flags) turns the first six
// on unless --no-standard-checks is given; goto_check_c.h
// (PARSE_OPTIONS_GOTO_CHECK) lets --X and --no-X override that default for
// those six and float-div-by-zero-check (--no-X wins over --X), and turns
// every other check on only when --X is given.
var (
	defaultChecks  = []string{"bounds-check", "pointer-check", "pointer-primitive-check", "div-by-zero-check", "signed-overflow-check", "undefined-shift-check"}
	optionalChecks = []string{"float-div-by-zero-check", "unsigned-overflow-check", "pointer-overflow-check", "conversion-check", "float-overflow-check", "nan-check", "enum-range-check", "memory-leak-check", "memory-cleanup-check"}
)

// BuiltinAssertions is the name Proof.Checks gives CBMC's built-in
// assertions (on unless --no-built-in-assertions): the
// __CPROVER_precondition checks of its library models, among them those
// of free (CBMC's ansi-c/library/stdlib.c: "free argument must be NULL or
// valid pointer", "free argument must be dynamic object", "free argument
// has offset zero", "double free"), which hold whatever the pointer check.
const BuiltinAssertions = "built-in-assertions"

// cbmcChecks returns the checks CBMC 6 makes when run with the words
// flags (its command line as the starter kit's Makefile.common builds
// it), in the order of defaultChecks, optionalChecks, then
// BuiltinAssertions.
func cbmcChecks(flags []string) []string {
	given := map[string]bool{}
	for _, f := range flags {
		if n, ok := strings.CutPrefix(f, "--"); ok {
			given[n] = true
		}
	}
	var out []string
	for _, c := range defaultChecks {
		on := !given["no-standard-checks"]
		if given[c] {
			on = true
		}
		if given["no-"+c] {
			on = false
		}
		if on {
			out = append(out, c)
		}
	}
	for _, c := range optionalChecks {
		on := given[c]
		if c == "float-div-by-zero-check" && given["no-"+c] {
			on = false
		}
		if on {
			out = append(out, c)
		}
	}
	if !given["no-built-in-assertions"] {
		out = append(out, BuiltinAssertions)
	}
	return out
}

// Memory properties reverify checks for CBMC's checks (the
// subproperty names of engine/spec: valid-deref and valid-free per
// access site, valid-memcleanup for the whole program).
const (
	subDeref   = "valid-deref"
	subFree    = "valid-free"
	subCleanup = "valid-memcleanup"
)

// What reverify's memory properties leave out of the checks they stand
// for (MemoryChecks), as listed among the checks not checked.
const (
	// CBMC's bounds check also fails on an index outside an array that
	// lies inside a larger object (s.a[5] for a member char a[4];
	// goto_check_c.cpp bounds_check_index); valid-deref is about the
	// object.
	partBounds = "--bounds-check (arrays inside an object)"
	// CBMC's pointer check also fails on <, <=, >, >= and - of pointers
	// into different objects ("same object violation",
	// goto_check_c.cpp pointer_rel_check); valid-deref only on accesses.
	partPointer = "--pointer-check (same object of pointer relations and differences)"
	// CBMC's library models check their preconditions (memcpy src/dst
	// overlap, …); of those, free's are valid-free and the regions
	// read and written are valid-deref sites.
	partBuiltin = "built-in-assertions (library preconditions but free's and the memory accessed)"
)

// MemoryChecks maps the proof's CBMC checks (Checks) to the memory-safety
// subproperties reverify verifies for them, and lists the checks, or
// parts of checks, it cannot verify.
//
//   - bounds-check or pointer-check → valid-deref at every access site
//     (reverify's valid-deref checks both at once: a dereference or index
//     inside a live object; when the Makefile turned one of the two off,
//     the sites still check both, and note says so);
//   - built-in-assertions → valid-free at every call of free (CBMC's
//     library model of free checks its argument by built-in
//     preconditions, see BuiltinAssertions);
//   - memory-leak-check or memory-cleanup-check → valid-memcleanup: CBMC's
//     memory-leak-check fails when any block allocated is not freed when
//     the entry returns (goto_check_c.cpp memory_leak_check: the
//     nondeterministically chosen __CPROVER_memory_leak object is not
//     NULL), also a block a global still points to, which is not a
//     valid-memtrack violation; memory-cleanup-check adds the same check
//     where exit, _Exit or abort ends the program. valid-memcleanup checks
//     both places, so its TRUE covers either flag (a FALSE of it at an
//     exit or abort is no violation of memory-leak-check alone, and note
//     says so).
//
// notChecked lists, in the order of Checks, the checks in effect that
// have no reverify property, as CBMC flags ("--div-by-zero-check", …:
// pointer-primitive-check, div-by-zero-check, signed-overflow-check,
// undefined-shift-check and every optional check but the two memory
// ones), and the parts of bounds-check, pointer-check and the built-in
// assertions that the memory properties do not cover (partBounds,
// partPointer, partBuiltin). Unwinding assertions are not listed:
// reverify's verdicts are unbounded.
func MemoryChecks(checks []string) (subs, notChecked []string, note string) {
	on := map[string]bool{}
	for _, c := range checks {
		on[c] = true
	}
	var notes []string
	if on["bounds-check"] || on["pointer-check"] {
		subs = append(subs, subDeref)
		switch {
		case !on["bounds-check"]:
			notes = append(notes, "valid-deref also checks array bounds (--no-bounds-check)")
		case !on["pointer-check"]:
			notes = append(notes, "valid-deref also checks pointers (--no-pointer-check)")
		}
	}
	if on[BuiltinAssertions] {
		subs = append(subs, subFree)
	}
	if on["memory-leak-check"] || on["memory-cleanup-check"] {
		subs = append(subs, subCleanup)
		if !on["memory-cleanup-check"] {
			notes = append(notes, "valid-memcleanup also checks at exit and abort (no --memory-cleanup-check)")
		}
	}
	for _, c := range checks {
		switch c {
		case "memory-leak-check", "memory-cleanup-check":
		case "bounds-check":
			notChecked = append(notChecked, partBounds)
		case "pointer-check":
			notChecked = append(notChecked, partPointer)
		case BuiltinAssertions:
			notChecked = append(notChecked, partBuiltin)
		default:
			notChecked = append(notChecked, "--"+c)
		}
	}
	return subs, notChecked, strings.Join(notes, "; ")
}
