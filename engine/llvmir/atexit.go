package llvmir

import (
	"regexp"
	"sort"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"

	"github.com/reverify/reverify/engine/cfa"
)

// The atexit model, as the C front end has it (engine/frontend,
// atexit.go; C11 7.22.4.2–4, 5.1.2.2.3): functions registered with
// atexit run in the reverse order of their registration when exit is
// called or main returns, from a stack of atexitMax entries (one more
// registration fails). A module that calls atexit without defining it,
// or has destructors (@llvm.global_dtors, registered with the model in
// Init), gets atexitModule linked in: atexit and the runner, as IR.
// Every call of exit and every return of main calls the runner first.
// main's locals are still live while the functions run, where C ends
// their lifetime first: when main has a local whose address is taken,
// or the module calls main, an unsupported edge precedes the runner at
// main's returns.
const (
	atexitRun  = "__reverify_atexit_run"
	atexitName = "<atexit>"
)

const atexitModule = `
@__reverify_atexit_fns = internal global [32 x void ()*] zeroinitializer
@__reverify_atexit_n = internal global i32 0

define i32 @atexit(void ()* %f) {
  %n = load i32, i32* @__reverify_atexit_n
  %full = icmp eq i32 %n, 32
  br i1 %full, label %fail, label %ok
fail:
  ret i32 1
ok:
  %slot = getelementptr [32 x void ()*], [32 x void ()*]* @__reverify_atexit_fns, i32 0, i32 %n
  store void ()* %f, void ()** %slot
  %n1 = add nsw i32 %n, 1
  store i32 %n1, i32* @__reverify_atexit_n
  ret i32 0
}

define void @__reverify_atexit_run() {
entry:
  br label %loop
loop:
  %n = load i32, i32* @__reverify_atexit_n
  %more = icmp sgt i32 %n, 0
  br i1 %more, label %body, label %done
body:
  %n1 = sub nsw i32 %n, 1
  store i32 %n1, i32* @__reverify_atexit_n
  %slot = getelementptr [32 x void ()*], [32 x void ()*]* @__reverify_atexit_fns, i32 0, i32 %n1
  %f = load void ()*, void ()** %slot
  call void %f()
  br label %loop
done:
  ret void
}
`

var (
	atexitDeclRE = regexp.MustCompile(`(?m)^declare [^\n]*@atexit\([^\n]*$`)
	atexitDefRE  = regexp.MustCompile(`(?m)^define [^\n]*@atexit\(`)
	atexitCallRE = regexp.MustCompile(`@atexit\(`)
	dtorsRE      = regexp.MustCompile(`(?m)^@llvm\.global_dtors = `)
)

// withAtexit returns the module text with the atexit model linked in
// when it needs it (the declaration of atexit removed), and the line of
// the text where the model starts (0 without it).
func withAtexit(text string) (string, int) {
	if atexitDefRE.MatchString(text) {
		return text, 0 // the program's own atexit
	}
	calls := len(atexitCallRE.FindAllStringIndex(text, -1)) > len(atexitDeclRE.FindAllStringIndex(text, -1))
	if !calls && !dtorsRE.MatchString(text) {
		return text, 0
	}
	text = atexitDeclRE.ReplaceAllString(text, "")
	start := strings.Count(text, "\n") + 1
	return text + "\n" + atexitModule, start
}

// registerDestructors registers the destructors of @llvm.global_dtors
// with the model in Init, as the C front end does: in ascending
// priority (the default, 65535, last), each priority in array order, so
// that the model runs the last registered first. Without the model (the
// module defines atexit) they are an unsupported construct.
func (t *translator) registerDestructors(b *builder) {
	for _, g := range t.m.Globals {
		if g.Name() != "llvm.global_dtors" || g.Init == nil || isZero(g.Init) {
			continue
		}
		pos := t.src.globalPos(g)
		reg := t.m.Funcs
		var atexit *ir.Func
		for _, f := range reg {
			if f.Name() == "atexit" {
				atexit = f
			}
		}
		if !t.src.atexitModel || atexit == nil {
			b.edge(&cfa.Unsupported{Construct: "destructors (run at exit) in a module that defines atexit"}, cfa.Range{Start: pos}, "")
			continue
		}
		type dtor struct {
			prio  int64
			order int
			fn    *ir.Func
		}
		var ds []dtor
		arr, _ := g.Init.(*constant.Array)
		if arr == nil {
			b.edge(&cfa.Unsupported{Construct: "destructors " + g.Init.Ident()}, cfa.Range{Start: pos}, "")
			continue
		}
		for i, e := range arr.Elems {
			s, ok := e.(*constant.Struct)
			if !ok || len(s.Fields) < 2 {
				b.edge(&cfa.Unsupported{Construct: "destructor entry " + e.Ident()}, cfa.Range{Start: pos}, "")
				continue
			}
			p, _ := s.Fields[0].(*constant.Int)
			f, _ := stripCasts(s.Fields[1]).(*ir.Func)
			if p == nil || f == nil {
				b.edge(&cfa.Unsupported{Construct: "destructor entry " + e.Ident()}, cfa.Range{Start: pos}, "")
				continue
			}
			ds = append(ds, dtor{p.X.Int64(), i, f})
		}
		sort.SliceStable(ds, func(i, j int) bool { return ds[i].prio < ds[j].prio })
		for _, d := range ds {
			ft, err := t.tm.of(d.fn.Sig)
			if err != nil {
				b.edge(&cfa.Unsupported{Construct: "destructor " + d.fn.Name()}, cfa.Range{Start: pos}, "")
				continue
			}
			arg := &cfa.AddrOf{X: &cfa.FuncRef{Name: d.fn.Name(), T: ft}, T: t.tm.ptr(ft)}
			b.edge(&cfa.Call{Fn: "atexit", Args: []cfa.Expr{conv(arg, t.tm.ptr(&cfa.Type{Kind: cfa.Func, Result: cfa.VoidType}))}, Pos: pos}, cfa.Range{Start: pos}, "")
		}
	}
}

// runAtexit emits the call of the runner before exit, or before a
// return of main (with the unsupported edge of main's dead locals).
func (fx *fnctx) runAtexit(mainReturn bool) {
	if !fx.t.src.atexitModel || fx.t.src.inModel(fx.irf) {
		return
	}
	if mainReturn {
		for _, v := range fx.f.Locals {
			if v.AddrTaken && !v.Temp {
				fx.unsupported("atexit functions after main returns, whose locals (address taken) are dead")
				break
			}
		}
		if fx.t.callsMain {
			fx.unsupported("atexit functions after main returns, in a program that calls main")
		}
	}
	fx.emit(&cfa.Call{Fn: atexitRun, Pos: fx.pos.Start})
}
