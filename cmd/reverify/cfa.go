package main

import (
	"fmt"
	"github.com/reverify/reverify/engine"
	"io"
)

// runCFA implements `reverify cfa FILE... [--dot]`.
func runCFA(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("cfa", stderr)
	var ff frontendFlags
	ff.register(fs)
	dot := fs.Bool("dot", false, "print Graphviz DOT instead of the text form")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "reverify cfa: no input files")
		return 2
	}
	cfg, err := ff.config()
	if err != nil {
		fmt.Fprintf(stderr, "reverify cfa: %v\n", err)
		return 2
	}
	prog, err := loadProgram(cfg, files...)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	if err := engine.WriteCFA(stdout, prog, *dot); err != nil {
		fmt.Fprintf(stderr, "reverify cfa: %v\n", err)
		return 1
	}
	return 0
}
