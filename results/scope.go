package results

import (
	"fmt"
	"strings"
)

// The results.json vocabulary of a property scope (engine/scope computes
// it, report/scopegraph draws it, report/markdown summarises it).

// Scope is the property scope of one decided property (package
// documentation): the functions and CFA locations holding at least one ARG
// state of Ω, against those the ARG explored and those the program has.
// Counts are over the functions with a body (cfa.Program.Funcs; the
// initialiser of globals is not counted) and their locations.
type Scope struct {
	// Functions are the names of the functions in scope, sorted.
	Functions []string `json:"functions"`
	// FunctionsExplored is the number of functions with at least one
	// ARG state; FunctionsTotal the number of functions with a body.
	FunctionsExplored int `json:"functions_explored"`
	FunctionsTotal    int `json:"functions_total"`
	// Locations is the number of CFA locations holding a state of Ω,
	// LocationsExplored of those holding any ARG state, LocationsTotal
	// of all locations of the functions with a body.
	Locations         int `json:"locations"`
	LocationsExplored int `json:"locations_explored"`
	LocationsTotal    int `json:"locations_total"`
	// Share is Locations / LocationsTotal, rounded to 3 decimals.
	Share float64 `json:"share"`
	// Partial is set for a violated property: the search stopped at the
	// first feasible counterexample, so Ω is incomplete (seed 004,
	// section 3.1.6).
	Partial bool `json:"partial,omitempty"`
	// Kept is the scope by the seed's definition alone: the functions
	// and locations with a state whose step changes or tests what the
	// precision keeps, whether or not the static slice contains the
	// step (package documentation); only when a slice was given.
	KeptFunctions int `json:"kept_functions,omitempty"`
	KeptLocations int `json:"kept_locations,omitempty"`
	// SliceFunctions and SliceLocations are the functions (with a body)
	// and locations of the property's static backward slice (engine/pdg;
	// a location is in it when a slice edge leads into or out of it, or
	// an error edge out of it); 0 without a slice.
	SliceFunctions int `json:"slice_functions,omitempty"`
	SliceLocations int `json:"slice_locations,omitempty"`
	// Picture is the path of the drawn call graph (SVG), set by whoever
	// writes it (cmd/reverify, report/scopegraph).
	Picture string `json:"picture,omitempty"`
	// Graph is the property scope call graph (seed 004, section 4.1.1).
	Graph *ScopeGraph `json:"-"`
}

// ScopeGraph is the property scope call graph: the explored functions in
// order of first reach in the ARG (node IDs), and the calls between them.
type ScopeGraph struct {
	Property string // the property's ID
	// Program names every function with a body, in order of definition
	// (the axis of an arc diagram).
	Program []string
	Funcs   []ScopeFunc
	Calls   []ScopeCall // sorted by (From, To)
}

// ScopeFunc is a node of the property scope call graph.
type ScopeFunc struct {
	Name string
	// States is the number of ARG states in the function, InScope those
	// of them in Ω.
	States, InScope int
	// Calls is ncall^ps: how many times the ARG enters the function.
	Calls int
	// Locations explored and in scope, of Total locations.
	Locations, LocationsInScope, Total int
}

// Importance is imp^ps (seed 004, section 4.1.1): the share of the
// function's ARG states that are in scope, in [0, 1].
func (f ScopeFunc) Importance() float64 {
	if f.States == 0 {
		return 0
	}
	return float64(f.InScope) / float64(f.States)
}

// ScopeCall is an edge of the call graph: indices into ScopeGraph.Funcs.
type ScopeCall struct{ From, To int }

// Line is the one-line form for `reverify check`:
//
//	scope: 2 of 5 functions (clamp_len, main), 5 of 25 locations (20.0%); explored 5 functions, 25 locations; slice 3 functions, 15 locations; kept 2 functions, 5 locations
//
// (the slice and kept parts only when Of had a slice).
// With more than max function names (max > 0) the list ends in "…".
func (s *Scope) Line(max int) string {
	names := s.Functions
	more := ""
	if max > 0 && len(names) > max {
		names, more = names[:max], ", …"
	}
	part := ""
	if s.Partial {
		part = " (partial: stopped at the first counterexample)"
	}
	slice := ""
	if s.SliceFunctions > 0 {
		slice = fmt.Sprintf("; slice %d functions, %d locations; kept %d functions, %d locations", s.SliceFunctions, s.SliceLocations, s.KeptFunctions, s.KeptLocations)
	}
	return fmt.Sprintf("scope: %d of %d functions (%s%s), %d of %d locations (%.1f%%); explored %d functions, %d locations%s%s",
		len(s.Functions), s.FunctionsTotal, strings.Join(names, ", "), more, s.Locations, s.LocationsTotal,
		100*s.Share, s.FunctionsExplored, s.LocationsExplored, slice, part)
}
