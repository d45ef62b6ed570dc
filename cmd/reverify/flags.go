package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
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
}

func (f *frontendFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.includes, "I", "add an include directory (repeatable)")
	fs.Var(&f.defines, "D", "define a macro, name or name=value (repeatable)")
	fs.StringVar(&f.dataModel, "data-model", "LP64", "data model: ILP32 or LP64")
}

func (f *frontendFlags) config() (frontend.Config, error) {
	m, err := cfa.ParseDataModel(f.dataModel)
	if err != nil {
		return frontend.Config{}, err
	}
	cfg := frontend.Config{DataModel: m, IncludeDirs: f.includes, Defines: map[string]string{}}
	for _, d := range f.defines {
		name, value, _ := strings.Cut(d, "=")
		if name == "" {
			return cfg, fmt.Errorf("bad -D %q: empty name", d)
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
