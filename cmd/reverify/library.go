package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/library"
	"github.com/reverify/reverify/report/artifacts"
	"github.com/reverify/reverify/results"
)

// runLibrary is `reverify check --entry auto` (and check of sources
// without main): the properties of every function verified in its most
// general context (package library), one line per property, then one
// line per function: verified, violated, needs a precondition, or
// limitation.
func runLibrary(files []string, src engine.SourceOptions, prog *engine.Program, lo library.Options, o checkOptions, assertions, memory bool, sh results.Shard, funcs functionGlobs, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify check: "+format+"\n", a...)
		return 2
	}
	if memory {
		return fail("--entry auto checks assertions; memory safety needs an entry function (--entry)")
	}
	if !assertions {
		return fail("--entry auto: nothing to check")
	}
	lib, err := library.Load(src, files, prog, lo)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	engine.SetAssumePure(lib.Program, o.assumePure)
	props := funcs.filter(filterShard(sh, lib.Properties()))
	if len(props) == 0 && !sh.Active() && len(funcs) == 0 {
		fmt.Fprintf(stderr, "reverify check: WARNING: no assertion found in %s (compiled with -DNDEBUG?): nothing was verified\n", strings.Join(files, ", "))
	}
	ecfg := o.engineConfig(o.config, "", o.timeout)
	pg := newCheckProgress(stdout, stderr, progressMode(stderr, os.Getenv), "", len(props))
	ecfg.OnResult = func(r *engine.Result) { pg.result(r, true) }
	o.phase.Stop() // the properties' own limits from here
	verdicts, err := lib.Verify(context.Background(), props, ecfg)
	pg.finish()
	if err != nil {
		return fail("%v", err)
	}
	report := engine.NewReport(version, lib.Program, "auto", o.config, verdicts)
	report.Files = files
	report.Functions = results.SummarizeFunctions(report.Properties, lib.IsRoot)
	printFunctionSummary(stdout, report.Functions)
	if o.outDir != "" {
		if err := os.MkdirAll(o.outDir, 0o755); err != nil {
			return fail("%v", err)
		}
		task := artifacts.Task{Program: lib.Program, Files: files, Entry: "auto", Config: o.config, Specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )", Version: version, Timeout: o.timeout, Solver: z3.Factory, Sources: lib.Sources(), IncludeDirs: src.IncludeDirs, Defines: src.Defines}
		if err := artifacts.Write(o.outDir, task, verdicts, report); err != nil {
			fmt.Fprintf(stderr, "reverify check: %v\n", err)
		}
		if err := writeJSON(filepath.Join(o.outDir, "results.json"), report); err != nil {
			return fail("%v", err)
		}
	}
	if o.jsonOut != "" {
		if err := writeJSON(o.jsonOut, report); err != nil {
			return fail("%v", err)
		}
	}
	for _, r := range verdicts {
		if r.Verdict == results.False {
			return 1
		}
	}
	return 0
}

// printFunctionSummary prints the report's functions (library mode), one
// line each.
func printFunctionSummary(w io.Writer, fs []results.FunctionSummary) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintln(w, "functions:")
	for _, s := range fs {
		name := s.Function
		if s.API {
			name += " (API)"
		}
		line := fmt.Sprintf("  %-24s %-20s %d TRUE, %d FALSE, %d needs a precondition, %d UNKNOWN", name, s.Kind, s.True, s.False, s.Precondition, s.Unknown)
		if s.NotChecked > 0 {
			line += fmt.Sprintf(", %d NOT_CHECKED", s.NotChecked)
		}
		line += fmt.Sprintf("  %.2fs", s.CPUSeconds)
		fmt.Fprintln(w, line)
	}
}
