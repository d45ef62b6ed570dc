// Package contract reads function and loop contracts in CBMC 6's contract
// language and makes them checkable by the analyses, which know no
// contracts (CBMC documentation, "Code Contracts in CBMC": function
// contracts, assigns clauses, loop contracts, decreases clauses, history
// variables, memory predicates, quantifiers; Kani's function contracts
// follow the same scheme).
//
// The work is done in three steps, each on what the step before left:
//
//   - Rewrite, on a file's text before the C parser sees it: the clauses
//     after a function's declarator are blanked (every newline kept) and
//     returned as a Func; a loop's clauses become declarations
//     `__typeof__((clause)) __reverify_loop_<kind>_<n>;` at the start of
//     the loop's body, which the front end translates as the loop's
//     contract. FindAliases finds a project's macro layer (mlkem-native's
//     `__contract__`, `requires`, `memory_no_alias`, …), Implies turns
//     CBMC's ==> into C.
//   - Generate, C text appended to a translation unit under #line
//     directives to the clauses: per contract, the check (an entry:
//     requires assumed, is_fresh objects allocated, old values taken,
//     the function called, ensures checked), the use (requires checked,
//     the assigns frame havocked, ensures assumed), the frame and the
//     assignable test.
//   - Instrument, on the translated program: calls of a function with a
//     contract use the contract; every write a check may execute is
//     preceded by the assigns test of that check.
//
// Names: CheckPrefix, UsePrefix and the others name the generated
// functions and variables after the function (cfa.Generated holds for
// all of them).
package contract
