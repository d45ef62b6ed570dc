package main

import (
	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
)

// filterShard returns the properties of props that shard s owns
// (results.Shard.Owns), in order; all of them when s selects no subset.
func filterShard(s results.Shard, props []*engine.Property) []*engine.Property {
	if !s.Active() {
		return props
	}
	var out []*engine.Property
	for _, p := range props {
		if s.Owns(p.ID) {
			out = append(out, p)
		}
	}
	return out
}
