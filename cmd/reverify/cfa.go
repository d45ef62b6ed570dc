package main

import (
	"fmt"
	"io"

	"github.com/reverify/reverify/engine/frontend"
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
	prog, err := frontend.Translate(cfg, files...)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	if *dot {
		err = prog.WriteDOT(stdout)
	} else {
		err = prog.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "reverify cfa: %v\n", err)
		return 1
	}
	return 0
}
