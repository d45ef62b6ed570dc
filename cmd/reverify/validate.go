package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/report/artifacts"
)

// witnessInput is what validate and reproduce share: the parsed witness
// and the program it is about.
type witnessInput struct {
	w     *engine.WitnessFile
	prog  *engine.Program
	entry string
	// build are gcc's flags for the sources as they were read: include
	// directories and macros (-I, -D)
	build []string
	// opts are the front end's options the program was read with
	opts engine.SourceOptions
}

// loadWitness parses the flags common to validate and reproduce, reads
// the witness and translates the program (under the witness's data model
// unless --data-model is given). It returns a non-zero exit code on bad
// input, after printing one line.
func loadWitness(name string, args []string, stderr io.Writer) (*witnessInput, *time.Duration, int) {
	fs := newFlagSet(name, stderr)
	var ff frontendFlags
	ff.register(fs)
	wpath := fs.String("witness", "", "the YAML witness (format 2.0)")
	entry := fs.String("entry", "main", "entry function")
	timeout := fs.Duration("timeout", 60*time.Second, "time limit")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, nil, 2
	}
	fail := func(format string, a ...any) (*witnessInput, *time.Duration, int) {
		fmt.Fprintf(stderr, "reverify %s: "+format+"\n", append([]any{name}, a...)...)
		return nil, nil, 2
	}
	if err := checkLimits(fs); err != nil {
		return fail("%v", err)
	}
	if *wpath == "" {
		return fail("--witness is required")
	}
	if len(files) == 0 {
		return fail("no input files")
	}
	f, err := os.Open(*wpath)
	if err != nil {
		return fail("%v", err)
	}
	w, err := engine.ReadWitness(f)
	f.Close()
	if err != nil {
		return fail("%s: %v", *wpath, err)
	}
	if !explicitFlags(fs)["data-model"] {
		if dm := w.DataModel(); dm != "" {
			ff.dataModel = dm
		}
	}
	cfg, err := ff.config()
	if err != nil {
		return fail("%v", err)
	}
	prog, err := loadProgram(cfg, files...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, 2
	}
	if prog.Func(*entry) == nil {
		return fail("entry function %q is not defined in %s", *entry, strings.Join(files, ", "))
	}
	var build []string
	for _, inc := range cfg.IncludeDirs {
		build = append(build, "-I", inc)
	}
	build = append(build, artifacts.DefineFlags(cfg.Defines)...)
	return &witnessInput{w: w, prog: prog, entry: *entry, build: build, opts: cfg}, timeout, 0
}

// validateWitness runs the validator; bad witness content is exit code 2.
func validateWitness(in *witnessInput, timeout time.Duration) (engine.WitnessCheck, error) {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return engine.ValidateWitness(ctx, in.prog, in.w, in.entry, z3.Factory, in.opts)
}

// runValidate implements `reverify validate --witness W FILE...`: witness
// validation by replay (engine.ValidateWitness). Exit codes: 0
// confirmed, 1 rejected, 2 bad input (unreadable or unsupported witness,
// untranslatable program).
func runValidate(args []string, stdout, stderr io.Writer) int {
	in, timeout, code := loadWitness("validate", args, stderr)
	if in == nil {
		return code
	}
	res, err := validateWitness(in, *timeout)
	if err != nil {
		// content the validator cannot use
		fmt.Fprintf(stderr, "reverify validate: %v\n", err)
		return 2
	}
	if res.Confirmed {
		fmt.Fprintln(stdout, "confirmed:", res.Reason)
		return 0
	}
	fmt.Fprintln(stdout, "rejected:", res.Reason)
	return 1
}
