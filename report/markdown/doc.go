// Package markdown renders a results.json report ([results.Report]) as
// GitHub-flavoured Markdown: the sticky pull-request comment and the job
// summary ([Summary]), and the body of one inline review comment
// ([Finding]). DESIGN.md, "The Action" and "Output contracts".
//
// A summary (abridged; testdata/summary.golden.md is a complete one):
//
//	<!-- reverify:summary -->
//	## reverify
//
//	❌ 1 assertion violated · ✅ 2 proved · ❓ 1 unknown
//
//	Re-verified 3 of 4 properties; 1 reused from the cache (slice unchanged). Entry <code>main</code>, …
//
//	| verdict | assertion | why re-checked | time |
//	|---|---|---|--:|
//	| ❌ violated | <code>x &gt; 0</code><br><code>src/a.c&#58;12</code> | <code>parse</code> | 0.42 s |
//	| ❓ unknown | … | new | 60.00 s |
//
//	<details><summary>♻️ 1 property reused from the cache</summary> … </details>
//
//	### ❌ Violations
//
//	<details open><summary>❌ <code>x &gt; 0</code> at <code>src/a.c&#58;12</code> in <code>main</code></summary>
//	… values at the failure, inputs table, the counterexample folded to
//	what a reviewer reads (results.ReadableTrace; changed lines marked ✏️),
//	reproducer path and command, witness, pixel-tree mosaic …
//	</details>
//
//	### ❓ Unknown
//
//	- <code>p != 0</code> at <code>lib/b.c&#58;4</code> (<code>f&#58;p!=0</code>): timeout after 60 s
//
// Invariants:
//
//   - The first line of a summary is [Marker]; report/github finds the
//     sticky comment by it.
//   - Every piece of user-controlled text (expressions, reasons, paths,
//     input sources, step text) goes through [Escape] or [Code], which
//     turn Markdown and HTML metacharacters into character references, so
//     no expression can break a table, open a tag or mention anyone; pixel
//     trees and commands go into fenced code blocks whose fence is longer
//     than any backtick run inside.
//   - A summary has at most Options.MaxChars characters (code points;
//     default 65,000, under GitHub's 65,536 for comments). Shortening
//     follows a fixed ladder (fold counterexample steps, drop pixel trees,
//     drop table rows of reused and proved properties, drop whole sections)
//     and ends with [TruncatedNote]; the full data stay in the artifact.
//   - Equal reports and options give equal text: properties are ordered by
//     verdict (FALSE, UNKNOWN, NOT_CHECKED, TRUE), file, line and ID.
//
// A memory-safety violation (results.Memory) is worded as what happened
// to which block, in the inline comments, the summary and the folded
// entries of a grouped inline comment ([FindingLabel], [FindingBrief]):
// "<code>p</code> can be dereferenced after <code>free</code> (the block
// allocated at <code>f.c&#58;4</code> by <code>malloc</code>, freed at
// <code>f.c&#58;12</code>)" ([MemoryHeadline]; testdata/memory.golden.md);
// the engine's heap block names ("heap7#0") never show; the note above
// the reproducer command says what its run shows ([ReproduceNote]:
// exit code 77 for an assertion, AddressSanitizer's report and exit
// status 1 for a memory-safety violation).
//
// Counterexample inputs are attached to the steps that read them by
// [results.AlignInputs] (results.json names the step; older files only the
// line). [Problems] renders the comment of a run whose sources do not
// compile; [ChangeFinding] the inline comment on a changed line of a
// counterexample.
package markdown
