// Package bench runs, scores, tabulates and plots benchmark runs of
// reverify and its peers on SV-COMP verification tasks. [Run] is the
// harness behind `reverify bench` (cmd/reverify/bench.go parses its
// flags): it reads the task definitions ([ReadTask], [ExpandTasks]),
// runs every (task, configuration) and (task, peer) pair in a child
// process under a CPU-time and a memory limit (the child re-executes
// reverify as the limit wrapper, [LimitExecArg] and [LimitExec], which
// sets RLIMIT_CPU and RLIMIT_AS and execs `reverify check --svcomp`, CBMC
// or Frama-C's Eva), and collects CPU time and memory from the child's
// rusage. The rest works on rows: the results CSV (one Row per task and
// configuration, appended as runs finish, read back to resume an
// interrupted run), the SV-COMP scoring, the Markdown tables and the
// quantile plot.
//
// Scoring is SV-COMP's for unreach-call (SV-COMP rules, "Scoring"):
// +2 for a correct TRUE, +1 for a correct FALSE, −32 for a wrong TRUE,
// −16 for a wrong FALSE, 0 for UNKNOWN. A result whose CPU time exceeds
// the limit counts as UNKNOWN (timeout) whatever it printed, as in
// BenchExec. A FALSE on a task labelled TRUE whose counterexample
// overflows a signed integer (reverify's default semantics wraps, while
// SV-COMP's labels assume no undefined behaviour) is its own status,
// StatusOverflow: listed separately with the overflow's position and
// scored −16 like any wrong FALSE, never as correct.
//
// The tables follow the seed 000_f76fde50ed4a4828.txt evaluation
// (section 4.2): Table 2 (correct proofs and alarms, incorrect ones,
// unknowns per technique), Table 3 (what one technique solves that
// another cannot) and Figure 25 (quantile plot: for each technique, the
// CPU time of its n-th fastest correct result, log scale).
package bench
