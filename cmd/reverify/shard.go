package main

import (
	"fmt"
	"path"
	"strings"

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

// functionGlobs is --functions: comma-separated globs (path.Match) of
// the functions whose properties are checked; empty selects all.
type functionGlobs []string

func (g *functionGlobs) String() string { return strings.Join(*g, ",") }

// Set parses a comma-separated list of globs. Errors: a malformed glob
// ("bad pattern").
func (g *functionGlobs) Set(s string) error {
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x == "" {
			continue
		}
		if _, err := path.Match(x, ""); err != nil {
			return fmt.Errorf("%q: %v", x, err)
		}
		*g = append(*g, x)
	}
	return nil
}

// filter returns the properties of props whose function (the one the
// assertion or access is in) matches one of the globs, in order; all
// of them when there is no glob.
func (g functionGlobs) filter(props []*engine.Property) []*engine.Property {
	if len(g) == 0 {
		return props
	}
	var out []*engine.Property
	for _, p := range props {
		for _, x := range g {
			if ok, _ := path.Match(x, p.Func); ok {
				out = append(out, p)
				break
			}
		}
	}
	return out
}
