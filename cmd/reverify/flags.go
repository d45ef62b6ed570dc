package main

import (
	"flag"
	"fmt"
	"github.com/reverify/reverify/engine"
	"io"
	"strings"
	"time"
)

// listFlag collects repeated string flags (-I a -I b).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// frontendFlags are the flags every command that reads C shares.
type frontendFlags struct {
	includes  listFlag
	defines   listFlag
	dataModel string
	cbmc      bool
	frontend  string
	// mallocMayFail: malloc and calloc may return NULL.
	mallocMayFail bool
}

func (f *frontendFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.includes, "I", "add an include directory (repeatable)")
	fs.Var(&f.defines, "D", "define a macro, name or name=value (repeatable)")
	fs.StringVar(&f.dataModel, "data-model", "LP64", "data model: ILP32 or LP64")
	fs.StringVar(&f.frontend, "frontend", "cc", "who reads C files: cc (the built-in front end) or clang (compiled by clang at -O0 -g and verified as LLVM IR, positions mapped back to C lines by the debug information); .ll and .bc files are always read as LLVM IR")
	fs.BoolVar(&f.mallocMayFail, "malloc-may-fail", false, "malloc and calloc (without a body) may return NULL, as under --cbmc but in plain C")
	fs.BoolVar(&f.cbmc, "cbmc", false, "read the sources in CBMC's dialect (quantifiers, malloc may fail) even when only a header names __CPROVER_ (sources verified with -D CBMC)")
}

func (f *frontendFlags) config() (engine.SourceOptions, error) {
	m, err := engine.ParseDataModel(f.dataModel)
	if err != nil {
		return engine.SourceOptions{}, err
	}
	if f.frontend != "" && f.frontend != "cc" && f.frontend != "clang" {
		return engine.SourceOptions{}, fmt.Errorf("bad --frontend %q: want cc or clang", f.frontend)
	}
	cfg := engine.SourceOptions{DataModel: m, IncludeDirs: f.includes, Defines: map[string]string{}, CBMC: f.cbmc, Frontend: f.frontend}
	if f.mallocMayFail {
		cfg.Malloc = engine.MallocMayFail
	}
	for _, d := range f.defines {
		name, value, eq := strings.Cut(d, "=")
		if name == "" {
			return cfg, fmt.Errorf("bad -D %q: empty name", d)
		}
		if eq && value == "" {
			value = " " // -Dname= defines name as nothing, as gcc does (-Dname: 1)
		}
		cfg.Defines[name] = value
	}
	return cfg, nil
}

// parseInterleaved parses flags that may come after positional arguments
// (reverify cfa a.c --dot) and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("reverify "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// checkLimits rejects the limit flags of fs that cannot mean what they
// say: a --timeout of zero or less, a negative --time-budget or
// --max-states (0 means none or the engine's default there), a --jobs
// below 1 (below 0 where 0, the default, means every CPU). The error names the flag and its value; the caller prints it
// on one line and exits 2.
func checkLimits(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		switch v := g.Get().(type) {
		case time.Duration:
			switch {
			case f.Name == "timeout" && v <= 0:
				err = fmt.Errorf("--%s %s: the time limit must be positive", f.Name, v)
			case v < 0:
				err = fmt.Errorf("--%s %s: must not be negative (0: none)", f.Name, v)
			}
		case int:
			switch {
			case f.Name == "jobs" && v < 1 && f.DefValue != "0": // check's 0: every CPU
				err = fmt.Errorf("--%s %d: must be at least 1", f.Name, v)
			case v < 0:
				err = fmt.Errorf("--%s %d: must not be negative", f.Name, v)
			}
		}
	})
	return err
}
