package witness

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Task describes the verification task a witness belongs to.
type Task struct {
	// Files are the input files as given to the verifier (default:
	// Program.Files).
	Files []string
	// Hashes optionally maps each file to its SHA-256 (hex); files without
	// one are read (or taken from Contents) and hashed.
	Hashes map[string]string
	// Contents optionally maps file names (as in Files and in the CFA's
	// positions) to their text; files without one are read from disk.
	// The writers use the text to find branching keywords and statement
	// starts; a file that cannot be read only makes the witness coarser.
	Contents map[string]string
	// Entry is the entry function (default "main").
	Entry string
	// Specification is the property, as the LTL formula of the .prp file
	// ("G ! call(reach_error())", the default) or the whole line
	// "CHECK( init(main()), LTL(G ! call(reach_error())) )".
	Specification string
	DataModel     cfa.DataModel
	// Producer, Version and Configuration name the tool that produced the
	// witness (defaults "reverify", "unknown", none).
	Producer, Version, Configuration string
	// UUID and Created identify the witness; zero values mean a random
	// UUID and the current time (tests fix them for golden files).
	UUID    string
	Created time.Time
}

// Violation is a counterexample: an error path through Program with the
// values of its nondeterministic inputs, in the order they are read.
type Violation struct {
	Program *cfa.Program
	Path    []cfa.Step
	Inputs  []results.Input
	Task    Task
	// Memory, when not empty, is the violated memory-safety property
	// ("valid-deref", "valid-free", "valid-memtrack",
	// "valid-memcleanup"): the path's last step violates it (no error
	// function is called), the witness states "G <Memory>" as SV-COMP
	// specifies for memory safety, and the reproducer is built with
	// AddressSanitizer, which reports the error.
	Memory string
	// Property, when not nil, is the property the path violates; the
	// reproducer exits with reproduce.ReachedExitCode only when a run
	// reaches that assertion. Without it the property is the one of spec.Properties
	// whose error call (through the wrapper call, for a wrapper's) the
	// path's target is.
	Property *spec.Property
	// HeapInit, when not nil, gives the initial bytes of blocks allocated
	// along the path without initial contents, by allocation ordinal
	// (malloc, calloc, alloca counted from 1 as engine/interp counts
	// them; smt.PathResult.HeapInit): the reproducer of a contract check
	// fills its fresh objects with them (else with zeros).
	HeapInit map[int][]byte
}

// Trace is a Violation as the writers see it: this package's witness
// writers and the reproducer of engine/witness/reproduce.
type Trace struct {
	Violation *Violation
	// Files are the input files (Task.Files, else Program.Files).
	Files []string
	// Inputs are the violation's inputs by step.
	Inputs map[int]results.Input
	// Depth is the call depth of each step (0 = entry function).
	Depth []int
	// Target is the index of the step calling the error function (for
	// a memory-safety violation, the violating last step), ErrFunc the
	// error function called there.
	Target  int
	ErrFunc string

	c *ctx
}

// NewTrace prepares v for writing: it finds the error call and reads the
// sources (from Task.Contents or disk) as far as they can be read.
func NewTrace(v *Violation) (*Trace, error) {
	c, err := newCtx(v, false)
	if err != nil {
		return nil, err
	}
	return &Trace{Violation: v, Files: c.order, Inputs: c.inputs, Depth: c.depth, Target: c.target, ErrFunc: c.errFunc, c: c}, nil
}

// Site returns the value site of step i, if an input was read there.
func (t *Trace) Site(i int) (ValueSite, bool) { return t.c.site(i) }

// Code returns the text of the file of p with comments, literals and
// preprocessor lines masked (engine/ctext.Mask) and the offset of p in
// it; ok is false when the file cannot be read or p lies outside it.
func (t *Trace) Code(p cfa.Pos) (code []byte, off int, ok bool) {
	f := t.c.file(p.File)
	off, ok = f.offset(p)
	if !ok {
		return nil, 0, false
	}
	return f.code, off, true
}

// ctx is what the writers share: the violation, the loaded sources and the
// facts derived from the path.
type ctx struct {
	v       *Violation
	files   map[string]*srcFile // by name; nil entries: unreadable
	order   []string            // input files
	hashes  map[string]string
	inputs  map[int]results.Input // by step
	funcs   []string              // function containing each step's edge
	depth   []int                 // call depth of each step (0 = entry function)
	target  int                   // index of the step calling the error function
	errFunc string                // the error function called there
}

func newCtx(v *Violation, needHashes bool) (*ctx, error) {
	if v == nil || v.Program == nil {
		return nil, errors.New("witness: no program")
	}
	c := &ctx{v: v, files: map[string]*srcFile{}, hashes: map[string]string{}, inputs: map[int]results.Input{}}
	c.order = v.Task.Files
	if len(c.order) == 0 {
		c.order = v.Program.Files
	}
	if len(c.order) == 0 {
		return nil, errors.New("witness: no input files")
	}
	for _, name := range c.order {
		f := c.file(name)
		if h := v.Task.Hashes[name]; h != "" {
			c.hashes[name] = h
			continue
		}
		if f == nil {
			if needHashes {
				return nil, fmt.Errorf("witness: cannot hash %s: %v", name, c.readErr(name))
			}
			continue
		}
		sum := sha256.Sum256(f.text)
		c.hashes[name] = hex.EncodeToString(sum[:])
	}
	for _, in := range v.Inputs {
		if in.Step >= 0 && in.Step < len(v.Path) {
			c.inputs[in.Step] = in
		}
	}
	c.walk()
	if v.Memory != "" {
		if len(v.Path) == 0 {
			return nil, errors.New("witness: empty path")
		}
		c.target = len(v.Path) - 1
		return c, nil
	}
	t, fn, err := c.findTarget()
	if err != nil {
		return nil, err
	}
	c.target, c.errFunc = t, fn
	return c, nil
}

func (c *ctx) readErr(name string) error {
	_, err := os.ReadFile(name)
	if err == nil {
		err = errors.New("unreadable")
	}
	return err
}

// file returns the source file name, loading it on first use; nil when it
// cannot be read.
func (c *ctx) file(name string) *srcFile {
	if name == "" {
		return nil
	}
	if f, ok := c.files[name]; ok {
		return f
	}
	var f *srcFile
	if s, ok := c.v.Task.Contents[name]; ok {
		f = newSrcFile(name, []byte(s))
	} else if b, err := os.ReadFile(name); err == nil {
		f = newSrcFile(name, b)
	}
	c.files[name] = f
	return f
}

// walk records the function and call depth of every step.
func (c *ctx) walk() {
	path := c.v.Path
	c.funcs = make([]string, len(path))
	c.depth = make([]int, len(path))
	var stack []string
	cur := ""
	depth := 0
	for i, s := range path {
		switch s.Kind {
		case cfa.Enter:
			if s.Edge != nil {
				cur = s.Edge.From.Func.Name
			}
			c.funcs[i], c.depth[i] = cur, depth
			stack = append(stack, cur)
			if s.Callee != nil {
				cur = s.Callee.Name
			}
			if s.Edge != nil {
				depth++
			}
		case cfa.Leave:
			if len(stack) > 0 {
				cur = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
			if depth > 0 {
				depth--
			}
			c.funcs[i], c.depth[i] = cur, depth
		default:
			if s.Edge != nil {
				cur = s.Edge.From.Func.Name
			}
			c.funcs[i], c.depth[i] = cur, depth
		}
	}
}

var callRE = regexp.MustCompile(`call\(\s*([A-Za-z_]\w*)\s*\(\s*\)\s*\)`)

// SpecErrorFuncs returns the functions f of the "call(f())" that the
// specification s names.
func SpecErrorFuncs(s string) map[string]bool {
	funcs := map[string]bool{}
	for _, m := range callRE.FindAllStringSubmatch(s, -1) {
		funcs[m[1]] = true
	}
	return funcs
}

// errorFuncs returns the functions whose call violates the specification,
// in order of preference.
func (c *ctx) errorFuncs() []map[string]bool {
	sets := []map[string]bool{}
	if m := callRE.FindAllStringSubmatch(c.v.Task.Specification, -1); len(m) > 0 {
		s := map[string]bool{}
		for _, x := range m {
			s[x[1]] = true
		}
		sets = append(sets, s)
	}
	return append(sets, spec.SVCompErrorFuncs, spec.ErrorFuncs)
}

// findTarget returns the first step calling an error function: the
// violation. The steps after it (inside the error function) do not matter.
func (c *ctx) findTarget() (int, string, error) {
	for _, set := range c.errorFuncs() {
		for i, s := range c.v.Path {
			if s.Edge == nil || s.Kind == cfa.Leave {
				continue
			}
			if call, ok := s.Edge.Op.(*cfa.Call); ok && set[call.Fn] {
				return i, call.Fn, nil
			}
		}
	}
	return 0, "", errors.New("witness: the path calls no error function (reach_error, __VERIFIER_error, __assert_fail)")
}

// SpecFormula returns the LTL formula of the specification.
func SpecFormula(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "G ! call(reach_error())"
	}
	if i := strings.Index(s, "LTL("); i >= 0 {
		depth := 0
		for j := i + 3; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return strings.TrimSpace(s[i+4 : j])
				}
			}
		}
	}
	return s
}

// formula returns the LTL formula the violation witness states: the
// task's, unless the path's error call (c.errFunc) is not among the
// functions it names: then "G ! call(f())" for the function f called.
// That is the case of an assert() property checked under the default
// specification: its path ends in __assert_fail, and a witness claiming
// G ! call(reach_error()) would describe no violation of its own
// specification (validators, ours included, reject it).
func (c *ctx) formula() string {
	if c.v.Memory != "" {
		return "G " + c.v.Memory
	}
	f := SpecFormula(c.v.Task.Specification)
	for _, m := range callRE.FindAllStringSubmatch(f, -1) {
		if m[1] == c.errFunc {
			return f
		}
	}
	return "G ! call(" + c.errFunc + "())"
}

// checkLine returns the whole SV-COMP specification line with formula().
func (c *ctx) checkLine() string {
	line := specCheck(c.v.Task.Specification, c.v.Task.Entry)
	if old, f := SpecFormula(c.v.Task.Specification), c.formula(); f != old {
		line = strings.Replace(line, old, f, 1)
	}
	return line
}

// specCheck returns the whole SV-COMP specification line.
func specCheck(s, entry string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "CHECK") {
		return s
	}
	if entry == "" {
		entry = "main"
	}
	return fmt.Sprintf("CHECK( init(%s()), LTL(%s) )", entry, SpecFormula(s))
}

func (c *ctx) producer() (string, string) {
	name, version := c.v.Task.Producer, c.v.Task.Version
	if name == "" {
		name = "reverify"
	}
	if version == "" {
		version = "unknown"
	}
	return name, version
}

func (c *ctx) created() string {
	t := c.v.Task.Created
	if t.IsZero() {
		t = time.Now()
	}
	return t.Format(time.RFC3339)
}

func (c *ctx) uuid() string {
	if c.v.Task.UUID != "" {
		return c.v.Task.UUID
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// ValueSite describes a step that stores an input value.
type ValueSite struct {
	In   results.Input
	T    *cfa.Type
	LHS  cfa.Expr // the lvalue stored into (nil: not stored)
	Fn   string   // the function called (nondet or extern), "" for Decl
	Kind SiteKind
}

// SiteKind says where an input value comes from.
type SiteKind uint8

const (
	SiteNondet SiteKind = iota // __VERIFIER_nondet_* call or input function (cfa.IsInputFunc) (Havoc)
	SiteUninit                 // Decl of a local
	SiteExtern                 // Intra call of an external function
	SiteOther                  // volatile read, unsupported construct, …
)

// site returns the value site of step i, if an input was read there.
func (c *ctx) site(i int) (ValueSite, bool) {
	in, ok := c.inputs[i]
	if !ok {
		return ValueSite{}, false
	}
	s := c.v.Path[i]
	if s.Edge == nil {
		return ValueSite{}, false
	}
	vs := ValueSite{In: in, T: in.Type, Kind: SiteOther}
	switch op := s.Edge.Op.(type) {
	case *cfa.Havoc:
		vs.LHS = op.LHS
		if cfa.NondetFunc(op.Source) || cfa.IsInputFunc(op.Source) {
			vs.Kind, vs.Fn = SiteNondet, op.Source
		}
	case *cfa.Decl:
		vs.LHS, vs.Kind = &cfa.VarRef{Var: op.Var}, SiteUninit
	case *cfa.Call:
		if s.Kind != cfa.Intra {
			return ValueSite{}, false
		}
		vs.LHS, vs.Fn, vs.Kind = op.Result, op.Fn, SiteExtern
		if cfa.NondetFunc(op.Fn) {
			vs.Kind = SiteNondet
		}
		if _, ok := cfa.EnvName(c.v.Program, op); ok {
			// getenv reads many inputs (a string), no one value a
			// waypoint could fix: the validator solves for them
			vs.Kind = SiteOther
		}
	default:
		return ValueSite{}, false
	}
	if vs.T == nil && vs.LHS != nil {
		vs.T = vs.LHS.Type()
	}
	if vs.T == nil {
		return ValueSite{}, false
	}
	return vs, true
}

// plainVar returns the source-level variable that e names, if e is a
// variable of the program (not a temporary or a return slot).
func plainVar(e cfa.Expr) (*cfa.Var, bool) {
	r, ok := e.(*cfa.VarRef)
	if !ok || r.Var.Temp || r.Var.Orig == "" || strings.HasPrefix(r.Var.Orig, "__") {
		return nil, false
	}
	return r.Var, true
}

// nextPositioned returns the next step after i in the same call (not in
// callees) whose edge has a position; -1 if the call returns first or the
// path ends.
func (c *ctx) nextPositioned(i int) int {
	d := c.depth[i]
	for j := i + 1; j < len(c.v.Path); j++ {
		s := c.v.Path[j]
		switch {
		case c.depth[j] < d:
			return -1
		case c.depth[j] > d || s.Kind == cfa.Leave:
			continue
		}
		if s.Edge != nil && s.Edge.Pos.Start.Line > 0 {
			return j
		}
	}
	return -1
}

// assumptionAt returns where an assumption about the variable step i
// stored is evaluated: the start of the next statement, when the path
// executes it next.
func (c *ctx) assumptionAt(i int) (cfa.Pos, bool) {
	e := c.v.Path[i].Edge
	f := c.file(e.Pos.Start.File)
	if f == nil {
		return cfa.Pos{}, false
	}
	_, hi, ok := f.span(e.Pos)
	if !ok {
		return cfa.Pos{}, false
	}
	next, ok := f.nextStatement(hi)
	if !ok {
		return cfa.Pos{}, false
	}
	if j := c.nextPositioned(i); j >= 0 {
		ne := c.v.Path[j].Edge
		if ne.Pos.Start.File != f.name {
			return cfa.Pos{}, false
		}
		off, ok := f.offset(ne.Pos.Start)
		if !ok || off < next {
			return cfa.Pos{}, false
		}
	}
	return f.pos(next), true
}

// callParen returns the position of the right parenthesis closing the
// arguments of the call of fn at the end of edge e.
func (c *ctx) callParen(e *cfa.Edge, fn string) (cfa.Pos, bool) {
	return c.file(e.Pos.Start.File).edgeCallParen(e, fn)
}

// edgeCallParen returns the position of the right parenthesis closing
// the arguments of the call of fn at the end of edge e; f may be nil (no
// source text).
func (f *srcFile) edgeCallParen(e *cfa.Edge, fn string) (cfa.Pos, bool) {
	if f == nil {
		return cfa.Pos{}, false
	}
	lo, hi, ok := f.span(e.Pos)
	if !ok {
		return cfa.Pos{}, false
	}
	off, ok := f.callCloseParen(lo, hi, fn)
	if !ok {
		return cfa.Pos{}, false
	}
	return f.pos(off), true
}

// branch describes the branching decided by an assume step.
type branch struct {
	ctx      *branchCtx
	kw       cfa.Pos
	value    bool
	decisive bool
}

// branchOf resolves assume step i to its branching statement. ok is false
// for conditions that belong to no if, while, for or switch (or that
// cannot be matched against the source).
func (c *ctx) branchOf(i int) (branch, bool) {
	e := c.v.Path[i].Edge
	a, isAssume := e.Op.(*cfa.Assume)
	if !isAssume {
		return branch{}, false
	}
	f := c.file(e.Pos.Start.File)
	if f == nil {
		return branch{}, false
	}
	lo, hi, ok := f.span(e.Pos)
	if !ok {
		return branch{}, false
	}
	lo, hi = f.trimSpan(lo, hi)
	b := f.enclosingBranch(lo)
	if b == nil {
		return branch{}, false
	}
	br := branch{ctx: b, kw: f.pos(b.kwOff)}
	if b.tree == nil {
		return br, true
	}
	atom := b.tree.find(lo, hi)
	if atom == nil {
		return br, true
	}
	br.value, br.decisive = outcome(atom, a.Truth)
	return br, true
}

// constantOK reports whether v of type t can be written as a constant.
func constantOK(t *cfa.Type, v uint64) bool {
	switch t.Kind {
	case cfa.Int, cfa.Bool:
		return true
	case cfa.Pointer:
		return v == 0
	}
	return false
}

// CValue writes v of type t as a C constant expression.
func CValue(t *cfa.Type, v uint64) string {
	switch t.Kind {
	case cfa.Bool:
		if v != 0 {
			return "1"
		}
		return "0"
	case cfa.Pointer:
		return "0"
	}
	w := t.Width()
	if w <= 0 || w > 64 {
		w = 64
	}
	v = cfa.Truncate(v, w)
	if t.IsSigned() {
		x := cfa.SignExtend(v, w)
		if x == -1<<63 {
			return "(-9223372036854775807LL - 1)"
		}
		return fmt.Sprint(x)
	}
	if v > 1<<31-1 {
		return fmt.Sprintf("%dU", v)
	}
	return fmt.Sprint(v)
}

// CType spells t as a C type with the same ABI.
func CType(t *cfa.Type) (string, bool) {
	switch t.Kind {
	case cfa.Bool:
		return "_Bool", true
	case cfa.Pointer:
		return "void *", true
	case cfa.Float:
		switch t.Bits {
		case 32:
			return "float", true
		case 64:
			return "double", true
		}
		return "long double", true
	case cfa.Int:
		u := "unsigned "
		if t.Signed {
			u = ""
		}
		switch t.Bits {
		case 8:
			if t.Signed {
				return "signed char", true
			}
			return "unsigned char", true
		case 16:
			return u + "short", true
		case 32:
			return u + "int", true
		case 64:
			return u + "long long", true
		case 128:
			return u + "__int128", true
		}
	}
	return "", false
}

// acslValue writes v of type t as an ACSL (mathematical) integer.
func acslValue(t *cfa.Type, v uint64) string {
	switch t.Kind {
	case cfa.Bool:
		if v != 0 {
			return "1"
		}
		return "0"
	case cfa.Pointer:
		return "0"
	}
	w := t.Width()
	if w <= 0 || w > 64 {
		w = 64
	}
	v = cfa.Truncate(v, w)
	if t.IsSigned() {
		return fmt.Sprint(cfa.SignExtend(v, w))
	}
	return fmt.Sprint(v)
}
