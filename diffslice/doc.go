// Package diffslice decides, for a change from a base to a head revision
// of a C code base, which assertions must be verified again and which may
// reuse a cached verdict (DESIGN.md, data flow: "diffslice").
//
// # Data flow
//
//	LoadRevision(repo, rev, flags)     git ls-tree + cat-file (or a directory on disk);
//	                                   .reverify.yml / compile_commands.json / flags;
//	                                   frontend.TranslateSources with repository-relative names
//	Changes(base, head)                Program.Defs compared: functions, globals, types, macros
//	                                   added / removed / changed / renamed, each with the
//	                                   hunks of git diff -U0 that touch its lines
//	Affected(head, props, changes, …)  per property: pdg slice of its error edges (via its
//	                                   Via call), slice hash, changed definitions in the slice
//	                                   with call distance, cache lookup → Decision
//	Plan.Verify                        engine.Verify on the affected properties only; cached
//	                                   verdicts for the others
//	Plan.Annotate / Plan.Store         results.json fields (slice_hash, cache_hit,
//	                                   reverified_because); cache update
//
// NewPlan runs the middle steps; cmd/reverify's `diff` prints a plan and
// `check --base` verifies one.
//
// # Revisions and sources
//
// A revision is a git commit (read with the git command: no work tree is
// checked out) or a directory on disk (the working tree). Which files are
// C sources, the include directories and defines come, in this order of
// precedence, from the caller's SourceConfig (command-line flags), the
// revision's own .reverify.yml
//
//	sources: ["src/**/*.c"]     # globs; ** spans directories
//	include: [include]
//	defines: {NDEBUG_OFF: 1}
//	entry: [main]               # exactly one entry function
//	config: default             # engine configuration
//	timeout: 60s
//	data_model: LP64
//
// (any error is one line naming the file, the line and the key), the
// compilation database compile_commands.json (the listed files; the union
// of their -I and -D; committed or generated in the repository directory),
// and defaults (every .c file). Every source and header is translated
// from memory under its repository-relative name, so positions, Defs and
// diff hunks name files alike in both revisions.
//
// # Changed definitions
//
// Definitions are matched by kind, name and file (then by kind and name,
// for definitions moved to another file). A definition changed when its
// token fingerprint (engine/frontend: the tokens after preprocessing)
// differs — except when its source text, comments and white space aside,
// is the same and names no changed macro: then only expansions of
// __LINE__ or __FILE__ differ (assert.h expands __LINE__ into every
// assertion, so a line inserted above a function changes its
// fingerprint). Macros changed by a changed macro they use are changed
// too (transitively); configured defines that differ count as changed
// macros. The frontend's fingerprints include the name, so renames are
// found here: an unmatched removed and added definition of the same kind
// whose source texts are equal with the name replaced are one rename
// (one-to-one only; otherwise removal and addition).
//
// # Affected properties
//
// Properties are those of engine/spec (IDs "function:expression#k" that
// survive edits elsewhere). Equal slice hash means equal verdict
// (DESIGN.md): a property whose slice hash has a usable cached verdict
// (same engine version and configuration; TRUE, or UNKNOWN computed
// under limits this run's do not exceed) is never re-verified, whatever
// changed — a re-run of the same head re-verifies nothing. Otherwise it
// is re-verified, with these reasons:
//
//   - it is new: its ID does not exist at the base (added, or moved to
//     another function — the ID names the function);
//   - its slice contains a changed definition: any edge of a changed,
//     added or renamed function (functions changed only through a macro
//     expansion count through the edges that expand the macro, unless the
//     macro controls an #if inside the function), a call of a removed
//     function, any edge referring to a changed global — including its
//     initialiser in Init —, any edge whose expression types involve a
//     changed struct or union, any edge whose source text names a changed
//     macro (or a macro that uses one), enumerator or typedef, any edge of
//     a function whose text names a changed typedef, and any call through
//     a pointer when the set of address-taken functions changed. A change
//     to the entry function reaches every property whose slice holds one
//     of its edges — the calls leading to the property's function are in
//     its slice;
//   - no usable verdict is cached under its slice hash;
//   - the cached verdict is FALSE (violations are always re-checked, so a
//     reported counterexample, witness and reproducer are built from the
//     head's CFA), or UNKNOWN computed under smaller limits (timeout and
//     its clock, max states, depth and refinements: Limits.NotLarger; a
//     larger limit may decide it, so it is re-tried and the reason says
//     so). An UNKNOWN under limits not larger is reused: a run under
//     them would stop no later.
//
// A renamed property keeps its cache (rename.go): when a function is
// renamed with its body unchanged, a property that would be re-verified
// (new ID, or the rename and its callers in its slice) reuses the verdict
// cached under its "renamed hash" — its slice text with the renames
// undone — provided every changed definition in its slice is explained
// by the renames; the verdict is then also stored under its new slice
// hash. Renaming consistently preserves semantics; error functions,
// reserved names and the entry function never take part.
//
// Every re-verification records why, for results.json and the report:
// "`parse_header` changed, 2 calls away" — the call distance from the
// property's function to the nearest function of the slice touching the
// change, in the call graph taken in both directions (calls through
// pointers reach every address-taken function; the global initialiser is
// next to the entry function).
//
// # Why skipping is sound
//
// The slice hash (engine/pdg Slice.Hash) covers the normalised backward
// slice of the property's error edges: every relevant edge with its
// operation, expression types and source text, the control structure
// between relevant edges, and the layout of every struct mentioned. The
// extra strings added here cover what else the verdict depends on: the
// data model, the entry function, the specification (which calls are
// errors), the engine version, the configuration, the property's
// reachability from the entry, the callees of the slice that have no body
// (an external that gains a body changes them), when the slice calls
// through a pointer, the address-taken functions (the possible targets),
// and the unsupported constructs reachable anywhere in the program (the
// engine answers UNKNOWN once it meets one, on any path: unsupported.go).
// A slice preserves the program's semantics with respect to its
// criterion ⟨error edge, uses⟩ (seed 000, section 2.4): whether the
// error edges are reached, and with which values, is decided by the
// sliced program alone. So the verdict of a property is a function of
// what the hash covers, so two properties with equal slice hashes have
// equal verdicts under the same limits — on any revision; that is why the
// cache is content-addressed and needs no run of the base revision. The
// changed-definition test above provides the reasons of the properties
// the cache cannot serve. Call arguments of
// error functions that are the edge's own file name, line number or
// function name (assert.h's __FILE__, __LINE__ and __func__) are hashed
// as 0: they cannot change
// whether the call is reached. What the argument rests on: the soundness
// of the PDG (points-to, summaries, may-not-return calls as control
// dependences); a bug there is a bug in skipping, which is why FALSE is
// never reused and why the engine version is in every hash.
//
// # The verdict cache
//
// Cache.Dir (default .reverify/cache in the repository; keep it out of
// git) holds one JSON file per slice hash, <hash>.json:
//
//	{"schema": 1, "slice_hash": "…", "property": "main:x<10",
//	 "verdict": "TRUE", "reason": "…", "witness": "…", "reproducer": "…",
//	 "pixel_tree": "…", "seconds": 0.4, "states": 1234, "refinements": 2,
//	 "precision": ["main::x@main:+3:[x < 10]", …], "engine_version": "0.2.0",
//	 "configuration": "value-cegar",
//	 "limits": {"timeout_ns": …, "max_states": 0, "max_depth": 0, "max_refinements": 0, "clock": "wall"},
//	 "commit": "…", "created": "…"}
//
// Entries are written atomically (temporary file, rename); a malformed
// entry, one of another schema, or one written by another engine version
// or configuration is ignored. Results that are no verdict about the
// program (internal errors, runs cancelled from outside, properties the
// total time budget cut off) are not stored; an UNKNOWN by a
// per-property timeout or another limit is stored with its limits.
//
// Besides, Plan.Store writes for a head that is a commit a revision
// summary, revisions/<commit>-<flags>.json: its definitions, property IDs,
// address-taken functions and slice hashes. Cache.LoadBase uses it when
// that commit is later the base of a change, so a pull-request job
// translates only the head.
//
// # Precision reuse
//
// An affected property of a CEGAR configuration starts from a cached
// final precision (engine.Result.Precision, passed back through
// engine.Config.InitialPrecision by property ID): the one cached under
// its own slice hash when there is one (a FALSE being re-checked), else
// the one of the same property ID at the base revision — in both cases
// only the precision of a finished analysis (TRUE or FALSE): a run that
// hit a limit leaves a precision that grew until it stopped, and starting
// from it made every state dearer in BenchmarkRealHistory.
// This is precision reuse for regression verification (Beyer, Löwe,
// Novikov, Stahlbauer, Wendler, "Precision Reuse for Efficient Regression
// Verification", FSE 2013): the refinements of the earlier run need not
// be repeated when the change leaves them valid, and a precision that no
// longer fits only costs refinements, never soundness. Configurations
// without a refinable precision ignore it. BenchmarkPrecisionReuse and
// BenchmarkRealHistory measure what it saves: each re-verified property
// runs with the reused precision and from the empty one, on freshly
// loaded revisions, and both report refinements and engine seconds.
//
// # Sources
//
// Seed 004_cf6cf6ed7e985aa5.txt (Dahlberg, "Assessing the Scope of Safety
// Properties") measures how small the part of a program is that one
// property needs: the property scope, here the slice, is what makes
// re-verifying only the affected properties pay off. DESIGN.md defines
// the slice hash and the place of this package (layer 8: it may import
// engine and everything below). Beyer et al., FSE 2013, for precision
// reuse.
//
// # Limits
//
// One entry function per run. All sources are linked into one program
// with one set of include directories and defines (compile_commands.json
// entries are merged). Revisions are read with the git command only,
// through one runner (git.go) that pins git's environment (no pager, no
// external diff, C locale, no system configuration); the Action fetches
// the commits of its event with the same runner (EnsureCommits,
// MarkSafeDirectory).
package diffslice
