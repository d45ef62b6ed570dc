// Package sarif writes the verdicts of a results.json report
// ([results.Report]) as a SARIF 2.1.0 log for GitHub code scanning
// ("github/codeql-action/upload-sarif"), the last output channel in
// DESIGN.md ("The Action", "Output contracts").
//
// A log has exactly one run. Its tool.driver is "reverify" with one
// reporting descriptor (rule, with short and full descriptions) per
// verdict of an assertion and per property kind of a memory-safety
// violation:
//
//	index  rule id                 results                     default level
//	0      assertion-violated      FALSE assertion             error
//	1      assertion-unknown       UNKNOWN                     warning
//	2      assertion-not-checked   NOT_CHECKED                 note
//	3      assertion-proved        TRUE                        none
//	4      invalid-dereference     FALSE valid-deref           error
//	5      invalid-free            FALSE valid-free            error
//	6      memory-leak             FALSE valid-memtrack        error
//	7      memory-not-freed        FALSE valid-memcleanup      warning
//
// (UNKNOWN, NOT_CHECKED and TRUE memory-safety properties take the
// verdict rules.) Only FALSE and UNKNOWN produce results unless
// [Options.Verdicts] says otherwise; the rules are always all present,
// new ones appended, so that rule indices are stable across runs. A
// memory-safety violation's message says what happened to which block
// (results.Memory), not that an assertion fails. Results are sorted by file, line, column and
// property ID, so equal reports give byte-identical logs.
//
// Each result carries:
//
//   - ruleId, ruleIndex and level;
//   - message.text: verdict, expression, function, reason and the
//     counterexample inputs, in plain text;
//   - one location: artifactLocation.uri relative to [Options.RepoRoot]
//     (slash-separated, percent-encoded, uriBaseId "%SRCROOT%"), region
//     startLine ≥ 1 and startColumn when known;
//   - partialFingerprints {"reverifyProperty/v1": [Fingerprint]}, a hash of
//     the entry function and the property ID, which survive edits elsewhere
//     in the file (DESIGN.md, "Output contracts"), so code scanning keeps
//     one alert per property across pushes;
//   - for a counterexample, one codeFlow with one threadFlow whose
//     locations are the counterexample steps (file, line, message = the
//     CFA operation, with the input values read at that line);
//   - properties: property ID, function, verdict, configuration, CPU
//     seconds, slice hash, witness and reproducer paths.
//
// A shortened example (one violated assertion, two steps):
//
//	{
//	  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
//	  "version": "2.1.0",
//	  "runs": [{
//	    "tool": {"driver": {"name": "reverify", "version": "0.1.0",
//	      "informationUri": "https://github.com/reverify/reverify",
//	      "rules": [{"id": "assertion-violated", "defaultConfiguration": {"level": "error"}, …}, …]}},
//	    "results": [{
//	      "ruleId": "assertion-violated", "ruleIndex": 0, "level": "error",
//	      "message": {"text": "Assertion x > 0 is violated in main. Counterexample inputs: __VERIFIER_nondet_int() = 0 (line 3)."},
//	      "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/a.c", "uriBaseId": "%SRCROOT%"},
//	        "region": {"startLine": 5, "startColumn": 3}}}],
//	      "partialFingerprints": {"reverifyProperty/v1": "3f1c…"},
//	      "codeFlows": [{"threadFlows": [{"locations": [
//	        {"location": {"physicalLocation": {…"region": {"startLine": 3}}, "message": {"text": "x = __VERIFIER_nondet_int() [x = 0]"}}},
//	        {"location": {…"region": {"startLine": 5}}, "message": {"text": "assume(!(x > 0))"}}}]}]}]
//	    }]
//	  }]
//	}
//
// Code scanning accepts at most 25,000 results per run and 10 MB
// gzip-compressed per upload; a single report is far below both, so no
// truncation happens here (use [Options.Verdicts] to report less).
//
// The log is drawn from the report alone: repository-relative paths
// (results.RepoPath), the counterexample folded into readable rows
// (results.ReadableTrace) and the inputs attached to their steps
// (results.AlignInputs) come from package results, which Markdown reads
// too; this package imports no other package of the module.
package sarif
