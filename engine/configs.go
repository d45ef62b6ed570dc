package engine

import (
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

func init() {
	register("value", configuration{
		doc: "explicit-value analysis, full precision (seed 001, section 3.8.1)",
		analysis: func(prog *cfa.Program, cfg Config) []cpa.CPA {
			return []cpa.CPA{value.New(prog, value.Options{})}
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
	})
	register("default", configs["value"])
}
