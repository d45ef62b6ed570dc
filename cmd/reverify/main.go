package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/reverify/reverify/engine"
)

type command struct {
	name  string
	usage string
	run   func(args []string, stdout, stderr io.Writer) int
}

var commands []command

func init() {
	commands = []command{
		{"cfa", "print the control-flow automata of C files", runCFA},
		{"action", "the GitHub Action: verify a pull request or push and report on it (action.yml)", runAction},
		{"check", "verify the assertions of C files (with --base: only those a change affects)", runCheck},
		{"diff", "show the definitions a change touches and the assertions it affects", runDiff},
		{"merge", "merge the output directories of shards (--shard K/N) and report", runMerge},
		{"proofs", "run a project's CBMC proof harnesses (CBMC starter-kit layout: one Makefile per proof)", runProofs},
		{"slice", "print the static backward slice of a property", runSlice},
		{"bench", "run SV-COMP tasks under CPU and memory limits: CSV, Markdown table, quantile plot", runBench},
		{"validate", "validate a YAML witness by replay (confirmed: exit 0, rejected: 1)", runValidate},
		{"reproduce", "compile and run the reproducer of a YAML violation witness", runReproduce},
		{"version", "print the version", runVersion},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the exit code: 0 success, 1
// a verdict the policy rejects, 2 bad input or usage.
func run(args []string, stdout, stderr io.Writer) int {
	engine.SetHostCompiler(hostCompiler(os.Getenv))
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		return runVersion(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "reverify: unknown command %q (run 'reverify help')\n", args[0])
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: reverify COMMAND [arguments]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.usage)
	}
}

// hostCompiler resolves the host C compiler whose configuration the
// front end reads (cc/v4 runs $CC, else cc, else gcc) and the directory
// of its disk cache, $XDG_CACHE_HOME/reverify or ~/.cache/reverify
// (os.UserCacheDir); REVERIFY_NO_CC_CACHE set to anything turns the disk
// cache off. A compiler not found leaves Path empty: no disk cache.
func hostCompiler(getenv func(string) string) engine.HostCompiler {
	h := engine.HostCompiler{CC: getenv("CC")}
	for _, name := range []string{h.CC, "cc", "gcc"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				h.Path = real
			}
			break
		}
	}
	if dir, err := os.UserCacheDir(); err == nil && getenv("REVERIFY_NO_CC_CACHE") == "" {
		h.CacheDir = filepath.Join(dir, "reverify")
	}
	return h
}
