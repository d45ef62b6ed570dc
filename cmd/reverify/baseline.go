package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/report/artifacts"
	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/results"
)

// Bounds of the baseline run that shows what CEGAR and slicing saved: it
// explores the same property without them, only for the picture, so it
// stops early.
const (
	baselineMaxStates = 20000
	baselineTimeout   = 10 * time.Second
)

// baselineConfig names the configuration that does what config does
// without CEGAR and slicing (seed 000, section 3.5 compares the pixel
// trees of symbolic execution with and without them), or "" when config
// has neither.
func baselineConfig(config string) string {
	switch {
	case strings.HasPrefix(config, "value-") && (strings.Contains(config, "cegar") || strings.Contains(config, "slicing")):
		return "value"
	case strings.HasPrefix(config, "symex-") && (strings.Contains(config, "cegar") || strings.Contains(config, "slicing")):
		return "symex"
	}
	return ""
}

// writeBaselines explores each FALSE property once more with the
// baseline configuration of the configuration that decided it, at most
// baselineMaxStates states or baselineTimeout, and writes the pixel tree
// of that exploration next to the property's own, as
// pixeltree-baseline.json (markdown.Baseline: configuration, states,
// whether it ran to the end, mosaic). Verdicts are untouched: the run is
// for the picture only. Properties whose configuration has no baseline
// are skipped.
func writeBaselines(ctx context.Context, out string, prog *engine.Program, cfg engine.Config, rs []*engine.Result) {
	for _, r := range rs {
		base := baselineConfig(r.Config)
		if r.Verdict != results.False || base == "" || r.ARG == nil && r.Shape == nil {
			continue
		}
		c := cfg
		c.Name, c.MaxStates, c.Timeout, c.KeepARG, c.KeepShape, c.Workers = base, baselineMaxStates, baselineTimeout, true, false, 1
		c.InitialPrecision = nil
		res, err := engine.Verify(ctx, prog, []*engine.Property{r.Property}, c)
		if err != nil || len(res) != 1 || res[0].ARG == nil || res[0].ARG.Len() == 0 {
			continue
		}
		b := res[0]
		pic := artifacts.PixelTree(b, nil)
		bl := markdown.Baseline{Config: base, States: b.States, Complete: b.Verdict != results.Unknown, Mosaic: pic.Mosaic(0, 0)}
		data, _ := json.MarshalIndent(bl, "", "  ")
		os.WriteFile(filepath.Join(artifacts.Dir(out, r), "pixeltree-baseline.json"), data, 0o644)
	}
}

// readBaselines reads the baseline pictures writeBaselines left next to
// the pixel trees of r's violated properties.
func readBaselines(r *results.Report) map[string]markdown.Baseline {
	out := map[string]markdown.Baseline{}
	for _, p := range r.Properties {
		if p.Verdict != results.False || p.PixelTree == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(filepath.Dir(p.PixelTree), "pixeltree-baseline.json"))
		if err != nil {
			continue
		}
		var b markdown.Baseline
		if json.Unmarshal(data, &b) == nil && b.Mosaic != "" {
			out[p.ID] = b
		}
	}
	return out
}
