package cfa

import "strings"

// Op is the operation of a CFA edge (seed 000_f76fde50ed4a4828.txt,
// section 2.2: assignments and assumptions; plus declarations, calls,
// returns, nondeterministic assignments, no-ops and unsupported constructs).
type Op interface {
	String() string
	isOp()
}

// Decl declares (allocates) a local variable. Its value is indeterminate
// until assigned: analyses treat it as a nondeterministic value.
// Initialisers are separate Assign edges after the Decl.
type Decl struct{ Var *Var }

// Assign stores RHS into the lvalue LHS. Struct assignments copy the whole
// object.
type Assign struct {
	LHS Expr
	RHS Expr
}

// Havoc stores a nondeterministic value into LHS. Source names its origin:
// the __VERIFIER_nondet_* function called, or "volatile".
type Havoc struct {
	LHS    Expr
	Source string
}

// Assume lets control pass when Cond evaluates to Truth (non-zero for
// true). Assume edges leave a location in complementary pairs sharing Cond.
type Assume struct {
	Cond  Expr
	Truth bool
}

// Call calls a function: Fn by name, or through the function pointer FnPtr
// when Fn is empty. Args are already evaluated (side-effect free) and
// converted to the parameter types; Result, when not nil, is the lvalue
// receiving the return value. The edge goes from the call site to the
// location where control resumes after the call returns; the callee's CFA
// is entered by the analysis (call stack), not by an edge.
type Call struct {
	Fn     string
	FnPtr  Expr
	Args   []Expr
	Result Expr
	Pos    Pos
}

// Return leaves the function, storing X (converted to the result type)
// into the function's RetVar; X is nil for void functions. Return edges
// lead to the function's exit location.
type Return struct{ X Expr }

// Noop does nothing: joins, labels, empty statements, and edges removed by
// slicing. Label says what it stands for ("skip", "label L", "while").
type Noop struct{ Label string }

// Unsupported stands for a construct the front end cannot translate (inline
// assembly, setjmp, floating-point arithmetic, …). An analysis reaching it
// must give up on the properties it can influence with UNKNOWN naming
// Construct and the edge's position.
type Unsupported struct{ Construct string }

func (*Decl) isOp()        {}
func (*Assign) isOp()      {}
func (*Havoc) isOp()       {}
func (*Assume) isOp()      {}
func (*Call) isOp()        {}
func (*Return) isOp()      {}
func (*Noop) isOp()        {}
func (*Unsupported) isOp() {}

func (o *Decl) String() string   { return "decl " + o.Var.T.String() + " " + o.Var.Name }
func (o *Assign) String() string { return o.LHS.String() + " = " + o.RHS.String() }
func (o *Havoc) String() string  { return o.LHS.String() + " = nondet(" + o.Source + ")" }
func (o *Assume) String() string {
	if o.Truth {
		return "[" + o.Cond.String() + "]"
	}
	return "[!(" + o.Cond.String() + ")]"
}
func (o *Call) String() string {
	var b strings.Builder
	if o.Result != nil {
		b.WriteString(o.Result.String())
		b.WriteString(" = ")
	}
	if o.Fn != "" {
		b.WriteString(o.Fn)
	} else {
		b.WriteString("(*" + o.FnPtr.String() + ")")
	}
	b.WriteString("(")
	for i, a := range o.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.String())
	}
	b.WriteString(")")
	return b.String()
}
func (o *Return) String() string {
	if o.X == nil {
		return "return"
	}
	return "return " + o.X.String()
}
func (o *Noop) String() string {
	if o.Label == "" {
		return "skip"
	}
	return o.Label
}
func (o *Unsupported) String() string { return "unsupported: " + o.Construct }

// ForEachExpr calls f on each top-level expression of op in evaluation
// order (lvalues included: Assign's LHS, Havoc's LHS, Call's Result).
func ForEachExpr(op Op, f func(Expr)) {
	switch op := op.(type) {
	case *Assign:
		f(op.LHS)
		f(op.RHS)
	case *Havoc:
		f(op.LHS)
	case *Assume:
		f(op.Cond)
	case *Call:
		if op.FnPtr != nil {
			f(op.FnPtr)
		}
		for _, a := range op.Args {
			f(a)
		}
		if op.Result != nil {
			f(op.Result)
		}
	case *Return:
		if op.X != nil {
			f(op.X)
		}
	}
}

// Stored is the lvalue op stores into: an Assign's or a Havoc's LHS, a
// Call's Result; nil for the other operations and a call without one.
func Stored(op Op) Expr {
	switch op := op.(type) {
	case *Assign:
		return op.LHS
	case *Havoc:
		return op.LHS
	case *Call:
		if op.Result != nil {
			return op.Result
		}
	}
	return nil
}
