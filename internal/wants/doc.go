// Package wants reads and checks the expectations of reverify's verdict
// programs (engine/testdata/verdicts/*.c): the one owner of their format,
// used by the engine's in-process verdict tests (engine/engine_test.go)
// and by `reverify bench` on verdict programs (report/bench).
//
// A program states its expectations in comments, in the manner of
// x/tools' analysistest. On an assertion line, `// want VERDICT` or `//
// want VERDICT "reason"` holds for every configuration the program runs
// under, and labelled items hold for one: `// want TRUE value:UNKNOWN
// "state limit 100000"` (value answers UNKNOWN with a reason containing
// "state limit 100000", every other configuration TRUE; a reason belongs
// to the item it follows). Whole-line directives set up the runs:
//
//   - `// configs: value value-cegar`: the configurations (default
//     [DefaultConfigs]);
//   - `// max-states: N`: the state limit of each run;
//   - `// signed-overflow: MODE`: wrap or assume-none;
//   - `// assume-pure: f g`: functions without a body assumed pure;
//   - `// reduce: LEVEL`: the size reduction (none, slice, full, ...);
//   - `// entry: f`: the entry function (default main);
//   - `// memory: valid-memsafety FALSE "valid-deref"` (or
//     valid-memcleanup): the whole-program memory-safety property is
//     checked too and has that verdict, its reason containing the quoted
//     text; a FALSE must be violated at the line marked `// violation`,
//     if there is one;
//   - `// memory: sites`: the per-site memory properties (valid-deref and
//     valid-free) are checked too; each site's line carries `// site:`
//     wants (`// site: valid-deref FALSE "offset 8" valid-free TRUE`),
//     and a FALSE must be violated at its own line;
//   - `// malloc: may-fail`: malloc and calloc may return NULL.
//
// [Parse] reads a program, [Program.Wants] gives its expectations under
// one configuration, and [Program.Check] compares results (as [Got], from
// engine results or results.json) with them: a verdict or reason that
// differs, an unexpected property, an expected one missing and a FALSE
// without a counterexample are each one problem.
package wants
