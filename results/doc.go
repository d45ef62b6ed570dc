// Package results is the one vocabulary of verification results that
// every producer and consumer shares, so that nothing is copied or
// converted between them: the engine produces it, witnesses
// are written from it, diffslice caches it, and the reports (SARIF,
// Markdown, GitHub) and the command read it.
//
//   - [Verdict] (TRUE, FALSE, UNKNOWN, NOT_CHECKED) and its merge order
//     ([Strength]).
//   - [Input]: a nondeterministic value on a counterexample (source,
//     type, value and bit pattern, the step that reads it, its position);
//     [Invariant] and [Fact]: what a TRUE verdict knows at a loop head.
//     These two refer to the CFA (engine/cfa: types, steps, locations,
//     expressions), the only package of the module results imports.
//   - [Report] and [PropertyReport]: the content of results.json
//     (doc/DESIGN.md, "Output contracts"), schema [SchemaVersion]:
//     property (ID, file, line, column, function, expression), verdict,
//     reason, configuration, statistics (CPU seconds, states,
//     refinements), counterexample steps ([StepJSON]) and inputs
//     ([InputJSON]), failing values, slice hash, cache hit, why it was
//     re-verified, and artifact paths. engine.NewReport builds one from
//     the engine's results.
//   - Reading a report: [RepoPath] (file paths relative to the
//     repository), [AlignInputs] (which step reads which input),
//     [ReadableTrace] (the counterexample folded to what a reviewer
//     reads; a memory-safety counterexample keeps its allocations and
//     frees in view), [StepText], [IsInput]; [Memory] (what a memory-safety
//     violation did to which block: the analysis's typed fact
//     ([MemoryViolation]), the allocation and free steps of the
//     counterexample, heap block
//     names such as "heap7#0" as "the block allocated at f.c:4 by
//     malloc"); SARIF and Markdown render these.
//   - Shards: [Shard] selects the properties of one job of a GitHub
//     Actions matrix by a hash of the property ID; [Merge] combines
//     shard (or per-entry) reports, keeping the strongest verdict per
//     property, and [MergeDirs] merges shard output directories with
//     their artifacts.
package results
