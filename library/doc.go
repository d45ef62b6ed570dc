// Package library verifies C code without a harness: every function that
// contains an assertion, or calls one that does, is an entry verified in
// its most general context (engine/harness), and a violation found in a
// function that the sources call is re-verified in its callers' contexts,
// up the call graph to the functions no source calls (the API), so that
// only a violation an API call can cause is reported FALSE.
//
// This is the modular scheme of CBMC's goto-harness and the AWS starter
// kit (one function-call harness per function), and of Kani's
// autoharness, with the escalation to callers that a required status
// gate needs: a FALSE is reported only where a root reaches it.
package library
