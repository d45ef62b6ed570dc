// Package cfatest builds CFAs by hand for tests: the one CFA test
// builder of the project. It imports engine/cfa only, so tests of every
// layer above may use it. It has two styles:
//
// Path builds one function at a time and records the path taken through
// it as it is built: the builder the tests of engine/smt (path encoding)
// and engine/interp (replay) share.
//
//	var path []cfa.Step
//	p := cfa.NewProgram(cfa.ILP32)
//	m := cfatest.Function(p, "main", cfa.IntT, &path)
//	x := m.Local("x", cfa.IntT)
//	m.Op(cfatest.Havoc(cfatest.Ref(x)))
//	m.Assume(cfatest.Bin(cfa.Gt, cfatest.Ref(x), cfatest.Const(0, cfa.IntT), cfa.IntT), true)
//	m.Ret(cfatest.Ref(x))
//
// path is then the steps havoc, assume (true branch) and return of main.
//
// B builds a whole program in structured style, with if and while: the
// builder of the tests of the CPA algorithm and the analyses (which run
// the standard composite on it with engine/analysis/cpatest).
//
//	b := cfatest.New()
//	x := b.Global("x", cfa.IntT)
//	b.Func("main")
//	b.Assign(b.V(x), b.I(0))
//	b.While(b.Lt(b.V(x), b.I(10)), func() { b.Assign(b.V(x), b.Add(b.V(x), b.I(1))) })
//	b.If(b.Eq(b.V(x), b.I(10)), func() { b.Error() }, nil)
//	prog := b.Finish(t)
package cfatest
