// Package cpatest runs the standard composite [location, callstack,
// property, value] of the CPA algorithm on a program, for tests of the
// algorithm and the analyses. It builds no CFAs: tests write them with
// engine/cfa/cfatest (B, with if and while) or the frontend.
//
//	b := cfatest.New()
//	x := b.Global("x", cfa.IntT)
//	b.Func("main")
//	b.Assign(b.V(x), b.I(0))
//	b.While(b.Lt(b.V(x), b.I(10)), func() { b.Assign(b.V(x), b.Add(b.V(x), b.I(1))) })
//	b.If(b.Eq(b.V(x), b.I(10)), func() { b.Error() }, nil)
//	prog := b.Finish(t)
//	_, st, _ := cpatest.Run(t, prog, cpatest.Config{}, cpa.Options{})
package cpatest
