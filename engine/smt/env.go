package smt

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// envCall encodes a call of getenv with a literal name (cfa.EnvName):
// at the name's first call the inputs whether it is set (0 or 1; Source
// "getenv NAME"), the length n of its value (at most cfa.EnvMaxLen;
// "getenv NAME length") and cfa.EnvBytes bytes ("getenv NAME[i]"), none of them NUL before n; the value is a new
// object of n+1 bytes (neither freeable nor an alloca: it outlives every
// frame) holding those bytes, then any bytes, with NUL at n; the call
// returns a pointer to it, or NULL when the name is not set, and the
// same pointer at every later call of the name. It writes nothing else.
// The model admits every environment a run may have (sound for TRUE); a
// counterexample whose string is longer than cfa.EnvBytes is refused by
// the replay (engine/interp), which gives the program the string itself,
// so CheckPath looks for a model with short values first.
// After an unmodelled call, which may have called setenv or putenv (and
// putenv makes getenv return the program's own buffer), on a path that
// does not start at the program's start (a witness segment from a loop
// head, where a name may have been read before) and in merged encodings
// (bmc), whose branches would each need the name's object, it is not
// modelled. It reports false, encoding nothing, when it does not
// model c: the call then cannot be encoded.
func (e *encoder) envCall(c *cfa.Call, arg func(int) *Term, setResult func(*Term, *cfa.Type)) bool {
	name, ok := cfa.EnvName(e.p, c)
	if !ok || e.shared != nil || e.envChanged || !e.fromStart() {
		return false
	}
	arg(0)
	b := e.b
	ptrT := cfa.PointerTo(cfa.CharType, e.ptrBits)
	p, ok := e.env[name]
	if !ok {
		sizeT := cfa.IntType(e.ptrBits, false)
		src := cfa.GetenvSource + " " + name
		set := e.input("getenv set", src, cfa.UCharType)
		e.conj(b.Ule(set, b.BV(1, 8)))
		n := e.input("getenv length", src+" length", sizeT)
		e.conj(b.Ule(n, b.BV(cfa.EnvMaxLen, e.ptrBits)))
		e.f.EnvLengths = append(e.f.EnvLengths, n)
		arr := b.FreshVar("mem:environment", e.arraySort())
		for i := uint64(0); i < cfa.EnvBytes; i++ {
			x := e.input("getenv byte", fmt.Sprintf("%s[%d]", src, i), cfa.UCharType)
			e.conj(b.Or(b.Uge(b.BV(i, e.ptrBits), n), b.Not(b.Eq(x, b.BV(0, 8)))))
			arr = b.Store(arr, b.BV(i, e.offBits), x)
		}
		arr = b.Store(arr, b.Extract(n, e.offBits-1, 0), b.BV(0, 8))
		o := e.newObject("environment "+name, b.Add(n, b.BV(1, e.ptrBits)), arr)
		p = b.Ite(b.Eq(set, b.BV(0, 8)), b.BV(0, e.ptrBits), e.objPtr(o))
		if e.env == nil {
			e.env = map[string]*Term{}
		}
		e.env[name] = p
	}
	setResult(p, ptrT)
	return true
}

// fromStart reports whether the path starts where every run starts, at
// the entry of the program's initialisation (cfa.Program.Init).
func (e *encoder) fromStart() bool {
	return len(e.path) > 0 && e.path[0].Edge != nil && e.p.Init != nil && e.path[0].Edge.From == e.p.Init.Entry
}
