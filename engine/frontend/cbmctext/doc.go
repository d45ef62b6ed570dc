// Package cbmctext turns the C text of CBMC's harness dialect into C
// before the front end (engine/frontend) parses it; it runs only on
// sources of that dialect.
//
// Quantifiers (quantifier.go): CBMC's __CPROVER_forall { int i; (i >= 0
// && i < H) ==> B } and __CPROVER_exists { int i; (i >= 0 && i < H) && B },
// which are not C, become GNU statement expressions that loop over the
// bounded interval, exact as an assumption and as an assertion
// (forall also over [lb, ub) in another integer type); other shapes
// become calls without arguments, their braces blanked, which the front
// end makes Unsupported edges. Every position in the file stays where it
// was (BlankQuantifiers).
//
// Contracts (contracts.go; CBMC, "Code Contracts"): Prepare finds the
// contract clauses of the units and of the headers they include (by raw
// scan of #include, conditionals not evaluated), rewrites them with
// engine/contract (clauses blanked, a project's macro layer through
// contract.FindAliases) and, per unit, Generate appends the checks and
// uses of the contracts whose declarations the unit's first parse kept
// (contract.Generate). WritesNothing names the functions whose contracts
// assign nothing.
package cbmctext
