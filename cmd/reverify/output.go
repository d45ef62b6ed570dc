package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/report/pixeltree"
)

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// artifactDir is the directory of one property's artifacts inside out:
// the property ID made file-name safe, with its position for uniqueness.
func artifactDir(out string, r *engine.Result) string {
	id := unsafeName.ReplaceAllString(r.Property.ID, "_")
	if len(id) > 60 {
		id = id[:60]
	}
	return filepath.Join(out, fmt.Sprintf("%s-L%d", id, r.Property.Pos.Line))
}

// writeArtifacts writes, per property, its pixel tree (PNG, SVG, text)
// and, for FALSE, its violation witnesses (YAML 2.0, GraphML) and
// reproducer, into out, and records their paths in report. Failures to
// write one artifact are returned joined but do not stop the others.
func writeArtifacts(out string, prog *cfa.Program, files []string, entry, config, prp string, results []*engine.Result, report *engine.Report, timeout time.Duration) error {
	var errs []string
	for i, r := range results {
		pr := &report.Properties[i]
		dir := artifactDir(out, r)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if r.ARG != nil {
			base := filepath.Join(dir, "pixeltree")
			var cex []cfa.Step
			if r.Verdict == engine.False {
				cex = r.Counterexample
			}
			if err := writePixelTree(base, r.ARG, cex); err != nil {
				errs = append(errs, err.Error())
			} else {
				pr.PixelTree = base + ".png"
			}
		}
		if r.Verdict == engine.True && len(r.Property.Memory) == 0 { // memory safety: no correctness witness yet
			errs = append(errs, writeCorrectness(dir, prog, files, entry, config, prp, r, pr, timeout)...)
		}
		if r.Verdict != engine.False {
			continue
		}
		v := &witness.Violation{Program: prog, Path: r.Counterexample, Task: witness.Task{
			Files: files, Entry: entry, Specification: prp, DataModel: prog.DataModel,
			Producer: "reverify", Version: version, Configuration: config,
		}, Memory: r.Violated}
		for _, in := range r.Inputs {
			v.Inputs = append(v.Inputs, witness.Input{Source: in.Source, Type: in.Type, Value: in.Bits, Step: in.Step})
		}
		yml := filepath.Join(dir, "witness.yml")
		if err := writeWith(yml, func(b *bytes.Buffer) error { return witness.WriteViolationYAML(b, v) }); err != nil {
			errs = append(errs, err.Error())
		} else {
			pr.Witness = yml
		}
		if err := writeWith(filepath.Join(dir, "witness.graphml"), func(b *bytes.Buffer) error { return witness.WriteViolationGraphML(b, v) }); err != nil {
			errs = append(errs, err.Error())
		} else {
			pr.WitnessGraphML = filepath.Join(dir, "witness.graphml")
		}
		src, err := witness.Reproducer(v)
		if err != nil {
			pr.Reason = strings.TrimSpace(pr.Reason + "; no reproducer: " + err.Error())
			continue
		}
		repro := filepath.Join(dir, "reproducer.c")
		if err := os.WriteFile(repro, []byte(src), 0o644); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		script, err := reproduceScript(prog.DataModel, files, dir, witness.BuildFlags(src))
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "reproduce.sh"), []byte(script), 0o755); err != nil {
			errs = append(errs, err.Error())
		}
		pr.Reproducer = repro
	}
	if len(errs) > 0 {
		return fmt.Errorf("writing artifacts: %s", strings.Join(errs, "; "))
	}
	return nil
}

// reproduceScript is the text of dir/reproduce.sh: it builds
// dir/reproducer.c with the program's files (witness.BuildLine, with the
// reproducer's own flags, witness.BuildFlags) and runs
// it: an ILP32 reproducer under qemu-i386 when the kernel cannot execute
// it (exit 2 when neither works). Every path is relative to the script's own directory, so the script
// still works when the output directory and the checkout move together
// (a downloaded Actions artifact unpacked at its place in a checkout).
func reproduceScript(dm cfa.DataModel, files []string, dir string, flags []string) (string, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel := func(p string) (string, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		return filepath.Rel(absDir, abs)
	}
	relFiles := make([]string, len(files))
	isPath := map[string]bool{"reproducer.c": true, "reproducer": true}
	for i, f := range files {
		r, err := rel(f)
		if err != nil {
			return "", err
		}
		relFiles[i] = r
		isPath[r] = true
	}
	build := witness.BuildLine(dm, relFiles, "reproducer.c", "reproducer", flags...)
	q := make([]string, len(build))
	for i, a := range build {
		q[i] = shellQuote(a)
		if isPath[a] {
			q[i] = `"$here"/` + q[i]
		}
	}
	run := "\"$here\"/reproducer\n"
	if dm == cfa.ILP32 {
		// An i386 program on a kernel without 32-bit support fails with
		// "exec format error": the probe (witness.ProbeEnv) tells, and
		// qemu-i386 runs it instead (witness.RunReproducer does the same).
		run = fmt.Sprintf(`if %s=1 "$here"/reproducer >/dev/null 2>&1 </dev/null; then
	"$here"/reproducer
elif command -v %[2]s >/dev/null 2>&1; then
	%[2]s "$here"/reproducer
else
	echo "reproduce.sh: this kernel cannot execute the i386 reproducer and %[2]s is missing (Debian package qemu-user)" >&2
	exit 2
fi
`, witness.ProbeEnv, witness.Emulator)
	}
	return "#!/bin/sh\n# Builds and runs the reproducer; exit code 77 means the assertion failed.\n" +
		"# Paths are relative to this script's directory.\nset -e\nhere=$(cd \"$(dirname \"$0\")\" && pwd)\n" +
		strings.Join(q, " ") + "\n" + run, nil
}

func writeWith(path string, f func(*bytes.Buffer) error) error {
	var b bytes.Buffer
	if err := f(&b); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// argTree adapts an ARG to a pixel tree: covered, merged and target
// states in their colours, the counterexample path highlighted.
type argTree struct {
	*cpa.ARG
	highlight map[int]bool
}

func (t argTree) Kind(n int) pixeltree.Kind {
	node := t.Nodes[n]
	switch {
	case node.IsTarget():
		return pixeltree.Target
	case t.highlight[n]:
		return pixeltree.Highlighted
	case node.Covered():
		return pixeltree.Covered
	case node.Merged():
		return pixeltree.Merged
	}
	return pixeltree.Ordinary
}

// writePixelTree writes base.png, base.svg and base.txt for the ARG,
// with the path of the target whose error path is cex highlighted (none
// when cex is empty). The ARG of a multi-property run is shared by its
// properties and holds the targets of several.
func writePixelTree(base string, arg *cpa.ARG, cex []cfa.Step) error {
	if arg.Len() == 0 {
		return nil
	}
	t := argTree{ARG: arg, highlight: map[int]bool{}}
	if len(cex) > 0 {
		for _, n := range arg.Nodes {
			if n.IsTarget() && sameSteps(n.Path(), cex) {
				for _, p := range n.PathNodes() {
					t.highlight[p.ID] = true
				}
				break
			}
		}
	}
	pic := pixeltree.Layout(t, pixeltree.Options{Root: arg.Root().ID})
	if err := writeWith(base+".png", func(b *bytes.Buffer) error { return pic.PNG(b) }); err != nil {
		return err
	}
	if err := writeWith(base+".svg", func(b *bytes.Buffer) error { return pic.SVG(b) }); err != nil {
		return err
	}
	if err := os.WriteFile(base+".mosaic.txt", []byte(pic.Mosaic(0, 0)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".txt", []byte(pic.Text(80)), 0o644)
}

// sameSteps reports whether a and b take the same steps.
func sameSteps(a, b []cfa.Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Edge != b[i].Edge || a[i].Kind != b[i].Kind {
			return false
		}
	}
	return true
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
