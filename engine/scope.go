package engine

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/spec"
)

// propertySlice returns the static backward slice of prop (engine/pdg),
// through its assert wrapper call when it has one; the property scope
// (Config.Scope) is compared against it. sdgs holds prog's SDG.
func propertySlice(prog *cfa.Program, prop *spec.Property, sdgs *sdgCache) *pdg.Slice {
	g := sdgs.of(prog)
	if prop.Via != nil {
		return g.SliceVia(prop.Via, prop.ErrorEdges)
	}
	return g.Slice(prop.ErrorEdges)
}
