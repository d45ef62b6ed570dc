package reproduce

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// A counterexample that reads volatile objects gets their values from the
// reproducer too: each volatile global v the path reads is replaced, in
// the program's files only, by an accessor, through a macro on the
// compiler's command line (BuildFlags):
//
//	-Dv=(*rv_volatile_0())
//
// so that every evaluation of v calls rv_volatile_0, which stores the
// counterexample's next value of v in a slot of v's type (a _Bool's byte
// as it is, any of 256 values, as the SMT encoding reads it) and returns
// the slot's address; the declaration `volatile int v;` becomes the
// declaration of a function returning a pointer to volatile int. The
// harness #undefs the macros before its own code. Each variable has its
// own queue of values, so the order in which gcc evaluates reads of
// different variables does not matter.
//
// An accessor cannot tell a read from a write, so the reproducer is
// refused (with the reason) when the values could go to the wrong
// evaluation: the path writes v or takes its address, v is a local or
// has an initialiser (the macro breaks its declaration), another
// variable has the same name, or one expression reads v twice with
// different values (C leaves their order unspecified; see unsequenced).

// volatiles are the volatile objects a reproducer supplies.
type volatiles struct {
	vars  []*volatileVar
	byVar map[*cfa.Var]*volatileVar
}

type volatileVar struct {
	v      *cfa.Var
	name   string   // the source name (the macro)
	ctype  string   // the slot's C type
	values []uint64 // in read order
	at     []string // positions of the reads
	steps  []int
}

// addVolatile records the input in (Source "volatile name") or says why
// a reproducer cannot supply it.
func (c *ctx) addVolatile(vols *volatiles, in results.Input, name string) error {
	at := "?"
	var step *cfa.Step
	if in.Step >= 0 && in.Step < len(c.v.Path) {
		step = &c.v.Path[in.Step]
		if step.Edge != nil {
			at = step.Edge.Pos.Start.String()
		}
	}
	cannot := func(format string, a ...any) error {
		return fmt.Errorf("witness: counterexample depends on a read of volatile %s at %s that a reproducer cannot supply: %s", name, at, fmt.Sprintf(format, a...))
	}
	if step == nil || step.Edge == nil {
		return cannot("the read is not on the path")
	}
	var x *cfa.Var
	for _, r := range opVars(step.Edge.Op) {
		if r.Volatile && r.Name == name {
			x = r
		}
	}
	if x == nil {
		return cannot("the step does not name it")
	}
	vv := vols.byVar[x]
	if vv == nil {
		var err error
		if vv, err = c.newVolatile(x, cannot); err != nil {
			return err
		}
		vv.name = x.Orig
		vols.byVar[x] = vv
		vols.vars = append(vols.vars, vv)
	}
	n := len(vv.values)
	if n > 0 && vv.values[n-1] != in.Bits && c.unsequenced(vv.steps[n-1], in.Step) {
		return cannot("it is read twice with different values in one expression, in an order C leaves unspecified")
	}
	vv.values = append(vv.values, in.Bits)
	vv.at = append(vv.at, at)
	vv.steps = append(vv.steps, in.Step)
	return nil
}

// unsequenced reports whether the reads at steps i <= j may belong to one
// expression whose evaluation order C leaves open: the same step, or two
// edges of the same line with only steps of that line between them in
// their function (callees aside), as the temporaries of `g(v) + h(v)`,
// unless the first is a condition that C sequences before the second
// (conditioned).
func (c *ctx) unsequenced(i, j int) bool {
	if i == j {
		return true
	}
	p := c.v.Path
	a, b := p[i].Edge, p[j].Edge
	if a == nil || b == nil || a == b || a.Pos.Start.File != b.Pos.Start.File || a.Pos.Start.Line != b.Pos.Start.Line {
		return false
	}
	if c.conditioned(i, j) {
		return false
	}
	for k := i + 1; k < j; k++ {
		if c.depth[k] == c.depth[i] && p[k].Edge != nil && p[k].Edge.Pos.Start.Line != a.Pos.Start.Line {
			return false
		}
	}
	return true
}

// conditioned reports whether the read at step i, a condition (an
// operand of &&, || or ?: that the front end made a branch), is
// sequenced before the read at step j of the same line: j's edge starts
// right of i's, and only conditions lie between them in their function
// (callees aside). The front ends evaluate those operators first, as
// branches, and keep a value they compute in a temporary: an edge that
// lies between, or an edge starting left of the condition, is the rest
// of an enclosing expression whose operands C leaves unsequenced
// (`((a ^ v) >> 9) + (x || (k << (v & 63)))` reads the right v first).
func (c *ctx) conditioned(i, j int) bool {
	p := c.v.Path
	a, b := p[i].Edge, p[j].Edge
	if _, ok := a.Op.(*cfa.Assume); !ok || b.Pos.Start.Col <= a.Pos.Start.Col {
		return false
	}
	for k := i + 1; k < j; k++ {
		if c.depth[k] != c.depth[i] || p[k].Edge == nil {
			continue
		}
		if _, ok := p[k].Edge.Op.(*cfa.Assume); !ok {
			return false
		}
	}
	return true
}

// newVolatile checks that x can be replaced by an accessor.
func (c *ctx) newVolatile(x *cfa.Var, cannot func(string, ...any) error) (*volatileVar, error) {
	p := c.v.Program
	switch {
	case !x.Global || strings.Contains(x.Name, "::"):
		return nil, cannot("it is a local variable")
	case x.AddrTaken:
		return nil, cannot("its address is taken")
	case !x.T.IsScalar():
		return nil, cannot("it is not a scalar")
	case x.Orig == "":
		return nil, cannot("it has no source name")
	}
	for _, y := range p.Vars {
		if y != x && (y.Orig == x.Orig || y.Name == x.Orig) {
			return nil, cannot("another variable is also named %s", x.Orig)
		}
	}
	if p.Func(x.Orig) != nil || p.Externals != nil && p.Externals[x.Orig] != nil {
		return nil, cannot("a function is also named %s", x.Orig)
	}
	ct, ok := witness.CType(x.T)
	if !ok || x.T.Kind == cfa.Float {
		return nil, cannot("its type %s", x.T)
	}
	// The path must not write it: an accessor call would take a value.
	for i, s := range c.v.Path {
		if i > c.target || s.Edge == nil || s.Edge.From.Func == p.Init {
			continue
		}
		if writesVar(s, x) {
			return nil, cannot("the path writes it at %s, and an accessor cannot tell writes from reads", s.Edge.Pos.Start)
		}
	}
	// Its declaration must have no initialiser.
	for _, l := range p.Init.Locs {
		for _, e := range l.Out {
			d, ok := e.Op.(*cfa.Decl)
			if !ok || d.Var != x {
				continue
			}
			code, off, ok := c.tr.Code(e.Pos.Start)
			if !ok {
				return nil, cannot("its declaration at %s cannot be read", e.Pos.Start)
			}
			end := off
			for end < len(code) && code[end] != ';' {
				end++
			}
			if strings.ContainsRune(string(code[off:end]), '=') {
				return nil, cannot("its declaration at %s has an initialiser", e.Pos.Start)
			}
		}
	}
	return &volatileVar{v: x, ctype: ct}, nil
}

// writesVar reports whether step s stores into x.
func writesVar(s cfa.Step, x *cfa.Var) bool {
	switch op := s.Edge.Op.(type) {
	case *cfa.Assign:
		return isVar(op.LHS, x)
	case *cfa.Havoc:
		return isVar(op.LHS, x)
	case *cfa.Call:
		return isVar(op.Result, x)
	}
	return false
}

// opVars returns the variables op mentions.
func opVars(op cfa.Op) []*cfa.Var {
	var out []*cfa.Var
	add := func(e cfa.Expr) {
		if e != nil {
			out = append(out, cfa.Vars(e)...)
		}
	}
	switch op := op.(type) {
	case *cfa.Assign:
		add(op.LHS)
		add(op.RHS)
	case *cfa.Havoc:
		add(op.LHS)
	case *cfa.Assume:
		add(op.Cond)
	case *cfa.Call:
		add(op.FnPtr)
		for _, a := range op.Args {
			add(a)
		}
		add(op.Result)
	case *cfa.Return:
		add(op.X)
	}
	return out
}

// buildFlagPrefix starts a harness line that gives one compiler flag.
const buildFlagPrefix = "// reverify-build-flag: "

// flags returns the compiler flags that replace the volatile objects.
func (vols *volatiles) flags() []string {
	var out []string
	for i, vv := range vols.vars {
		out = append(out, fmt.Sprintf("-D%s=(*rv_volatile_%d())", vv.name, i))
	}
	return out
}

// writeHead writes the flags as harness lines and #undefs the macros.
func (vols *volatiles) writeHead(b *strings.Builder) {
	if len(vols.vars) == 0 {
		return
	}
	b.WriteString("/* The program's volatile objects are replaced by accessors (see the\n * flags below, which BuildFlags reads); the harness itself uses no macro. */\n")
	for _, f := range vols.flags() {
		b.WriteString(buildFlagPrefix + f + "\n")
	}
	for _, vv := range vols.vars {
		fmt.Fprintf(b, "#undef %s\n", vv.name)
	}
	b.WriteString("\n")
}

// writeAccessors defines the accessors.
func (vols *volatiles) writeAccessors(b *strings.Builder) {
	for i, vv := range vols.vars {
		fmt.Fprintf(b, "\n/* volatile %s: each evaluation reads the counterexample's next value. */\n", vv.name)
		fmt.Fprintf(b, "static const unsigned long long rv_volatile_%d_values[] = {\n", i)
		for j, x := range vv.values {
			fmt.Fprintf(b, "\t%#xULL, /* %s: %s */\n", x, vv.at[j], witness.CValue(vv.v.T, x))
		}
		store := fmt.Sprintf("rv_volatile_%d_slot = (%s)", i, vv.ctype)
		switch vv.v.T.Kind {
		case cfa.Pointer:
			store = fmt.Sprintf("rv_volatile_%d_slot = (void *)(unsigned long)", i)
		case cfa.Bool:
			// The byte of a volatile _Bool may hold any of its 256
			// values (the encoder's input), which a conversion to _Bool
			// would turn into 1: the byte is stored as it is, and gcc
			// reads it with a zero extension.
			store = fmt.Sprintf("*(volatile unsigned char *)&rv_volatile_%d_slot = (unsigned char)", i)
		}
		fmt.Fprintf(b, `};
static volatile %[2]s rv_volatile_%[1]d_slot;

void *rv_volatile_%[1]d(void);

void *rv_volatile_%[1]d(void)
{
	static unsigned long next;
	if (next < %[3]d) {
		%[4]srv_volatile_%[1]d_values[next];
	} else {
		fprintf(stderr, "reverify-reproducer: note: volatile %[5]s read after the %[3]d recorded value(s); it reads 0\n");
		rv_volatile_%[1]d_slot = 0;
	}
	next++;
	return (void *)&rv_volatile_%[1]d_slot;
}
`, i, vv.ctype, len(vv.values), store, vv.name)
	}
}

// BuildFlags returns the compiler flags a reproducer needs (to replace
// the program's volatile objects by accessors), read from its lines
// starting "// reverify-build-flag: ". Pass them to BuildLine.
func BuildFlags(reproducer string) []string {
	var out []string
	for _, l := range strings.Split(reproducer, "\n") {
		if f, ok := strings.CutPrefix(l, buildFlagPrefix); ok {
			out = append(out, strings.TrimSpace(f))
		}
	}
	return out
}
