package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>

static void reverify_ignore_error(Z3_context c, Z3_error_code e) { (void)c; (void)e; }

static Z3_context reverify_horn_context(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_context c = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(c, reverify_ignore_error);
	return c;
}

// reverify_copy returns a malloc'd copy of s.
static char *reverify_copy(Z3_string s) {
	size_t n = 0;
	while (s[n]) n++;
	char *r = malloc(n + 1);
	for (size_t i = 0; i <= n; i++) r[i] = s[i];
	return r;
}

// reverify_horn adds the Horn clauses of script (Z3's fixedpoint format:
// declare-rel, rule, query) to a fixedpoint context with the Spacer
// engine and runs its one query: 1 derivable, -1 not derivable, 0
// unknown, -2 an API error. *why receives a copy (malloc'd) of the
// reason for unknown or the error's message, *answer one of the
// solution for -1.
static int reverify_horn(Z3_context c, const char *script, char **why, char **answer) {
	*why = NULL;
	*answer = NULL;
	Z3_fixedpoint fp = Z3_mk_fixedpoint(c);
	Z3_fixedpoint_inc_ref(c, fp);
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_symbol(c, p, Z3_mk_string_symbol(c, "engine"), Z3_mk_string_symbol(c, "spacer"));
	Z3_fixedpoint_set_params(c, fp, p);
	Z3_params_dec_ref(c, p);
	int r = -2;
	Z3_ast_vector qs = Z3_fixedpoint_from_string(c, fp, script);
	if (Z3_get_error_code(c) == Z3_OK) {
		Z3_ast_vector_inc_ref(c, qs);
		if (Z3_ast_vector_size(c, qs) == 1) {
			Z3_lbool a = Z3_fixedpoint_query(c, fp, Z3_ast_vector_get(c, qs, 0));
			if (Z3_get_error_code(c) == Z3_OK) {
				r = a == Z3_L_TRUE ? 1 : a == Z3_L_FALSE ? -1 : 0;
			}
			if (r == -1) {
				Z3_ast ans = Z3_fixedpoint_get_answer(c, fp);
				if (Z3_get_error_code(c) == Z3_OK && ans != NULL) {
					*answer = reverify_copy(Z3_ast_to_string(c, ans));
				}
			}
		}
		Z3_ast_vector_dec_ref(c, qs);
	}
	Z3_string msg = NULL;
	if (r == -2) {
		msg = Z3_get_error_msg(c, Z3_get_error_code(c));
	} else if (r == 0) {
		msg = Z3_fixedpoint_get_reason_unknown(c, fp);
	}
	if (msg != NULL) {
		*why = reverify_copy(msg);
	}
	Z3_fixedpoint_dec_ref(c, fp);
	return r;
}
*/
import "C"

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/smtlib"
)

// SolveHornScript decides the SMT-LIB Horn clauses script (the text of
// smt.HornSystem.SMTLIB) with Z3's Spacer engine (IC3/PDR generalised to
// Horn clauses over theories: Komuravelli, Gurfinkel, Chaki, "SMT-based
// model checking for recursive programs", CAV 2014) through Z3's
// fixedpoint API (go-z3 has no fixedpoint or quantifier calls), in this
// process and a Z3 context of its own; a done ctx interrupts it. head is
// "sat" (the clauses have a solution; text is Spacer's answer, for
// smtlib.ReadSolution), "unsat" (a query is derivable),
// "unknown" or "rejected" (reason says why). Spacer in Z3 4.8.12 dies
// with SIGSEGV on some bit-vector clause sets: the verifier runs it in a
// child process (package solverproc); in-process calls are for tests.
func SolveHornScript(ctx context.Context, script string) (head, reason, text string) {
	cs := C.CString(script)
	defer C.free(unsafe.Pointer(cs))
	zc := C.reverify_horn_context()
	defer C.Z3_del_context(zc)
	stop := interruptOnDone(ctx, zc)
	var why, answer *C.char
	r := C.reverify_horn(zc, cs, &why, &answer)
	stop()
	if why != nil {
		reason = strings.Join(strings.Fields(C.GoString(why)), " ")
		C.free(unsafe.Pointer(why))
	}
	if answer != nil {
		text = C.GoString(answer)
		C.free(unsafe.Pointer(answer))
	}
	switch r {
	case 1:
		return "unsat", reason, ""
	case -1:
		return "sat", reason, text
	case 0:
		return "unknown", reason, ""
	}
	return "rejected", reason, ""
}

// InProcess is an smt.HornSolver that runs SolveHornScript in this
// process: for tests whose clauses are known not to crash Z3.
type InProcess struct{}

// SolveHorn implements smt.HornSolver.
func (InProcess) SolveHorn(ctx context.Context, b *smt.Builder, h *smt.HornSystem) (smt.Result, smt.HornSolution, error) {
	if err := ctx.Err(); err != nil {
		return smt.Unknown, nil, err
	}
	head, reason, text := SolveHornScript(ctx, smtlib.Horn(h))
	if err := ctx.Err(); err != nil {
		return smt.Unknown, nil, err
	}
	return HornAnswer(b, h, head, reason, text)
}

// HornAnswer turns SolveHornScript's answer into SolveHorn's results.
func HornAnswer(b *smt.Builder, h *smt.HornSystem, head, reason, text string) (smt.Result, smt.HornSolution, error) {
	switch head {
	case "unsat":
		return smt.Unsat, nil, nil
	case "sat":
		sol, _ := smtlib.ReadSolution(h, b, text) // an unreadable answer leaves the relations out
		return smt.Sat, sol, nil
	case "unknown":
		return smt.Unknown, nil, fmt.Errorf("spacer: %s", reason)
	}
	return smt.Unknown, nil, fmt.Errorf("spacer: the Horn clauses were rejected: %s", reason)
}

// interruptOnDone interrupts the Z3 context zc when ctx is done, until
// the returned stop is called (which waits for a running interrupt).
func interruptOnDone(ctx context.Context, zc C.Z3_context) (stop func()) {
	var mu sync.Mutex
	done := false
	quit := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			mu.Lock()
			if !done {
				C.Z3_interrupt(zc)
			}
			mu.Unlock()
		case <-quit:
		}
	}()
	return func() {
		mu.Lock()
		done = true
		mu.Unlock()
		close(quit)
	}
}
