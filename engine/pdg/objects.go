package pdg

import (
	"fmt"
	"strconv"

	"github.com/reverify/reverify/engine/cfa"
)

// ObjKind classifies abstract memory objects.
type ObjKind uint8

// The kinds of abstract objects. Every variable is an object (fields and
// elements collapsed into one); the remaining kinds exist only as targets of
// pointers or as pseudo-objects of the dependence analysis.
const (
	ObjVar     ObjKind = iota // a variable: global, static local, local, parameter, temporary
	ObjHeap                   // the objects allocated at one allocation call site
	ObjString                 // one string literal occurrence
	ObjFunc                   // a function (target of function pointers)
	ObjExtern                 // memory an external function may hand out at one call site
	ObjUnknown                // memory behind a pointer the analysis cannot resolve
	// Pseudo-objects: slots of the reaching-definitions analysis that are
	// never pointed to.
	ObjWriteUnknown // "some object written through an unresolved pointer"
	ObjReadUnknown  // "any address-taken object", read through an unresolved pointer
	ObjAny          // "any variable", written by an unsupported construct
	// ObjRest stands, inside one function, for all the objects the
	// function's interface collapses (see collapse.go).
	ObjRest
)

var objKindNames = [...]string{"var", "heap", "string", "func", "extern", "unknown", "unknown-write", "unknown-read", "any", "rest"}

func (k ObjKind) String() string { return objKindNames[k] }

// Object is an abstract memory object of the points-to analysis and a slot
// of the reaching-definitions analysis.
type Object struct {
	ID   int
	Kind ObjKind
	Var  *cfa.Var  // ObjVar
	Site *cfa.Edge // ObjHeap, ObjExtern: the call edge
	Lit  *cfa.StringLit
	Func string // ObjFunc: the function's name
}

// String names the object: "x", "main::x", "heap@main:L3", "func:f",
// "unknown".
func (o *Object) String() string {
	switch o.Kind {
	case ObjVar:
		return o.Var.QualName()
	case ObjHeap, ObjExtern:
		return fmt.Sprintf("%s@%s:%s", o.Kind, o.Site.From.Func.Name, o.Site.From)
	case ObjString:
		s := o.Lit.Val
		if len(s) > 12 {
			s = s[:12] + "…"
		}
		return "string " + strconv.Quote(s)
	case ObjFunc:
		return "func:" + o.Func
	}
	return o.Kind.String()
}

// memory reports whether o is addressable memory (a possible pointee that
// holds data): address-taken variables are decided separately.
func (o *Object) memory() bool {
	switch o.Kind {
	case ObjHeap, ObjString, ObjExtern, ObjUnknown:
		return true
	}
	return false
}

// SlotKind says what a formal or actual node passes between a call site and
// a callee.
type SlotKind uint8

// Slot kinds.
const (
	SlotParam   SlotKind = iota // the Index-th parameter
	SlotReturn                  // the return value
	SlotReturns                 // whether the callee returns at all (termination)
	SlotObject                  // the object with ID Index (globals, memory reachable through pointers)
	SlotRest                    // every object of the callee's interface not passed as its own slot
)

// Slot is one input or output of a function in the system dependence
// graph.
type Slot struct {
	Kind  SlotKind
	Index int
}

func (s Slot) less(t Slot) bool {
	if s.Kind != t.Kind {
		return s.Kind < t.Kind
	}
	return s.Index < t.Index
}
