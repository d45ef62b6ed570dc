package reproduce

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// A FALSE of a contract's obligation (engine/contract) fails an
// assertion of generated code that the compiled program does not have:
// gcc compiles the program's files as written, its contract clauses
// compiled away (csem.CBMCPreludeGNU).
//
// An ensures clause fails in the contract check of f (CheckPrefix: f's
// parameters havocked, the requires clauses' fresh objects allocated,
// the requires assumed, the old values read, f called, the ensures
// clauses checked). Its reproducer (contractReproducer) is a harness
// whose main replays the check's own steps of the counterexample as C
// statements: each parameter and temporary gets the counterexample's
// value, a fresh object is a heap block of the clause's size holding the
// counterexample's initial bytes (witness.Violation.HeapInit, which
// report/artifacts takes from the solver; zeros without them), the old
// values are read where the check reads them, f (the program's, as
// gcc compiled it) is called with the arguments, and every branch the
// check took on the way to the failure (the requires clauses, the
// ensures clauses before the failing one, the failing clause's
// operands) is taken again only when its condition holds as it did on
// the path: any other outcome has left the counterexample (status 0).
// Reaching the failing clause's failure is the reported error (status
// ReachedExitCode): the clause is false for the values of the run. An
// assertion of the program that fails in f's body (or below it) in the
// check (inBody) is replayed the same way up to the call of f, which is
// the last statement; the harness's __CPROVER_assert and __assert_fail
// judge the failing assertion by its place (site.go), and a return of f
// has left the counterexample.
//
// A requires clause fails in the contract of f as a function (UsePrefix)
// that a call of f uses instead of f's body. A call in the compiled
// program does not pass through it; in library mode (the entry a most
// general context, whose reproducer compiles copies of the sources:
// report/artifacts) the copy of the file that defines f renames the
// definition and defines f as a wrapper that asserts the failing conjunct
// under a #line directive to its clause and then calls the renamed body
// (contract.WrapRequires): the harness's __CPROVER_assert judges it by
// the line of its call as every CBMC assertion, so the run exits with
// ReachedExitCode only when that conjunct is false at a call. The rest of
// the reproducer is the context's (Reproducer); the choice that makes the
// contract's check fail (the "contract check" input) is no input of the
// compiled program (contractChoice).
//
// The other obligations get no reproducer, with the reason
// (contractRefusal): an assigns clause's violation is a write that is
// legal C; a requires clause outside library mode, or the separation of
// two fresh objects; a loop contract's invariant and decreases clause are
// compiled away with the loop's clauses; a counterexample that uses a
// callee's contract for a call runs the callee's body when compiled.

// contractMessage returns the description of the assertion the target
// step fails (the first argument of __assert_fail), "" when it has none.
func (c *ctx) contractMessage() string {
	if c.target < 0 || c.target >= len(c.v.Path) || c.v.Path[c.target].Edge == nil {
		return ""
	}
	call, ok := c.v.Path[c.target].Edge.Op.(*cfa.Call)
	if !ok || call.Fn != "__assert_fail" || len(call.Args) == 0 {
		return ""
	}
	s, _ := cfa.StringLiteral(call.Args[0])
	return s
}

// contractRefusal returns why a violation of a contract's obligation
// other than an ensures clause has no reproducer; nil for other
// violations.
func (c *ctx) contractRefusal() error {
	msg := c.contractMessage()
	fn := ""
	if c.target >= 0 && c.target < len(c.v.Path) && c.v.Path[c.target].Edge != nil {
		fn = c.v.Path[c.target].Edge.From.Func.Name
	}
	ef := c.entryFunc()
	library := ef != nil && cfa.IsContext(ef.Name)
	switch {
	case strings.HasPrefix(msg, "assigns clause of "):
		// "assigns clause of F: W is assignable"
		f, w, ok := strings.Cut(strings.TrimPrefix(msg, "assigns clause of "), ": ")
		if !ok {
			f, w = "its function", msg
		}
		return fmt.Errorf("witness: an assigns-clause violation is not observable in C: the write %s in the contract check of %s is legal C, only the contract forbids it", strings.TrimSuffix(w, " is assignable"), f)
	case strings.HasPrefix(msg, "requires clause of ") && strings.HasPrefix(fn, cfa.ContractUsePrefix) && !library:
		return fmt.Errorf("witness: a requires clause violated at a call is not observable in C outside library mode: the clause is compiled away, and the call of %s in the compiled program does not pass through its contract (a library-mode reproducer compiles copies of the sources in which it does)", strings.TrimPrefix(fn, cfa.ContractUsePrefix))
	case strings.HasPrefix(msg, "loop invariant of "):
		return fmt.Errorf("witness: a loop invariant's violation is not observable in C: the invariant is compiled away with the loop's contract, so the compiled loop never evaluates it")
	case strings.HasPrefix(msg, "decreases clause of "):
		return fmt.Errorf("witness: a decreases clause's violation is not observable in C: the clause is compiled away with the loop's contract, so the compiled loop never evaluates it")
	case strings.HasPrefix(msg, "ensures clause of ") && !strings.HasPrefix(fn, cfa.ContractCheckPrefix):
		return fmt.Errorf("witness: an ensures clause violated outside its contract check (in %s) is not observable in C: the clause is compiled away", fn)
	}
	for _, in := range c.v.Inputs {
		if in.Step < 0 || in.Step >= c.target || c.v.Path[in.Step].Edge == nil || c.contractChoice(in) {
			continue
		}
		if g, ok := strings.CutPrefix(c.v.Path[in.Step].Edge.From.Func.Name, cfa.ContractUsePrefix); ok && !c.isContractCheck() {
			return fmt.Errorf("witness: the counterexample uses the contract of %s for a call (its result and the objects it assigns are any values the ensures clauses allow), but the compiled program runs the body of %s, which a harness cannot replace by the contract", g, g)
		}
	}
	return nil
}

// isContractCheck reports whether the counterexample fails an ensures
// clause in a contract check, the entry function.
func (c *ctx) isContractCheck() bool {
	fn := c.entryFunc()
	if fn == nil || !strings.HasPrefix(fn.Name, cfa.ContractCheckPrefix) {
		return false
	}
	if c.target < 0 || c.target >= len(c.v.Path) || c.v.Path[c.target].Edge == nil {
		return false
	}
	if c.v.Path[c.target].Edge.From.Func == fn {
		return strings.HasPrefix(c.contractMessage(), "ensures clause of ")
	}
	return c.inBody()
}

// inBody reports whether the counterexample of a contract check fails an
// assertion of the program (not a contract's obligation) that the
// function's body, or a function it calls, makes: __CPROVER_assert or
// assert, both calls of __assert_fail at the assertion.
func (c *ctx) inBody() bool {
	if c.errFunc != "__assert_fail" || c.v.Memory != "" {
		return false
	}
	msg := c.contractMessage()
	for _, k := range []string{"ensures clause of ", "requires clause of ", "assigns clause of ", "loop invariant of ", "decreases clause of "} {
		if strings.HasPrefix(msg, k) {
			return false
		}
	}
	return true
}

// contractSource is the harness's C text of one contract check's
// replay: local declarations, extern declarations of the program's
// globals and function, and the statements of main.
type contractSource struct {
	locals  map[*cfa.Var]bool
	globals map[*cfa.Var]bool
	decls   []string
	body    []string
	tables  []string       // initial bytes of fresh objects
	heap    map[int][]byte // witness.Violation.HeapInit
	left    int            // the branch conditions replayed
}

// contractReproducer returns the reproducer of an ensures clause that
// fails in the contract check (the entry function): see the comment at
// the top of this file.
func (c *ctx) contractReproducer() (string, error) {
	p := c.v.Program
	check := c.entryFunc()
	start := -1
	for i, s := range c.v.Path {
		if s.Kind == cfa.Enter && s.Edge == nil && s.Callee == check {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return "", fmt.Errorf("witness: the counterexample does not enter the contract check %s", check.Name)
	}
	inputs := map[int]uint64{}
	for _, in := range c.v.Inputs {
		inputs[in.Step] = in.Bits
	}
	cs := &contractSource{locals: map[*cfa.Var]bool{}, globals: map[*cfa.Var]bool{}, heap: c.v.HeapInit}
	choice := map[*cfa.Var]bool{} // the non-blocking failure's choice
	// the function the contract is of: the check's callee that
	// contract.Find names (a clause may call other functions)
	of := ""
	for _, k := range contract.Find(p) {
		if k.Check() == check.Name {
			of = k.Func
		}
	}
	called := false
	for i := start; i < c.target; i++ {
		s := c.v.Path[i]
		if s.Edge == nil {
			return "", fmt.Errorf("witness: the contract check's path has a step without an edge")
		}
		switch op := s.Edge.Op.(type) {
		case *cfa.Call:
			if s.Kind != cfa.Enter {
				if !has(memQueryFuncs, op.Fn) || len(op.Args) != 2 {
					return "", fmt.Errorf("witness: the contract check calls %s, which has no body", op.Fn)
				}
				// a memory query of a clause: the harness computes it
				// from AddressSanitizer's memory (memQueryDefs)
				call, err := cs.query(op)
				if err != nil {
					return "", err
				}
				cs.body = append(cs.body, call)
				continue
			}
			// the callee's steps run in the compiled program: skip to
			// the step that leaves it
			depth, j := 0, i
			for ; j < c.target; j++ {
				if k := c.v.Path[j].Kind; k == cfa.Enter {
					depth++
				} else if k == cfa.Leave {
					depth--
				}
				if depth == 0 {
					break
				}
			}
			if j >= c.target {
				// the failing assertion is in the body: the call is
				// the replay's last step, the harness judges the
				// assertion (inBody)
				if op.Fn != of || !c.inBody() {
					return "", fmt.Errorf("witness: the failing assertion is inside the call of %s", op.Fn)
				}
				if err := c.bodyInputs(i); err != nil {
					return "", err
				}
				if err := cs.call(p, op, s.Callee, 0); err != nil {
					return "", err
				}
				cs.body = append(cs.body, fmt.Sprintf("rv_left(%q);", "the return of "+op.Fn+" (the assertion did not fail)"))
				return cs.write(c, of), nil
			}
			if err := cs.call(p, op, s.Callee, c.allocOrdinal(i, j)); err != nil {
				return "", err
			}
			called = called || op.Fn == of
			i = j
		case *cfa.Decl:
			if err := cs.local(op.Var); err != nil {
				return "", err
			}
			if bits, ok := inputs[i]; ok {
				ct, _ := witness.CType(op.Var.T)
				switch t := op.Var.T; {
				case t.Kind == cfa.Int || t.Kind == cfa.Bool:
					cs.body = append(cs.body, fmt.Sprintf("%s = %s; /* %s, the counterexample's */", cs.name(op.Var), argLiteral(t, ct, bits), witness.CValue(t, bits)))
				case t.Kind == cfa.Float && (t.Bits == 32 || t.Bits == 64):
					// the value's bits
					ut := map[int]string{32: "unsigned int", 64: "unsigned long long"}[t.Bits]
					cs.body = append(cs.body, fmt.Sprintf("{ %s rv_bits = %#xULL; memcpy(&%s, &rv_bits, sizeof rv_bits); } /* the counterexample's */", ut, cfa.Truncate(bits, t.Bits), cs.name(op.Var)))
				}
			}
		case *cfa.Assign:
			if v := cfa.BaseVar(op.LHS); v != nil && v.Global && cfa.Generated(v.Name) {
				continue // the check's own bookkeeping (frame, flags)
			}
			l, err := cs.expr(op.LHS)
			if err != nil {
				return "", err
			}
			r, err := cs.expr(op.RHS)
			if err != nil {
				return "", err
			}
			cs.body = append(cs.body, fmt.Sprintf("%s = %s;", l, r))
		case *cfa.Havoc:
			v := cfa.BaseVar(op.LHS)
			if op.Source != "contract check" || v == nil {
				return "", fmt.Errorf("witness: the contract check reads a nondeterministic value (%s) that a harness cannot supply", op.Source)
			}
			choice[v] = true
		case *cfa.Assume:
			skip := false
			for _, v := range cfa.Vars(op.Cond) {
				skip = skip || choice[v]
			}
			if skip {
				continue
			}
			cond, err := cs.expr(op.Cond)
			if err != nil {
				return "", err
			}
			neg := "!"
			if !op.Truth {
				neg = ""
			}
			cs.left++
			cs.body = append(cs.body, fmt.Sprintf("if (%s(%s))\n\t\trv_left(%q);", neg, cond, s.Edge.Pos.Start.String()+": "+oneLineText(s.Edge.Text)))
		case *cfa.Noop:
		default:
			return "", fmt.Errorf("witness: the contract check executes %T, which the harness does not replay", op)
		}
	}
	if !called {
		return "", fmt.Errorf("witness: the counterexample fails the clause before the contract check calls its function")
	}
	return cs.write(c, of), nil
}

func oneLineText(s string) string { return comment(strings.Join(strings.Fields(s), " ")) }

// name is the harness's name of a local of the check, or of a global.
func (cs *contractSource) name(v *cfa.Var) string {
	if v.Global {
		return "rv_g_" + strings.NewReplacer(".", "_", ":", "_").Replace(v.Name)
	}
	return "rv_l_" + strings.NewReplacer(".", "_", ":", "_").Replace(v.Name)
}

// local declares a local of the check.
func (cs *contractSource) local(v *cfa.Var) error {
	if cs.locals[v] {
		return nil
	}
	ct, ok := witness.CType(v.T)
	if !ok {
		return fmt.Errorf("witness: the contract check's variable %s has type %s, which the harness cannot spell", v.Orig, v.T)
	}
	cs.locals[v] = true
	cs.decls = append(cs.decls, fmt.Sprintf("%s %s = 0;", ct, cs.name(v)))
	return nil
}

// call replays a call of the check: the allocation of a fresh object,
// or the call of the contract's function.
func (cs *contractSource) call(p *cfa.Program, call *cfa.Call, callee *cfa.Function, ordinal int) error {
	var args []string
	for _, a := range call.Args {
		s, err := cs.expr(a)
		if err != nil {
			return err
		}
		args = append(args, s)
	}
	res := ""
	if call.Result != nil {
		r, err := cs.expr(call.Result)
		if err != nil {
			return err
		}
		res = r + " = "
	}
	if call.Fn == "__reverify_fresh" {
		if len(args) != 1 || res == "" {
			return fmt.Errorf("witness: an allocation of the contract check has an unexpected shape")
		}
		init := cs.heap[ordinal]
		if ordinal <= 0 || init == nil {
			cs.body = append(cs.body, fmt.Sprintf("%srv_fresh(%s, 0, 0);", res, args[0]))
			return nil
		}
		name := fmt.Sprintf("rv_heap_%d", ordinal)
		var bs []string
		for _, x := range init {
			bs = append(bs, fmt.Sprintf("%#x", x))
		}
		cs.tables = append(cs.tables, fmt.Sprintf("/* the counterexample's initial bytes of allocation %d */\nstatic const unsigned char %s[%d] = {%s};", ordinal, name, len(init), strings.Join(bs, ", ")))
		cs.body = append(cs.body, fmt.Sprintf("%srv_fresh(%s, %s, sizeof %s);", res, args[0], name, name))
		return nil
	}
	if cfa.Generated(call.Fn) || callee == nil {
		return fmt.Errorf("witness: the contract check calls %s, which the compiled program does not have", call.Fn)
	}
	if callee.Static {
		return fmt.Errorf("witness: cannot call %s from the harness: it is static, so a harness in another file cannot name it", call.Fn)
	}
	var ptypes []string
	for _, v := range callee.Params {
		ct, ok := witness.CType(v.T)
		if !ok {
			return fmt.Errorf("witness: cannot call %s from the harness: parameter %s has type %s, which the harness cannot spell", call.Fn, v.Orig, v.T)
		}
		ptypes = append(ptypes, ct)
	}
	ret := "void"
	if r := resultType(callee.T); r != nil && r.Kind != cfa.Void {
		ct, ok := witness.CType(r)
		if !ok {
			return fmt.Errorf("witness: cannot call %s from the harness: it returns %s, which the harness cannot spell", call.Fn, r)
		}
		ret = ct
	}
	plist := strings.Join(ptypes, ", ")
	if plist == "" {
		plist = "void"
	}
	cs.decls = append(cs.decls, fmt.Sprintf("extern %s rv_fn_%s(%s) __asm__(%q);", ret, call.Fn, plist, call.Fn))
	cs.body = append(cs.body, fmt.Sprintf("%srv_fn_%s(%s); /* as gcc compiled it */", res, call.Fn, strings.Join(args, ", ")))
	return nil
}

// expr prints e as C over the harness's names: pointers are void * (as
// witness.CType spells them), so a dereference or pointer arithmetic
// names the pointee type.
func (cs *contractSource) expr(e cfa.Expr) (string, error) {
	ctype := func(t *cfa.Type) (string, error) {
		if t != nil && t.Kind == cfa.Void {
			return "void", nil
		}
		ct, ok := witness.CType(t)
		if !ok {
			return "", fmt.Errorf("witness: the contract check computes with type %s, which the harness cannot spell", t)
		}
		return ct, nil
	}
	switch e := e.(type) {
	case *cfa.VarRef:
		v := e.Var
		if !v.Global {
			if err := cs.local(v); err != nil {
				return "", err
			}
			return cs.name(v), nil
		}
		if cfa.Generated(v.Name) || v.Orig == "" || v.Name != v.Orig {
			return "", fmt.Errorf("witness: the contract check reads %s, which a harness in another file cannot name", v.Name)
		}
		if !cs.globals[v] {
			ct, err := ctype(v.T)
			if err != nil {
				return "", err
			}
			cs.globals[v] = true
			cs.decls = append(cs.decls, fmt.Sprintf("extern %s %s __asm__(%q);", ct, cs.name(v), v.Name))
		}
		return cs.name(v), nil
	case *cfa.Const:
		if e.T.Kind == cfa.Pointer {
			if e.V != 0 {
				return "", fmt.Errorf("witness: the contract check uses a pointer constant")
			}
			return "((void *)0)", nil
		}
		if !e.T.IsInteger() && e.T.Kind != cfa.Bool {
			return "", fmt.Errorf("witness: the contract check uses a constant of type %s", e.T)
		}
		ct, err := ctype(e.T)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((%s)%s)", ct, witness.CValue(e.T, e.V)), nil
	case *cfa.Cast:
		x, err := cs.expr(e.X)
		if err != nil {
			return "", err
		}
		ct, err := ctype(e.T)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((%s)%s)", ct, x), nil
	case *cfa.Unary:
		x, err := cs.expr(e.X)
		if err != nil {
			return "", err
		}
		ct, err := ctype(e.T)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((%s)(%s%s))", ct, e.Op, x), nil
	case *cfa.Binary:
		x, err := cs.expr(e.X)
		if err != nil {
			return "", err
		}
		y, err := cs.expr(e.Y)
		if err != nil {
			return "", err
		}
		xt, yt := e.X.Type(), e.Y.Type()
		if xt.Kind == cfa.Pointer && (e.Op == cfa.Add || e.Op == cfa.Sub) {
			et, err := ctype(xt.Elem)
			if err != nil || et == "void" {
				return "", fmt.Errorf("witness: the contract check computes with a pointer to %s", xt.Elem)
			}
			x = fmt.Sprintf("((%s *)%s)", et, x)
			if yt.Kind == cfa.Pointer {
				y = fmt.Sprintf("((%s *)%s)", et, y)
			}
		} else if yt.Kind == cfa.Pointer && e.Op == cfa.Add {
			et, err := ctype(yt.Elem)
			if err != nil || et == "void" {
				return "", fmt.Errorf("witness: the contract check computes with a pointer to %s", yt.Elem)
			}
			y = fmt.Sprintf("((%s *)%s)", et, y)
		}
		ct, err := ctype(e.T)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((%s)(%s %s %s))", ct, x, e.Op, y), nil
	case *cfa.Deref:
		x, err := cs.expr(e.X)
		if err != nil {
			return "", err
		}
		ct, err := ctype(e.T)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("(*(%s *)%s)", ct, x), nil
	case *cfa.AddrOf:
		x, err := cs.expr(e.X)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((void *)&%s)", x), nil
	}
	return "", fmt.Errorf("witness: the contract check evaluates %s, which the harness cannot print as C", e)
}

// write returns the reproducer's text.
func (cs *contractSource) write(c *ctx, fn string) string {
	p := c.v.Program
	sc := c.siteCheck()
	var b strings.Builder
	files := strings.Join(c.order, " ")
	fmt.Fprintf(&b, `/* Reproducer generated by reverify for a counterexample of %s:
 * %s
 * in the contract check of %s.
 *
 * Compile it together with the program (reproduce.sh) and run it. Its
 * main replays the check: the parameters get the counterexample's values,
 * the requires clauses' fresh objects are zero-filled heap blocks, the old
 * values are read, %s is called, and each condition the check tested on
 * the way to the failing clause is tested again. When every one comes out
 * as in the counterexample, the clause is false for these values: the
 * harness prints %q to stderr and exits with status %d; otherwise the run
 * left the counterexample and exits with status 0.
 */
`, comment(files), comment(c.contractMessage()), comment(fn), comment(fn), ReachedMarker, ReachedExitCode)
	fmt.Fprintf(&b, "/* The harness calls the contract check's function itself (see __wrap_main). */\n%s%s\n\n", buildFlagPrefix, wrapMainFlag)
	if qs := memQueries(p); len(qs) > 0 {
		fmt.Fprintf(&b, "/* The program calls %s: the harness computes them from\n * AddressSanitizer's memory. */\n%s-fsanitize=address\n%s-fno-omit-frame-pointer\n", strings.Join(qs, ", "), buildFlagPrefix, buildFlagPrefix)
	}
	b.WriteString(cbmcPrelude(p))
	b.WriteString(`#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
`)
	fmt.Fprintf(&b, `
%[1]s static void rv_reached(const char *how)
{
	fflush(stdout);
	fprintf(stderr, "%[2]s: %%s\n", how);
	fflush(stderr);
	_exit(%[3]d);
}

/* With %[4]s set, the reproducer exits before main: a probe of whether
 * the kernel executes it (reproduce.sh). */
__attribute__((constructor)) static void rv_probe(void)
{
	if (getenv("%[4]s"))
		_exit(0);
}

/* A condition of the check that does not come out as in the
 * counterexample: the run has left it. */
%[1]s static void rv_left(const char *where)
{
	fflush(stdout);
	fprintf(stderr, "reverify-reproducer: the contract check takes another branch at %%s: the run left the counterexample\n", where);
	_exit(0);
}

/* A fresh object of a requires clause (__CPROVER_is_fresh): a separate
 * heap block, its first bytes the counterexample's (init, k bytes), the
 * rest zero. */
%[1]s static void *rv_fresh(unsigned long long n, const unsigned char *init, unsigned long k)
{
	void *q = calloc(n ? n : 1, 1);
	if (!q) {
		fprintf(stderr, "reverify-reproducer: cannot allocate a fresh object of %%llu bytes\n", n);
		_exit(2);
	}
	if (init)
		memcpy(q, init, k < n ? k : n);
	return q;
}
`, rvFn, ReachedMarker, ReachedExitCode, ProbeEnv)
	if c.inBody() {
		fmt.Fprintf(&b, "/* Debugging information: addr2line tells where an assertion is called. */\n%s%s\n\n", buildFlagPrefix, debugFlag)
	}
	for _, tb := range cs.tables {
		b.WriteString("\n" + tb + "\n")
	}
	sc.writeSupport(&b)
	judge := "rv_not_reported(rv_buf);"
	if c.inBody() {
		// the reported assertion is the program's: judged by the
		// place of the failing call (site.go)
		judge = "rv_error(rv_buf, 0, 0, __builtin_return_address(0), rv_depth - 1);"
		a := assertFuncs["__assert_fail"]
		fmt.Fprintf(&b, "\n%s %s\n{\n\tchar rv_buf[1024];\n\n\t%s;\n\trv_error(rv_buf, file, (long)line, __builtin_return_address(0), rv_depth - 1);\n}\n", rvFn, a.proto, a.describe)
	}
	writeContractCBMC(&b, p, judge)
	sc.writeHooks(&b, "", false)
	b.WriteString("\n/* The program's objects the check names. */\n")
	sort.Strings(cs.decls)
	for _, d := range cs.decls {
		if strings.HasPrefix(d, "extern ") {
			b.WriteString(d + "\n")
		}
	}
	fmt.Fprintf(&b, `
int __wrap_main(int argc, char **argv, char **envp);

int __wrap_main(int argc, char **argv, char **envp)
{
`)
	for _, d := range cs.decls {
		if !strings.HasPrefix(d, "extern ") {
			b.WriteString("\t" + d + "\n")
		}
	}
	b.WriteString("\n\t(void)argc;\n\t(void)argv;\n\t(void)envp;\n")
	for _, s := range cs.body {
		b.WriteString("\t" + s + "\n")
	}
	fmt.Fprintf(&b, "\trv_reached(%q);\n\treturn 0;\n}\n", "the contract check fails the "+c.contractMessage())
	b.WriteString(cbmcClose(p))
	return b.String()
}

// writeContractCBMC defines the dialect's functions the program's files
// may call (cbmcFuncs) unless the program defines them: an assumption
// that fails has left the counterexample, an assertion that fails is
// not the reported one (the failing clause is no assertion of the
// compiled program). The program as translated also calls the
// primitives of its generated contract code, which the compiled program
// does not have, so cbmcDefs would refuse it.
func writeContractCBMC(b *strings.Builder, p *cfa.Program, judge string) {
	if !p.CBMC {
		return
	}
	if p.Func("__CPROVER_assume") == nil {
		fmt.Fprintf(b, `
%s void __CPROVER_assume(__CPROVER_bool cond)
{
	if (!cond) {
		fflush(stdout);
		fprintf(stderr, "reverify-reproducer: __CPROVER_assume failed: the run left the counterexample\n");
		_exit(0);
	}
}
`, rvFn)
	}
	for _, name := range cbmcFuncs[1:] {
		if p.Func(name) != nil {
			continue
		}
		fmt.Fprintf(b, `
%[2]s void %[1]s(__CPROVER_bool cond, const char *description)
{
	char rv_buf[1024];

	if (cond)
		return;
	snprintf(rv_buf, sizeof rv_buf, "%[1]s(\"%%s\")", description ? description : "");
	%[3]s
}
`, name, rvFn, judge)
	}
	b.WriteString(memQueryDefs(p))
}

// contractChoice reports whether input in is the choice that makes a
// requires clause's check in a contract as a function fail: the harness
// needs no value for it (the wrapper of contract.WrapRequires asserts the
// clause).
func (c *ctx) contractChoice(in results.Input) bool {
	if in.Source != "contract check" || in.Step < 0 || in.Step >= len(c.v.Path) || c.v.Path[in.Step].Edge == nil {
		return false
	}
	return strings.HasPrefix(c.v.Path[in.Step].Edge.From.Func.Name, cfa.ContractUsePrefix)
}

// calledOutsideContracts reports whether a function of p that is not
// generated (a contract's check or use, cfa.Generated) calls name, other
// than in the assigns tests contract.Instrument adds (their results are
// generated temporaries): the generated code is not part of the compiled
// program, so the primitives only it calls need no definition.
func calledOutsideContracts(p *cfa.Program, name string) bool {
	for _, e := range p.Edges {
		call, ok := e.Op.(*cfa.Call)
		if !ok || call.Fn != name || e.From == nil || e.From.Func == nil || cfa.Generated(e.From.Func.Name) {
			continue
		}
		if v := cfa.BaseVar(call.Result); v != nil && cfa.Generated(v.Name) {
			continue // an assigns test contract.Instrument put before a write
		}
		return true
	}
	return false
}

// allocOrdinal returns the ordinal of the last allocation (malloc,
// calloc, alloca, counted from 1 over the path, as engine/interp and
// smt.HeapBlock count them) among steps from to to, 0 when they make
// none.
func (c *ctx) allocOrdinal(from, to int) int {
	n, last := 0, 0
	for i := 0; i <= to && i < len(c.v.Path); i++ {
		s := c.v.Path[i]
		if s.Edge == nil || s.Kind != cfa.Intra {
			continue
		}
		call, ok := s.Edge.Op.(*cfa.Call)
		if !ok {
			continue
		}
		switch call.Fn {
		case "malloc", "calloc", "alloca", "__builtin_alloca":
			n++
			if i >= from {
				last = n
			}
		}
	}
	return last
}

// query replays a memory query of the check (memQueryFuncs).
func (cs *contractSource) query(call *cfa.Call) (string, error) {
	var args []string
	for _, a := range call.Args {
		x, err := cs.expr(a)
		if err != nil {
			return "", err
		}
		args = append(args, x)
	}
	q := fmt.Sprintf("%s(%s, (__CPROVER_size_t)%s)", call.Fn, args[0], args[1])
	if call.Result == nil {
		return "(void)" + q + ";", nil
	}
	r, err := cs.expr(call.Result)
	if err != nil {
		return "", err
	}
	return r + " = " + q + ";", nil
}

// bodyInputs returns why the inputs the counterexample reads inside the
// call of the check's function (from step from on) keep the harness from
// replaying it, nil when none counts: an uninitialised local that is
// read (as the generic reproducer judges it), a nondeterministic value
// or an external function's result, which the harness does not supply.
func (c *ctx) bodyInputs(from int) error {
	unobserved := c.unobserved()
	for i, in := range c.v.Inputs {
		if in.Step < from || in.Step >= c.target {
			continue
		}
		vs, ok := c.site(in.Step)
		at := c.v.Path[in.Step].Edge.Pos.Start.String()
		if !ok {
			return fmt.Errorf("witness: the counterexample reads %s inside the contract check's function at %s, which the harness does not supply", in.Source, at)
		}
		if mallocChoice(in.Source, c.v.Path[in.Step].Edge) {
			if in.Bits != 0 {
				return fmt.Errorf("witness: the counterexample lets an allocation at %s fail inside the contract check's function, which the harness does not arrange", at)
			}
			continue
		}
		if vs.Kind == witness.SiteUninit && (!c.relevant(in.Step, vs) || unobserved[i]) {
			continue
		}
		return c.dependsErr(in.Step, vs, at)
	}
	return nil
}
