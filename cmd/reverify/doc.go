// Command reverify model-checks the assertions of C programs and reports
// verdicts with proofs and counterexamples; see the README. It parses
// flags and wires the facades (engine, diffslice, proofs, report/...):
// the verifier, the change analysis, the benchmark harness
// (report/bench), the Action's environment and posting (report/github).
//
// Usage:
//
//	reverify cfa FILE... [--dot] [-I dir] [-D name=value] [--data-model ILP32|LP64]
//	reverify check FILE... [flags]
//	reverify check --base REV [--head REV] [--repo DIR] [--cache DIR] [flags]
//	reverify diff --base REV [--head REV] [--repo DIR] [--json FILE]
//	reverify bench TASKS... [--timeout 60s] [--memory 4GiB] [--jobs N] [--config a,b] [--peer frama-c-eva,cbmc] [--out DIR]
//	reverify version    (or --version; the version is set in version.go or by -ldflags -X main.version=)
package main
