package cfa

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/graph"
)

// DataModel fixes the sizes of long and pointers.
type DataModel uint8

// The data models of SV-COMP: ILP32 (int, long, pointer 32 bits) and LP64
// (long and pointer 64 bits).
const (
	LP64 DataModel = iota
	ILP32
)

func (m DataModel) String() string {
	if m == ILP32 {
		return "ILP32"
	}
	return "LP64"
}

// ParseDataModel parses "ILP32" or "LP64" (case-insensitive).
func ParseDataModel(s string) (DataModel, error) {
	switch s {
	case "ILP32", "ilp32":
		return ILP32, nil
	case "LP64", "lp64":
		return LP64, nil
	}
	return 0, fmt.Errorf("unknown data model %q (want ILP32 or LP64)", s)
}

// PointerBits is the width of pointers (and long) under m.
func (m DataModel) PointerBits() int {
	if m == ILP32 {
		return 32
	}
	return 64
}

// Pos is a position in an original source file (after mapping .i line
// markers back). Line and Col are 1-based; a zero Pos is unknown.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Range is a source range [Start, End] (End inclusive, possibly zero).
type Range struct{ Start, End Pos }

// Var is a variable: global, parameter, local, static local or temporary.
type Var struct {
	ID   int    // dense index into Program.Vars
	Name string // unique within its scope: globals program-wide, locals within Func ("x", "x.1", "__t3")
	Orig string // the name in the source ("" for temporaries)
	T    *Type
	Func string // owning function; "" for globals and static locals
	// Global is true for objects with static storage duration: globals and
	// static locals (whose Name is then "f::x").
	Global   bool
	Param    bool
	Temp     bool
	Volatile bool // every read is a nondeterministic value
	// ReadOnly is set for an object declared const at its top level
	// (const int n, const char t[4]; not const char *p): a write of it
	// is undefined behaviour, so a global keeps its initial value.
	ReadOnly  bool
	AddrTaken bool // its address is taken somewhere (or it is an array)
	Pos       Pos
}

// QualName is the program-unique name: Name for globals, "func::Name"
// for locals.
func (v *Var) QualName() string {
	if v.Func == "" {
		return v.Name
	}
	return v.Func + "::" + v.Name
}

func (v *Var) String() string { return v.Name }

// Location is a program location (a CFA node).
type Location struct {
	ID    int // dense index into Program.Locs
	Index int // index into Func.Locs
	Func  *Function
	Out   []*Edge
	In    []*Edge
	// LoopHead is set by Program.Finish for targets of back edges (in a
	// depth-first order from the entry).
	LoopHead bool
	// Terminal marks locations where execution ends without returning
	// (after abort, exit, or a failed __VERIFIER_assume): no out-edges.
	Terminal bool
	// Dead marks locations the front end knows to be unreachable (code
	// after return or goto); the sanity checker accepts them unreachable.
	Dead bool
}

func (l *Location) String() string { return fmt.Sprintf("L%d", l.Index) }

// Edge is a CFA edge (From, Op, To) with the source it came from.
type Edge struct {
	ID   int // dense index into Program.Edges
	From *Location
	To   *Location
	Op   Op
	Pos  Range
	Text string // the original source text of the construct
}

func (e *Edge) String() string { return fmt.Sprintf("%s -> %s: %s", e.From, e.To, e.Op) }

// Function is the CFA of one C function.
type Function struct {
	Name   string
	T      *Type // Func
	Params []*Var
	RetVar *Var // nil for void functions
	Locals []*Var
	Entry  *Location
	Exit   *Location
	Locs   []*Location
	Pos    Range
	Static bool
	// Unit is the source file of the translation unit the definition
	// was translated in (a definition in a header: the unit including
	// it); "" for functions not from a source.
	Unit string
}

// Succs returns the indices (in Locs) of l's successor locations: the
// function as a graph.Graph over location indices.
func (f *Function) Succs(n int) []int {
	out := f.Locs[n].Out
	s := make([]int, len(out))
	for i, e := range out {
		s[i] = e.To.Index
	}
	return s
}

// Len is the number of locations.
func (f *Function) Len() int { return len(f.Locs) }

// DefKind classifies definitions for change analysis.
type DefKind uint8

// Kinds of definitions.
const (
	DefFunc DefKind = iota
	DefGlobal
	DefType
	DefMacro
)

var defKindNames = [...]string{"function", "global", "type", "macro"}

func (k DefKind) String() string { return defKindNames[k] }

// Definition is a top-level definition with the fingerprint of its token
// stream after preprocessing (hex SHA-256): equal fingerprints mean equal
// definitions up to whitespace and comments.
type Definition struct {
	Kind        DefKind
	Name        string
	File        string
	Line        int // first line in File
	EndLine     int
	Fingerprint string
}

// Program is a whole C program: one CFA per function with a body, the
// globals and their initialisation, and the definitions' fingerprints.
type Program struct {
	DataModel DataModel
	Files     []string
	Funcs     []*Function // in order of definition
	// Init declares and initialises every global and static local in
	// order; analyses run it before the entry function.
	Init    *Function
	Globals []*Var
	// Externals are functions declared and called without a body.
	Externals map[string]*Type
	Defs      []Definition
	// AssumePure names functions without a body that the user declares
	// side-effect-free (Extern returns ExternPure for them): every
	// verdict of a program calling one states the assumption.
	AssumePure map[string]bool
	// Preconditions are the positions of the error calls of CBMC's
	// __CPROVER_precondition: a check its function's callers must
	// satisfy (library mode reads a violation in the function's own
	// context as a precondition, not a bug).
	Preconditions map[Pos]bool
	// CBMC reports that the sources use CBMC's harness dialect (a name
	// starting with __CPROVER_): a C compiler needs its GNU C prelude
	// (csem.CBMCPreludeGNU) and definitions of the functions it declares
	// (a reproducer's harness gives them).
	CBMC bool

	Vars  []*Var
	Locs  []*Location
	Edges []*Edge

	byName map[string]*Function
}

// NewProgram returns an empty program with an empty Init function.
func NewProgram(m DataModel) *Program {
	p := &Program{DataModel: m, Externals: map[string]*Type{}, byName: map[string]*Function{}}
	p.Init = p.newFunction("__reverify_init", &Type{Kind: Func, Result: VoidType})
	return p
}

// ContextPrefix starts the name of every most general context
// (engine/harness): a function the library mode adds to call one
// function of the sources with arbitrary arguments.
const ContextPrefix = "__reverify_context_"

// ContextSet is the macro through which a most general context stores a
// value into an object it fills: ContextSet(lvalue, value). The contexts'
// prelude defines it as the assignment, which is what the analyses read;
// a reproducer, which gcc compiles, defines it first as a copy of the
// value's bytes, because an object the sources declare with const
// members (struct aws_string's const size_t len) gets its arbitrary
// value from the context all the same and gcc refuses the assignment.
const ContextSet = "__reverify_set"

// ContractCheckPrefix and ContractUsePrefix start the names of the
// functions engine/contract generates for a function f with a contract:
// the check of f against it, and the contract used in place of f's
// calls.
const (
	ContractCheckPrefix = "__reverify_check_"
	ContractUsePrefix   = "__reverify_use_"
)

// ContractOwner returns the function whose contract a generated check or
// use of a contract belongs to, and name itself for any other function.
func ContractOwner(name string) string {
	if f, ok := strings.CutPrefix(name, ContractCheckPrefix); ok {
		return f
	}
	if f, ok := strings.CutPrefix(name, ContractUsePrefix); ok {
		return f
	}
	return name
}

// IsContext reports whether name is a most general context's.
func IsContext(name string) bool { return strings.HasPrefix(name, ContextPrefix) }

// Generated reports whether the function name is reverify's own, not
// the sources': the global initialiser, the most general contexts and
// their helpers ("__reverify_…").
func Generated(name string) bool { return strings.HasPrefix(name, "__reverify_") }

// Func returns the function named name, or nil.
func (p *Program) Func(name string) *Function { return p.byName[name] }

// NewFunction adds a function with fresh entry and exit locations.
func (p *Program) NewFunction(name string, t *Type) *Function {
	f := p.newFunction(name, t)
	p.Funcs = append(p.Funcs, f)
	p.byName[name] = f
	return f
}

func (p *Program) newFunction(name string, t *Type) *Function {
	f := &Function{Name: name, T: t}
	f.Entry = p.NewLocation(f)
	f.Exit = p.NewLocation(f)
	return f
}

// NewLocation adds a location to f.
func (p *Program) NewLocation(f *Function) *Location {
	l := &Location{ID: len(p.Locs), Index: len(f.Locs), Func: f}
	f.Locs = append(f.Locs, l)
	p.Locs = append(p.Locs, l)
	return l
}

// NewVar adds a variable: a global when f is nil, else a local of f.
func (p *Program) NewVar(f *Function, name string, t *Type) *Var {
	v := &Var{ID: len(p.Vars), Name: name, Orig: name, T: t}
	if f == nil {
		v.Global = true
		p.Globals = append(p.Globals, v)
	} else {
		v.Func = f.Name
		f.Locals = append(f.Locals, v)
	}
	p.Vars = append(p.Vars, v)
	return v
}

// AddEdge adds the edge from → to with op.
func (p *Program) AddEdge(from, to *Location, op Op, pos Range, text string) *Edge {
	if from.Func != to.Func {
		panic("cfa.AddEdge: edge between functions")
	}
	e := &Edge{ID: len(p.Edges), From: from, To: to, Op: op, Pos: pos, Text: text}
	from.Out = append(from.Out, e)
	to.In = append(to.In, e)
	p.Edges = append(p.Edges, e)
	return e
}

// Finish marks loop heads and drops the guards of standard input reads
// after scanf in a program without scanf (dropStdinGuards). Call it after
// construction.
func (p *Program) Finish() {
	p.dropStdinGuards()
	for _, f := range append([]*Function{p.Init}, p.Funcs...) {
		markLoopHeads(f)
	}
	if p.byName == nil {
		p.byName = map[string]*Function{}
	}
	for _, f := range p.Funcs {
		p.byName[f.Name] = f
	}
}

// markLoopHeads sets LoopHead on the targets of DFS back edges
// (graph.BackEdgeTargets), searching from the entry and then from every
// other location without in-edges, in location order.
func markLoopHeads(f *Function) {
	g := graph.NewAdjacency(len(f.Locs))
	var roots []int
	for _, l := range f.Locs {
		for _, e := range l.Out {
			g.AddEdge(l.Index, e.To.Index)
		}
		if l == f.Entry || len(l.In) == 0 {
			roots = append(roots, l.Index)
		}
	}
	for i, head := range graph.BackEdgeTargets(g, roots...) {
		if head {
			f.Locs[i].LoopHead = true
		}
	}
}

// FuncNames returns the names of the functions with bodies, sorted.
func (p *Program) FuncNames() []string {
	names := make([]string, len(p.Funcs))
	for i, f := range p.Funcs {
		names[i] = f.Name
	}
	sort.Strings(names)
	return names
}
