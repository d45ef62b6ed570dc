package pdg

import (
	"github.com/reverify/reverify/engine/cfa"
)

// extKind classifies what a function without a body does to memory, for
// the points-to analysis and the reaching definitions. Unknown functions get
// extGeneric, the sound default.
type extKind uint8

const (
	// extGeneric may read and write every object reachable from its
	// arguments, store any of those pointers (or pointers to memory of its
	// own) into them, return any of them, and call any function pointer
	// among them with any of them.
	extGeneric  extKind = iota
	extPure             // reads its arguments' pointees, writes nothing
	extAlloc            // returns a fresh heap object (one per call site)
	extRealloc          // like extAlloc, copying the contents of its first argument
	extCopy             // (dst, src, …): copies *src into *dst, returns dst
	extSet              // (dst, …): writes *dst, returns dst
	extRetArg0          // returns a pointer into its first argument, writes nothing
	extNondet           // __VERIFIER_nondet_*, nondet_* (cfa.NondetFunc): returns an arbitrary value
	extNoReturn         // never returns
	extAssume           // __VERIFIER_assume: returns only if its argument is non-zero
	extFree             // free: no effect on values
)

var externs = map[string]extKind{
	"malloc": extAlloc, "calloc": extAlloc, "alloca": extAlloc, "__builtin_alloca": extAlloc,
	"valloc": extAlloc, "aligned_alloc": extAlloc, "memalign": extAlloc, "strdup": extAlloc,
	"strndup": extAlloc, "kmalloc": extAlloc, "kzalloc": extAlloc,
	"realloc": extRealloc,
	"memcpy":  extCopy, "memmove": extCopy, "strcpy": extCopy, "strncpy": extCopy,
	"strcat": extCopy, "strncat": extCopy, "__builtin_memcpy": extCopy,
	"__builtin_memmove": extCopy, "__builtin___memcpy_chk": extCopy, "__builtin_strcpy": extCopy,
	"memset": extSet, "__builtin_memset": extSet, "bzero": extSet, "sprintf": extSet,
	"snprintf": extSet, "vsprintf": extSet, "vsnprintf": extSet, "__builtin___memset_chk": extSet,
	"strchr": extRetArg0, "strrchr": extRetArg0, "strstr": extRetArg0, "memchr": extRetArg0,
	"strpbrk": extRetArg0,
	"printf":  extPure, "fprintf": extPure, "puts": extPure, "putchar": extPure, "fputs": extPure,
	"strlen": extPure, "strnlen": extPure, "strcmp": extPure, "strncmp": extPure, "memcmp": extPure,
	"strcasecmp": extPure, "atoi": extPure, "atol": extPure, "abs": extPure, "labs": extPure,
	"llabs": extPure, "__builtin_expect": extPure, "assert": extPure, "isdigit": extPure,
	"isalpha": extPure, "isspace": extPure, "toupper": extPure, "tolower": extPure,
	"__VERIFIER_atomic_begin": extPure, "__VERIFIER_atomic_end": extPure,
	"free": extFree, "kfree": extFree,
	"abort": extNoReturn, "exit": extNoReturn, "_exit": extNoReturn, "_Exit": extNoReturn,
	"quick_exit": extNoReturn, "__assert_fail": extNoReturn, "__assert_perror_fail": extNoReturn,
	"__assert": extNoReturn, "__assert_rtn": extNoReturn, "reach_error": extNoReturn,
	"__VERIFIER_error": extNoReturn, "pthread_exit": extNoReturn, "longjmp": extNoReturn,
	"siglongjmp": extNoReturn, "__builtin_trap": extNoReturn, "__builtin_unreachable": extNoReturn,
	"__VERIFIER_assume": extAssume,
}

// externKind returns the model of the external function name.
func externKind(name string) extKind {
	if k, ok := externs[name]; ok {
		return k
	}
	if cfa.NondetFunc(name) {
		return extNondet
	}
	return extGeneric
}

// externKindIn is externKind in program p: functions the user declares
// side-effect-free (cfa.Program.AssumePure) without a model of their own
// are extPure.
//
// CBMC's memory primitives (cfa.MemoryQueries) depend on the lifetimes of
// objects, which no value carries: in a program that calls one, free and
// kfree are extGeneric (they write their argument's pointee), so a slice
// keeping a primitive keeps the frees its pointer arguments' objects may
// have seen; the primitives themselves are extGeneric (they read their
// arguments' pointees).
func externKindIn(p *cfa.Program, name string) extKind {
	if _, ok := externs[name]; !ok && p.AssumePure[name] {
		return extPure
	}
	k := externKind(name)
	if k == extFree && callsMemoryQuery(p) {
		return extGeneric
	}
	return k
}

// callsMemoryQuery reports whether p declares one of CBMC's memory
// primitives (cfa.MemoryQueries; the frontend declares each it calls).
func callsMemoryQuery(p *cfa.Program) bool {
	for name := range cfa.MemoryQueries {
		if _, ok := p.Externals[name]; ok {
			return true
		}
	}
	return false
}

// hasGeneric reports whether p may call an external function of kind
// extGeneric: one it declares (cfa.Program.Externals) or whose address
// it takes. Then every global is memory such a call may write.
func hasGeneric(p *cfa.Program) bool {
	for name := range p.Externals {
		if p.Func(name) == nil && externKindIn(p, name) == extGeneric {
			return true
		}
	}
	return false
}

// mayStop reports whether a call of the external function may not return.
func (k extKind) mayStop() bool { return k == extNoReturn || k == extAssume }
