package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/reverify/reverify/results"
)

// contains reports whether ss holds s.
func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// runMerge implements `reverify merge [flags] DIR...`: it merges the
// shards' output directories into --output and then reports like
// `reverify action` (SARIF, summary, and, inside GitHub Actions, the
// sticky comment, review, check run, job summary and step outputs). Exit
// code by --fail-on.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("merge", stderr)
	var o postFlags
	o.register(fs, false)
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify merge: "+format+"\n", a...)
		return 2
	}
	if err := o.validate(); err != nil {
		return fail("%v", err)
	}
	dirs, err = results.ExpandDirs(dirs)
	if err != nil {
		return fail("%v", err)
	}
	report, err := results.MergeDirs(dirs, o.output)
	if err != nil {
		return fail("%v", err)
	}
	if err := writeJSON(filepath.Join(o.output, "results.json"), report); err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "merged %d shards: %d properties into %s\n", len(dirs), len(report.Properties), filepath.Join(o.output, "results.json"))
	ev, env := (*event)(nil), readGitHubEnv(os.Getenv)
	if env.EventPath != "" {
		if ev, err = readEvent(env); err != nil {
			return fail("%v", err)
		}
	}
	return publishReport(context.Background(), env, ev, report, o, false, stdout, stderr)
}
