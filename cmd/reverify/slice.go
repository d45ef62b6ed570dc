package main

import (
	"bufio"
	"fmt"
	"github.com/reverify/reverify/engine"
	"io"
	"os"
	"sort"
	"strings"
)

// runSlice implements `reverify slice FILE... --property ID`: the static
// backward slice of one property (engine.StaticSlices), printed as the relevant
// source lines, each prefixed by file:line. Without --property it lists
// the properties and their slice sizes.
func runSlice(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("slice", stderr)
	var ff frontendFlags
	ff.register(fs)
	entry := fs.String("entry", "main", "entry function")
	prop := fs.String("property", "", "property ID (as printed by `reverify check`)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify slice: "+format+"\n", a...)
		return 2
	}
	if len(files) == 0 {
		return fail("no input files")
	}
	cfg, err := ff.config()
	if err != nil {
		return fail("%v", err)
	}
	prog, err := loadProgram(cfg, files...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	props := engine.Properties(prog, *entry)
	if *prop == "" {
		for i, s := range engine.StaticSlices(prog, props) {
			fmt.Fprintf(stdout, "%s  %s  %d edges of %d\n", props[i].Pos, props[i].ID, s.Edges, len(prog.Edges))
		}
		return 0
	}
	for _, p := range props {
		if p.ID != *prop {
			continue
		}
		printSliceLines(stdout, engine.StaticSlices(prog, []*engine.Property{p})[0].Lines)
		return 0
	}
	ids := make([]string, len(props))
	for i, p := range props {
		ids[i] = p.ID
	}
	return fail("no property %q (properties: %s)", *prop, strings.Join(ids, ", "))
}

// printSliceLines prints the relevant lines of each file in order.
func printSliceLines(w io.Writer, lines map[string][]int) {
	files := make([]string, 0, len(lines))
	for f := range lines {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		text := readLines(f)
		for _, n := range lines[f] {
			src := ""
			if n-1 < len(text) {
				src = text[n-1]
			}
			fmt.Fprintf(w, "%s:%d:\t%s\n", f, n, src)
		}
	}
}

func readLines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}
