package pdg

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/ctext"
	"github.com/reverify/reverify/engine/graph"
)

// hashVersion names the format of Normalized; change it whenever the
// format changes, so old cache entries miss (2: calls without a body
// may write every escaped object, so verdicts cached before are stale).
const hashVersion = "reverify-slice/2"

// Hash returns the slice hash: the hex SHA-256 of Normalized(extra...).
// Equal hashes mean equal normalised slices; the caller adds to extra
// whatever else the verdict depends on (data model, entry function,
// specification, engine version and configuration, which callees have
// bodies), as separate strings.
func (s *Slice) Hash(extra ...string) string {
	sum := sha256.Sum256([]byte(s.Normalized(extra...)))
	return hex.EncodeToString(sum[:])
}

// Normalized returns the text the slice hash is computed from (for
// debugging a changed hash). It holds
//
//   - the format version and the extra strings, quoted;
//
//   - for each function with relevant edges, ordered by name: its name and
//     typed signature, then its relevant edges in control-flow order (the
//     reverse post-order of the function's locations from the entry,
//     unreachable locations after in index order; a location's edges in
//     CFA order), each as
//
//     c1 -> c2  x#0:i32 = (x#0:i32 + 1:i32):i32  |x=x+1
//
//     where c1 and c2 are the classes of the edge's locations after
//     contracting every irrelevant edge of the function (c0 is the class of
//     the entry), the operation is printed with every sub-expression typed
//     and local variables renamed canonically (parameters p0, p1, …, the
//     return variable ret, others their source name with an ordinal of
//     first appearance, temporaries $#k), and the source text follows
//     with comments and white space removed (but between words); criteria
//     are marked
//     "criterion", the Via call "via";
//
//   - the classes holding the exit and Terminal locations;
//
//   - the layout (fields, types, offsets, size) of every struct and union
//     type mentioned.
//
// Line numbers, columns, file names, location and edge numbers, and
// temporary numbering do not enter (nor the __FILE__ and __LINE__
// arguments assert.h passes to __assert_fail), so edits outside the slice (other
// functions, code moved up or down, whitespace, comments) keep the text;
// any change to a relevant operation, its types, its source text or the
// control structure between relevant edges changes it.
func (s *Slice) Normalized(extra ...string) string {
	h := &hasher{types: map[string][]string{}, typeIDs: map[*cfa.Type]string{}}
	var b strings.Builder
	b.WriteString(hashVersion + "\n")
	for _, x := range extra {
		b.WriteString("extra " + strconv.Quote(x) + "\n")
	}
	crit := map[*cfa.Edge]bool{}
	for _, e := range s.Criteria {
		crit[e] = true
	}
	for _, f := range s.Funcs() {
		h.function(&b, s, f, crit)
	}
	h.writeTypes(&b)
	return b.String()
}

type hasher struct {
	types   map[string][]string // struct name → distinct layouts
	typeIDs map[*cfa.Type]string
	names   map[*cfa.Var]string
	ordinal map[string]int
	f       *cfa.Function
	edge    *cfa.Edge // the edge being printed
}

func (h *hasher) function(b *strings.Builder, s *Slice, f *cfa.Function, crit map[*cfa.Edge]bool) {
	h.names = map[*cfa.Var]string{}
	h.ordinal = map[string]int{}
	h.f = f
	for i, p := range f.Params {
		h.names[p] = "p" + strconv.Itoa(i)
	}
	if f.RetVar != nil {
		h.names[f.RetVar] = "ret"
	}
	static := ""
	if f.Static {
		static = "static "
	}
	fmt.Fprintf(b, "func %s%s %s\n", static, f.Name, h.typ(f.T))

	// Classes of locations joined by irrelevant edges.
	n := len(f.Locs)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, l := range f.Locs {
		for _, e := range l.Out {
			if !s.Contains(e) {
				parent[find(e.From.Index)] = find(e.To.Index)
			}
		}
	}
	// Location order: reverse post-order, then the rest.
	order := graph.ReversePostOrder(f, f.Entry.Index)
	seen := make([]bool, n)
	for _, l := range order {
		seen[l] = true
	}
	for i := range n {
		if !seen[i] {
			order = append(order, i)
		}
	}
	class := map[int]int{find(f.Entry.Index): 0}
	classOf := func(l *cfa.Location) int {
		r := find(l.Index)
		c, ok := class[r]
		if !ok {
			c = len(class)
			class[r] = c
		}
		return c
	}
	for _, li := range order {
		for _, e := range f.Locs[li].Out {
			if !s.Contains(e) {
				continue
			}
			from, to := classOf(e.From), classOf(e.To)
			h.edge = e
			fmt.Fprintf(b, "  c%d -> c%d  %s  |%s", from, to, h.op(e.Op), ctext.Normalize(e.Text, ""))
			if crit[e] {
				b.WriteString("  criterion")
			}
			if e == s.Via {
				b.WriteString("  via")
			}
			b.WriteByte('\n')
		}
	}
	if c, ok := class[find(f.Exit.Index)]; ok {
		fmt.Fprintf(b, "  exit c%d\n", c)
	}
	var terms []int
	for _, l := range f.Locs {
		if l.Terminal {
			if c, ok := class[find(l.Index)]; ok {
				terms = append(terms, c)
			}
		}
	}
	sort.Ints(terms)
	for i, c := range terms {
		if i == 0 || terms[i-1] != c {
			fmt.Fprintf(b, "  terminal c%d\n", c)
		}
	}
}

// name returns the canonical name of v in the current function.
func (h *hasher) name(v *cfa.Var) string {
	if v.Global || v.Func == "" {
		return "g:" + v.Name
	}
	if n, ok := h.names[v]; ok {
		return n
	}
	key := v.Orig
	if v.Temp || key == "" {
		key = "$"
	}
	k := h.ordinal[key]
	h.ordinal[key] = k + 1
	n := key + "#" + strconv.Itoa(k)
	h.names[v] = n
	return n
}

// assertFuncs are the functions assert.h calls on failure; their __FILE__
// and __LINE__ arguments must not make the hash depend on positions.
var assertFuncs = map[string]bool{"__assert_fail": true, "__assert_perror_fail": true, "__assert": true, "__assert_rtn": true}

// positional reports whether x is the line or the file name of edge e (an
// argument that __LINE__ or __FILE__ produced).
func positional(x cfa.Expr, e *cfa.Edge) bool {
	for {
		switch y := x.(type) {
		case *cfa.Cast:
			x = y.X
			continue
		case *cfa.AddrOf:
			x = y.X
			continue
		case *cfa.Index:
			x = y.X
			continue
		case *cfa.Const:
			return e.Pos.Start.Line > 0 && y.Int64() == int64(e.Pos.Start.Line)
		case *cfa.StringLit:
			f := e.Pos.Start.File
			return f != "" && (y.Val == f || y.Val == path.Base(f))
		}
		return false
	}
}

func (h *hasher) op(op cfa.Op) string {
	switch op := op.(type) {
	case *cfa.Decl:
		return "decl " + h.name(op.Var) + ":" + h.typ(op.Var.T)
	case *cfa.Assign:
		return h.expr(op.LHS) + " = " + h.expr(op.RHS)
	case *cfa.Havoc:
		return h.expr(op.LHS) + " = nondet " + op.Source
	case *cfa.Assume:
		if op.Truth {
			return "[" + h.expr(op.Cond) + "]"
		}
		return "[!" + h.expr(op.Cond) + "]"
	case *cfa.Call:
		var b strings.Builder
		b.WriteString("call ")
		if op.Result != nil {
			b.WriteString(h.expr(op.Result) + " = ")
		}
		if op.Fn != "" {
			b.WriteString(op.Fn)
		} else {
			b.WriteString("(*" + h.expr(op.FnPtr) + ")")
		}
		b.WriteByte('(')
		for i, a := range op.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if assertFuncs[op.Fn] && positional(a, h.edge) {
				b.WriteString("<position>")
				continue
			}
			b.WriteString(h.expr(a))
		}
		b.WriteByte(')')
		return b.String()
	case *cfa.Return:
		if op.X == nil {
			return "return"
		}
		return "return " + h.expr(op.X)
	case *cfa.Noop:
		return "skip " + op.Label
	case *cfa.Unsupported:
		return "unsupported " + op.Construct
	}
	return fmt.Sprintf("%T", op)
}

func (h *hasher) expr(x cfa.Expr) string {
	t := ":" + h.typ(x.Type())
	switch x := x.(type) {
	case *cfa.Const:
		return strconv.FormatUint(x.V, 10) + t
	case *cfa.FloatConst:
		return strconv.FormatFloat(x.V, 'g', -1, 64) + t
	case *cfa.VarRef:
		return h.name(x.Var) + t
	case *cfa.StringLit:
		return strconv.Quote(x.Val) + t
	case *cfa.FuncRef:
		return "&" + x.Name + t
	case *cfa.Unary:
		return "(" + x.Op.String() + h.expr(x.X) + ")" + t
	case *cfa.Binary:
		return "(" + h.expr(x.X) + " " + x.Op.String() + " " + h.expr(x.Y) + ")" + t
	case *cfa.Cast:
		return "(cast " + h.expr(x.X) + ")" + t
	case *cfa.Deref:
		return "(*" + h.expr(x.X) + ")" + t
	case *cfa.AddrOf:
		return "(&" + h.expr(x.X) + ")" + t
	case *cfa.Member:
		st := x.X.Type()
		f := st.Fields[x.Field]
		return fmt.Sprintf("(%s.%s@%d)%s", h.expr(x.X), f.Name, x.Field, t)
	case *cfa.Index:
		return "(" + h.expr(x.X) + "[" + h.expr(x.I) + "])" + t
	}
	return fmt.Sprintf("%T", x)
}

// typ renders t by kind, width and signedness (never by a typedef or
// spelling), structs and unions by name with their layout recorded.
func (h *hasher) typ(t *cfa.Type) string {
	if t == nil {
		return "?"
	}
	switch t.Kind {
	case cfa.Void:
		return "void"
	case cfa.Bool:
		return "bool"
	case cfa.Int:
		if t.Signed {
			return "i" + strconv.Itoa(t.Bits)
		}
		return "u" + strconv.Itoa(t.Bits)
	case cfa.Float:
		return "f" + strconv.Itoa(t.Bits)
	case cfa.Pointer:
		return "*" + strconv.Itoa(t.Bits) + " " + h.typ(t.Elem)
	case cfa.Array:
		return "[" + strconv.FormatInt(t.Len, 10) + "]" + h.typ(t.Elem)
	case cfa.Func:
		var b strings.Builder
		b.WriteString("fn(")
		for i, p := range t.Params {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(h.typ(p))
		}
		if t.Variadic {
			b.WriteString(",...")
		}
		b.WriteString(")" + h.typ(t.Result))
		return b.String()
	case cfa.Struct, cfa.Union:
		return h.record(t)
	}
	return "?"
}

// record returns the name under which struct or union t is listed and
// queues its layout.
func (h *hasher) record(t *cfa.Type) string {
	if id, ok := h.typeIDs[t]; ok {
		return id
	}
	name := t.Name
	if name == "" {
		name = t.Kind.String()
	}
	id := name + "#?"
	h.typeIDs[t] = id // placeholder while the layout is computed
	layout := h.layout(t)
	idx := -1
	for i, l := range h.types[name] {
		if l == layout {
			idx = i
		}
	}
	if idx < 0 {
		idx = len(h.types[name])
		h.types[name] = append(h.types[name], layout)
	}
	id = name + "#" + strconv.Itoa(idx)
	h.typeIDs[t] = id
	return id
}

func (h *hasher) layout(t *cfa.Type) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{size %d align %d", t.Size, t.Align)
	for _, f := range t.Fields {
		fmt.Fprintf(&b, "; %s %s @%d", f.Name, h.typ(f.Type), f.Offset)
		if f.BitWidth > 0 {
			fmt.Fprintf(&b, ":%d:%d", f.BitOffset, f.BitWidth)
		}
	}
	b.WriteString("}")
	return b.String()
}

func (h *hasher) writeTypes(b *strings.Builder) {
	names := make([]string, 0, len(h.types))
	for n := range h.types {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for i, l := range h.types[n] {
			fmt.Fprintf(b, "type %s#%d %s\n", n, i, l)
		}
	}
}

// WriteText writes the slice in a stable text form: per function with
// relevant edges (by name), the relevant edges in location order with
// their source positions.
func (s *Slice) WriteText(w io.Writer, loc LocNamer) error {
	loc = loc.or()
	var b strings.Builder
	for _, f := range s.Funcs() {
		fmt.Fprintf(&b, "func %s\n", f.Name)
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if s.Contains(e) {
					fmt.Fprintf(&b, "  %s %s", shortEdge(e, loc), e.Op)
					if e.Pos.Start.Line > 0 {
						fmt.Fprintf(&b, "  @%d", e.Pos.Start.Line)
					}
					b.WriteByte('\n')
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
