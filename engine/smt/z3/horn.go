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

// reverify_horn adds the Horn clauses of script (SMT-LIB: declare-fun
// and assert of universally quantified implications) to a fixedpoint
// context with the Spacer engine and runs its one query: 1 derivable, -1 not derivable, 0 unknown, -2 an API error.
// *why receives a copy (malloc'd) of the reason for unknown or the
// error's message, *answer one of the solution for -1.
static char *reverify_copy(Z3_string s) {
	size_t n = 0;
	while (s[n]) n++;
	char *r = malloc(n + 1);
	for (size_t i = 0; i <= n; i++) r[i] = s[i];
	return r;
}

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
	"sync"
	"unsafe"

	"github.com/reverify/reverify/engine/smt"
)

// SolveHorn decides a system of constrained Horn clauses with Z3's
// Spacer engine (IC3/PDR generalised to Horn clauses over theories:
// Komuravelli, Gurfinkel, Chaki, "SMT-based model checking for recursive
// programs", CAV 2014), in a Z3 context of its own: the system is
// written as an SMT-LIB script in the HORN logic (smt.HornSystem.SMTLIB)
// and evaluated through the C API (go-z3 has no fixedpoint or
// quantifier calls). Sat: the clauses have a solution (no query is
// derivable), with the solution Spacer gives (its answer read by
// smt.HornSystem.ReadSolution); Unsat: a query is derivable; Unknown
// with an error when
// Spacer gives up, the script is rejected, or ctx is done (Z3_interrupt
// stops the evaluation).
func (s *solver) SolveHorn(ctx context.Context, b *smt.Builder, h *smt.HornSystem) (smt.Result, smt.HornSolution, error) {
	return SolveHorn(ctx, b, h)
}

// SolveHorn is solver.SolveHorn without a solver (smt.HornSolver).
func SolveHorn(ctx context.Context, b *smt.Builder, h *smt.HornSystem) (smt.Result, smt.HornSolution, error) {
	if err := ctx.Err(); err != nil {
		return smt.Unknown, nil, err
	}
	script := C.CString(h.SMTLIB())
	defer C.free(unsafe.Pointer(script))
	zc := C.reverify_horn_context()
	defer C.Z3_del_context(zc)
	stop := interruptOnDone(ctx, zc)
	var why, answer *C.char
	r := C.reverify_horn(zc, script, &why, &answer)
	stop()
	reason, text := "", ""
	if why != nil {
		reason = C.GoString(why)
		C.free(unsafe.Pointer(why))
	}
	if answer != nil {
		text = C.GoString(answer)
		C.free(unsafe.Pointer(answer))
	}
	if err := ctx.Err(); err != nil {
		return smt.Unknown, nil, err
	}
	switch r {
	case 1:
		return smt.Unsat, nil, nil
	case -1:
		sol, _ := h.ReadSolution(b, text) // an unreadable answer leaves the relations out
		return smt.Sat, sol, nil
	case 0:
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
