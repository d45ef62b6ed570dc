package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reverify/reverify/diffslice"
	"github.com/reverify/reverify/engine"
)

// TestCheckFlagsReachEngine: every engine flag of check reaches the
// engine configuration in both modes, from files and with --base-dir (PR
// mode), and the settings a cached verdict depends on reach the cache's
// limits and slice-hash variant.
func TestCheckFlagsReachEngine(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.c"), []byte(diffMain), 0o644); err != nil {
		t.Fatal(err)
	}
	prec := filepath.Join(t.TempDir(), "prev.json")
	if err := os.WriteFile(prec, []byte(`{"schema": 1, "properties": [{"id": "check_clamp:v<=LIMIT", "precision": ["clamp::x@clamp"]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		flags []string
		ok    func(cfg engine.Config, opts *diffslice.Options) bool
	}{
		{[]string{"--clock", "cpu"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.Clock != nil && c.Workers == 1 && (o == nil || o.Limits.Clock == "cpu")
		}},
		{[]string{"--clock", "wall"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.Clock == nil && c.Workers == 0 && (o == nil || o.Limits.Clock == "wall")
		}},
		{[]string{"--timeout", "7s"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.Timeout == 7*time.Second && (o == nil || o.Limits.Timeout == 7*time.Second)
		}},
		{[]string{"--max-states", "1234"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.MaxStates == 1234 && (o == nil || o.Limits.MaxStates == 1234)
		}},
		{[]string{"--config", "value-cegar"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.Name == "value-cegar" && (o == nil || o.Config == "value-cegar")
		}},
		{[]string{"--entry", "check_const"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.Entry == "check_const" && (o == nil || o.Entry == "check_const")
		}},
		{[]string{"--signed-overflow", "assume-none"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.SignedOverflow == engine.AssumeNoOverflow && (o == nil || o.Variant == "signed-overflow assume-none")
		}},
		{[]string{"--slicing-criterion", "location"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.SlicingCriterion.String() == "location" && (o == nil || o.Variant == "slicing-criterion location")
		}},
		{[]string{"--precision-scope", "function"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.PrecisionScope.String() == "function" && (o == nil || o.Variant == "precision-scope function")
		}},
		{[]string{"--unwindset", "main.0:3,check_clamp.1:5"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.Unwindset["main.0"] == 3 && c.Unwindset["check_clamp.1"] == 5 && len(c.Unwindset) == 2 &&
				(o == nil || o.Variant == "unwindset check_clamp.1:5,main.0:3")
		}},
		{[]string{"--unwind", "4"}, func(c engine.Config, o *diffslice.Options) bool {
			return c.Unwind == 4 && (o == nil || o.Variant == "unwind 4")
		}},
		{[]string{"--initial-precision", prec}, func(c engine.Config, o *diffslice.Options) bool {
			return c.InitialPrecision["check_clamp:v<=LIMIT"].Len() == 1
		}},
		{[]string{"--output", filepath.Join(t.TempDir(), "out")}, func(c engine.Config, o *diffslice.Options) bool {
			return c.KeepARG
		}},
	} {
		for _, mode := range []string{"files", "pr"} {
			var args []string
			if mode == "files" {
				args = append([]string{"check", filepath.Join(dir, "m.c")}, tt.flags...)
			} else {
				args = append([]string{"check", "--base-dir", dir, "--head-dir", dir, "--sources", "*.c",
					"--cache", t.TempDir()}, tt.flags...)
			}
			var seen []engine.Config
			var seenOpts []*diffslice.Options
			observeEngineConfig = func(c engine.Config, o *diffslice.Options) {
				seen = append(seen, c)
				seenOpts = append(seenOpts, o)
			}
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			observeEngineConfig = nil
			if code == 2 || len(seen) != 1 {
				t.Errorf("%s %v: exit %d, %d engine runs; stderr %s", mode, tt.flags, code, len(seen), stderr.String())
				continue
			}
			if mode == "pr" && seenOpts[0] == nil || mode == "files" && seenOpts[0] != nil {
				t.Errorf("%s %v: diffslice options %v", mode, tt.flags, seenOpts[0])
			}
			if !tt.ok(seen[0], seenOpts[0]) {
				t.Errorf("%s %v: engine configuration %+v, options %+v: the flag did not arrive", mode, tt.flags, seen[0], seenOpts[0])
			}
		}
	}
}
