package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/report/bench"
)

// runBench implements `reverify bench`: it parses the flags and runs
// report/bench's harness (bench.Run: every (task, configuration) and
// (task, peer) pair in its own child process under a CPU-time and a
// memory limit, a verdict program under each of its own configurations
// (only those --config names, when given) with the flags of its
// directives, rows appended to DIR/results.csv, DIR/results.md and
// DIR/quantile.png at the end), or, with bench.LimitExecArg first, is
// the limit wrapper of one run (bench.LimitExec). Exit codes: 0 done (whatever the verdicts), 1
// a wrong verdict of a reverify configuration, 2 bad usage or input.
func runBench(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == bench.LimitExecArg {
		return bench.LimitExec(args[1:], stderr)
	}
	raw := append([]string{}, args...)
	fs := newFlagSet("bench", stderr)
	timeout := fs.Duration("timeout", 60*time.Second, "CPU-time limit per task and configuration")
	memory := fs.String("memory", "4GiB", "memory (address-space) limit per task and configuration, e.g. 4GiB, 512MiB")
	jobs := fs.Int("jobs", 1, "runs in parallel (each a child process)")
	configList := fs.String("config", "default", "comma-separated configurations: "+strings.Join(engine.ConfigNames(), ", ")+"; a verdict program runs under those of its own (// configs:) given here, and under all of its own without --config")
	peerList := fs.String("peer", "", "comma-separated peers run on the same tasks with the same limits: frama-c-eva[:PRECISION], cbmc")
	outDir := fs.String("out", "reverify-bench", "output directory: results.csv, results.md, quantile.png")
	overflow := fs.String("signed-overflow", "wrap", "signed overflow semantics of reverify's runs: wrap or assume-none")
	front := fs.String("frontend", "cc", "reverify check --frontend of reverify's runs: cc or clang")
	reduceLevel := fs.String("reduce", "none", "reverify check --reduce of reverify's runs: none, slice, full, thin or value")
	args, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify bench: "+format+"\n", a...)
		return 2
	}
	if len(args) == 0 {
		return fail("no tasks (give .yml files, verdict programs (.c with // want lines), directories or @list files)")
	}
	if *timeout <= 0 {
		return fail("--timeout must be positive")
	}
	if *jobs < 1 {
		return fail("--jobs must be at least 1")
	}
	mem, err := bench.ParseBytes(*memory)
	if err != nil {
		return fail("--memory: %v", err)
	}
	mode, err := engine.ParseOverflowMode(*overflow)
	if err != nil {
		return fail("%v", err)
	}
	if err := engine.ParseReduce(*reduceLevel); err != nil {
		return fail("--reduce: %v", err)
	}
	var configs []string
	for _, c := range splitList(*configList) {
		if engine.ConfigDoc(c) == "" {
			return fail("unknown configuration %q (known: %s)", c, strings.Join(engine.ConfigNames(), ", "))
		}
		configs = append(configs, c)
	}
	if len(configs) == 0 {
		return fail("--config names no configuration")
	}
	var programConfigs []string // nil: each verdict program under all of its own
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "config" {
			programConfigs = configs
		}
	})
	self, err := os.Executable()
	if err != nil {
		return fail("cannot find the reverify executable: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out, err := bench.Run(ctx, bench.Options{Tasks: args, Timeout: *timeout, Memory: mem, MemoryText: *memory, Jobs: *jobs,
		Configs: configs, ProgramConfigs: programConfigs, Peers: splitList(*peerList), Out: *outDir, Mode: mode, Reduce: *reduceLevel, Frontend: *front,
		Command: "reverify bench " + strings.Join(raw, " "), Self: self, Log: stderr})
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "%s\n%s\n%s\n", out.CSV, out.Markdown, out.Plot)
	if out.Interrupted {
		fmt.Fprintln(stderr, "reverify bench: interrupted; rerun the same command to resume")
		return 2
	}
	if out.Wrong {
		return 1
	}
	return 0
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
