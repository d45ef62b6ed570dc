package cfa

import (
	"sort"
	"strings"
)

// ExternKind says what a call of a function without a body may do; every
// consumer (the value and symbolic analyses, the SMT path encoding, the
// concrete interpreter, the PDG) follows it. The rule (DESIGN.md, "What
// the program does not contain"): a function without a body may read and
// write every object with external linkage, every object whose address
// escaped, everything reachable from its pointer arguments, and may call
// every function whose address escaped; its result is arbitrary.
type ExternKind uint8

// Kinds of functions without a body.
const (
	// ExternUnmodelled follows the rule above. Consumers over-approximate
	// what it writes by UnmodelledWrites and make TRUE impossible when it
	// may call back a function with a body (Program.EscapedFuncs).
	ExternUnmodelled ExternKind = iota
	// ExternNoEffect: error, exit and output functions, which change no
	// memory the program can read (printf's %n is not modelled, nor the
	// buffer inside a FILE that fprintf, fputs, fputc and fflush write),
	// and srand and srandom, whose seed only chooses among the values of
	// rand and random, every one of which their model admits
	// (InputCall).
	ExternNoEffect
	// ExternNondet: __VERIFIER_nondet_* and CBMC's nondet_* (NondetFunc),
	// an arbitrary value.
	ExternNondet
	// ExternAssume: __VERIFIER_assume, returns only if its argument is
	// non-zero.
	ExternAssume
	// ExternModelled: a C library function with a model (LibraryModels);
	// a consumer without a model of its own for it treats it as
	// ExternUnmodelled.
	ExternModelled
	// ExternPure: declared side-effect-free by the user
	// (Program.AssumePure, `.reverify.yml` assume.pure, --assume-pure):
	// writes nothing, calls nothing, returns an arbitrary value.
	ExternPure
)

var externKindNames = [...]string{"unmodelled", "no effect", "nondet", "assume", "modelled", "assumed pure"}

func (k ExternKind) String() string { return externKindNames[k] }

// noEffectFuncs write nothing the program can read.
var noEffectFuncs = map[string]bool{
	"reach_error": true, "__VERIFIER_error": true, "abort": true, "exit": true, "_Exit": true,
	"_exit": true, "__builtin_trap": true,
	"__assert_fail": true, "__assert_rtn": true, "__assert": true, "assert_fail": true,
	"printf": true, "puts": true, "putchar": true,
	// output to a stream: the FILE object's buffer is not modelled
	"fprintf": true, "vfprintf": true, "vprintf": true, "fputs": true, "fputc": true, "putc": true,
	"fflush": true, "perror": true,
	// seeds of the C library's generators (InputCall: any value, any seed)
	"srand": true, "srandom": true,
}

// LibraryModels are the C library functions the analyses model exactly
// (string.h, ctype.h, stdlib.h); where a model cannot be exact (a size
// that is not a constant, an unknown pointer) it havocs what the function
// may write (its pointer arguments' objects).
var LibraryModels = map[string]bool{
	"malloc": true, "calloc": true, "free": true, "alloca": true, "__builtin_alloca": true,
	"memcpy": true, "memmove": true, "memset": true, "memcmp": true,
	"strlen": true, "strcmp": true, "strncmp": true, "strcpy": true, "strncpy": true, "strchr": true,
	"abs": true, "labs": true, "llabs": true, "toupper": true, "tolower": true,
	"isdigit": true, "isalpha": true, "isalnum": true, "isspace": true, "isupper": true,
	"islower": true, "isxdigit": true, "isprint": true,
}

// MemoryQueries are CBMC's memory primitives that read pointer values
// and the objects they point to and write nothing, with their number of
// arguments: __CPROVER_r_ok(p, n), __CPROVER_w_ok(p, n) and
// __CPROVER_rw_ok(p, n) (p points into a live object with at least n
// bytes from p's offset), __CPROVER_same_object(p, q),
// __CPROVER_POINTER_OBJECT(p) and __CPROVER_POINTER_OFFSET(p). Extern
// classifies them ExternPure (writes nothing, calls nothing): a consumer
// that cannot evaluate one exactly takes any result; the concrete
// interpreter evaluates them exactly, so a counterexample that needs a
// result they do not have fails its replay.
var MemoryQueries = map[string]int{
	"__CPROVER_r_ok": 2, "__CPROVER_w_ok": 2, "__CPROVER_rw_ok": 2,
	"__CPROVER_same_object": 2, "__CPROVER_POINTER_OBJECT": 1, "__CPROVER_POINTER_OFFSET": 1,
}

// HavocObject is CBMC's __CPROVER_havoc_object(p): every byte of the
// object p points into (not only from p's offset) gets an arbitrary
// value; NULL havocs nothing. Extern classifies it ExternModelled (it
// writes that one object and calls nothing back); the value analysis, the
// SMT encoding and the concrete interpreter model it (the encoding and
// the interpreter with one input byte per byte of the object).
const HavocObject = "__CPROVER_havoc_object"

// HavocSlice is CBMC's __CPROVER_havoc_slice(p, n): the n bytes from p
// get arbitrary values, the rest of p's object keeps its contents; the
// range must lie in a live object (CBMC asserts __CPROVER_w_ok(p, n)),
// else the call is undefined behaviour. Classified and modelled as
// HavocObject is; the contracts use it for the assigns target
// __CPROVER_object_upto(p, n) at a call.
const HavocSlice = "__CPROVER_havoc_slice"

// Uninterpreted reports whether name is one of CBMC's uninterpreted
// functions, __CPROVER_uninterpreted_<f> without a body: a function of its
// argument values (not of what pointer arguments point to) about which
// nothing else is known. Extern classifies them ExternPure (any result,
// no effect: a superset of every such function); the concrete
// interpreter also checks that equal arguments give equal results, so a
// replayed counterexample is one of a real function.
func Uninterpreted(name string) bool { return strings.HasPrefix(name, "__CPROVER_uninterpreted_") }

// NondetFunc reports whether a function without a body named name
// returns a nondeterministic value: SV-COMP's __VERIFIER_nondet_<type>
// and the CBMC/ESBMC harness dialect's nondet_<type> (any name starting
// with nondet_, as CBMC treats every undefined function's result).
func NondetFunc(name string) bool {
	return strings.HasPrefix(name, "__VERIFIER_nondet_") || strings.HasPrefix(name, "nondet_")
}

// Extern classifies the function without a body name (for a function
// with a body the result is meaningless).
func (p *Program) Extern(name string) ExternKind {
	switch {
	case noEffectFuncs[name]:
		return ExternNoEffect
	case NondetFunc(name):
		return ExternNondet
	case name == "__VERIFIER_assume":
		return ExternAssume
	case LibraryModels[name] || name == HavocObject || name == HavocSlice:
		return ExternModelled
	case p.AssumePure[name] || MemoryQueries[name] != 0 || Uninterpreted(name):
		return ExternPure
	}
	return ExternUnmodelled
}

// UnmodelledWrites reports whether an unmodelled call may write the
// variable v: every object of static storage duration (external linkage,
// or static whose address may have escaped) and every variable whose
// address is taken (Var.AddrTaken: it may have escaped at this or an
// earlier call, or been stored in escaped memory). Heap blocks are always
// written. Volatile variables are skipped: every read of them is
// nondeterministic anyway. This over-approximates the rule of ExternKind.
func UnmodelledWrites(v *Var) bool {
	return (v.Global || v.AddrTaken || v.T.Kind == Array) && !v.Volatile
}

// EscapedFuncs returns the sorted names of the functions with a body
// whose address is taken anywhere in the program (a FuncRef other than
// the callee of a call): the functions an unmodelled function may call
// back (an over-approximation of those whose address escaped).
func (p *Program) EscapedFuncs() []string {
	seen := map[string]bool{}
	var visit func(x Expr)
	visit = func(x Expr) {
		Walk(x, func(x Expr) bool {
			if r, ok := x.(*FuncRef); ok && p.Func(r.Name) != nil {
				seen[r.Name] = true
			}
			return true
		})
	}
	for _, e := range p.Edges {
		switch op := e.Op.(type) {
		case *Assign:
			visit(op.LHS)
			visit(op.RHS)
		case *Assume:
			visit(op.Cond)
		case *Return:
			visit(op.X)
		case *Call:
			if _, direct := op.FnPtr.(*FuncRef); !direct {
				visit(op.FnPtr)
			}
			for _, a := range op.Args {
				visit(a)
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CallsExtern returns the sorted names of the functions without a body of
// the given kind that some Call edge names directly.
func (p *Program) CallsExtern(kind ExternKind) []string {
	seen := map[string]bool{}
	for _, e := range p.Edges {
		if c, ok := e.Op.(*Call); ok && c.Fn != "" && p.Func(c.Fn) == nil && p.Extern(c.Fn) == kind {
			seen[c.Fn] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CtypeClass reports whether the byte c (0..255) is in the class of the
// <ctype.h> function fn in the "C" locale (C11 7.4.1).
func CtypeClass(fn string, c uint64) bool {
	up := c >= 'A' && c <= 'Z'
	lo := c >= 'a' && c <= 'z'
	dig := c >= '0' && c <= '9'
	switch fn {
	case "isupper":
		return up
	case "islower":
		return lo
	case "isalpha":
		return up || lo
	case "isdigit":
		return dig
	case "isxdigit":
		return dig || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	case "isspace":
		return c == ' ' || (c >= '\t' && c <= '\r')
	case "isprint":
		return c >= ' ' && c <= '~'
	case "isalnum":
		return up || lo || dig
	}
	return false
}

// PathExterns returns, in order of first call and without duplicates,
// the functions without a body of the given kind that path calls
// directly (Intra steps over Call edges).
func (p *Program) PathExterns(path []Step, kind ExternKind) []string {
	var names []string
	seen := map[string]bool{}
	for _, s := range path {
		if s.Kind != Intra || s.Edge == nil {
			continue
		}
		c, ok := s.Edge.Op.(*Call)
		if !ok || c.Fn == "" || seen[c.Fn] || p.Func(c.Fn) != nil || p.Extern(c.Fn) != kind {
			continue
		}
		seen[c.Fn] = true
		names = append(names, c.Fn)
	}
	return names
}

// ctypeTrue is what a <ctype.h> classification function returns when
// true, as gcc -O0 on x86-64 Linux gives it: gcc folds isdigit to
// (unsigned)(c - '0') <= 9, the others are glibc's class bits.
var ctypeTrue = map[string]uint64{
	"isdigit": 1, "isupper": 256, "islower": 512, "isalpha": 1024, "isxdigit": 4096,
	"isspace": 8192, "isprint": 16384, "isalnum": 8,
}

// CtypeTrue returns the value the <ctype.h> classification function fn
// (isdigit, …) returns when true (see CtypeClass), and whether fn is one.
func CtypeTrue(fn string) (uint64, bool) {
	v, ok := ctypeTrue[fn]
	return v, ok
}

// CtypeValue returns the result of the <ctype.h> function fn (toupper,
// tolower, or a classification) on c in the "C" locale as glibc and gcc
// give it: c must be EOF or in -128..255 (ok is false otherwise: undefined,
// C11 7.4p1); toupper and tolower map the letters, return -1 for EOF and
// c+256 for the other negative values (glibc's tables).
func CtypeValue(fn string, c int64) (v int64, ok bool) {
	if c < -128 || c > 255 {
		return 0, false
	}
	switch fn {
	case "toupper", "tolower":
		switch {
		case c < -1:
			return c + 256, true
		case fn == "toupper" && c >= 'a' && c <= 'z':
			return c - 32, true
		case fn == "tolower" && c >= 'A' && c <= 'Z':
			return c + 32, true
		}
		return c, true
	}
	t, isClass := ctypeTrue[fn]
	if !isClass {
		return 0, false
	}
	if c >= 0 && CtypeClass(fn, uint64(c)) {
		return int64(t), true
	}
	return 0, true
}

// OutsideFuncPointers reports whether a function pointer of p may
// designate a function without a body (doc/DESIGN.md, "What the program
// does not contain"): the address of one is taken, or a pointer may come
// from outside the program, as the result or a write of an unmodelled
// function (ExternUnmodelled) or any nondeterministic pointer (a Havoc of
// pointer type: an extern object no source defines, an entry
// parameter). A call through a pointer whose value is not known is then
// also an unmodelled call; otherwise only functions with a body can be
// its target. O(edges).
func (p *Program) OutsideFuncPointers() bool {
	for _, e := range p.Edges {
		switch op := e.Op.(type) {
		case *Call:
			if op.Fn != "" && p.Func(op.Fn) == nil && p.Extern(op.Fn) == ExternUnmodelled {
				return true
			}
		case *Havoc:
			if t := op.LHS.Type(); t != nil && t.Kind == Pointer {
				return true
			}
		}
		found := false
		ForEachExpr(e.Op, func(x Expr) {
			Walk(x, func(x Expr) bool {
				if r, ok := x.(*FuncRef); ok && p.Func(r.Name) == nil {
					if c, isCall := e.Op.(*Call); !isCall || c.Fn != r.Name {
						found = true
					}
				}
				return !found
			})
		})
		if found {
			return true
		}
	}
	return false
}
