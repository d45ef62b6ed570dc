// Package proofs reads the proof harnesses a C project already has for
// CBMC, laid out as the CBMC starter kit lays them out
// (https://github.com/model-checking/cbmc-starter-kit): a directory of
// proofs, one directory per proof holding a Makefile that sets
// HARNESS_ENTRY, HARNESS_FILE, PROOF_SOURCES, PROJECT_SOURCES, DEFINES,
// INCLUDES, UNWINDSET, REMOVE_FUNCTION_BODY, CHECK_FUNCTION_CONTRACTS,
// USE_FUNCTION_CONTRACTS and APPLY_LOOP_CONTRACTS and includes the shared
// ../Makefile.common (which includes Makefile-project-defines and
// Makefile-template-defines).
//
// The Makefiles are read, not run: variable assignments (=, :=, ?=, +=),
// include/sinclude, ifeq/ifneq/ifdef/ifndef/else/endif and the text
// functions of GNU make (abspath, dir, notdir, patsubst, filter, wildcard,
// …) are evaluated as make would in the proof directory; $(shell …),
// $(foreach …), other functions and undefined variables are not, and every
// one met while resolving a value this package uses is listed in
// Proof.Unresolved — the caller must show them. PROOF_ROOT and CBMC_ROOT,
// which Makefile.common derives from MAKEFILE_LIST with $(shell dirname),
// are set from the position of the Makefile.common included.
//
// Proof.Checks are the implicit checks CBMC 6 makes with the flags the
// Makefiles give it (CHECKFLAGS, the CBMC_FLAG_*_CHECK variables,
// CBMCFLAGS); MemoryChecks maps them to the memory-safety properties
// reverify verifies and lists the checks it cannot (checks.go).
//
// Layer 7: it imports nothing of reverify; cmd/reverify runs the proofs.
package proofs
