// Package location is the location CPA (seed 003_63b5314914713559.txt,
// section 4.1, reachable-code analysis; seed 000_f76fde50ed4a4828.txt,
// section 2.3): its state is the program location, and it is the
// cpa.Stepper of the composite: it turns a location into the candidate
// interprocedural steps.
//
// Steps at a location l:
//   - each out-edge is an Intra step, except a Call to a function with a
//     body, which is an Enter step into the callee (its Call edge is kept
//     in the step; the call stack pushes it);
//   - a call through a function pointer yields an Enter step into every
//     function whose address is taken and whose arity fits, plus an Intra
//     step if the address of a bodiless function is taken;
//   - at the exit of Init: an Enter step with nil Edge into the entry
//     function; at the exit of any other function: a Leave step to the
//     call edge on top of the call stack, or none in the outermost frame.
//
// Invariants: the state is a one-pointer struct (no allocation when
// boxed); LessOrEqual is equality; the partition key is the location.
//
// Example (the composite state's location part prints as "main:L3").
package location
