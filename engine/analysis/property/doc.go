// Package property is the specification CPA for one reachability
// property (seed 003_63b5314914713559.txt, section 4.7, observer
// automata, specialised to unreach-call): it marks target states.
//
// A property is a set of error edges (Call edges to error functions such
// as reach_error) and an optional Via edge, the call site of an assertion
// wrapper (__VERIFIER_assert) whose body contains the error edges; with
// Via each assertion site is its own property. The state counts how deeply
// execution is nested inside a call entered through Via (0: outside;
// Enter through Via from outside: 1; any Enter inside: +1; Leave inside:
// −1). An Intra or Enter step over an error edge (the error function may
// have a body, as SV-COMP's reach_error often does) when Via is nil or the
// count is positive yields the target state, which has no successors.
//
// States print as "ok", "via2" (inside Via, two frames deep) or "target".
package property
