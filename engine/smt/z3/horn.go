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

// reverify_eval evaluates an SMT-LIB script and returns a copy of its
// output (malloc'd) or NULL on an API error.
static char *reverify_eval(Z3_context c, const char *script) {
	Z3_string out = Z3_eval_smtlib2_string(c, script);
	if (Z3_get_error_code(c) != Z3_OK || out == NULL) {
		return NULL;
	}
	size_t n = 0;
	while (out[n]) n++;
	char *r = malloc(n + 1);
	for (size_t i = 0; i <= n; i++) r[i] = out[i];
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
)

// SolveHorn decides a system of constrained Horn clauses with Z3's
// Spacer engine (IC3/PDR generalised to Horn clauses over theories:
// Komuravelli, Gurfinkel, Chaki, "SMT-based model checking for recursive
// programs", CAV 2014), in a Z3 context of its own: the system is
// written as an SMT-LIB script in the HORN logic (smt.HornSystem.SMTLIB)
// and evaluated through the C API (go-z3 has no fixedpoint or
// quantifier calls). Sat: the clauses have a solution (no query is
// derivable); Unsat: a query is derivable; Unknown with an error when
// Spacer gives up, the script is rejected, or ctx is done (Z3_interrupt
// stops the evaluation).
func (s *solver) SolveHorn(ctx context.Context, h *smt.HornSystem) (smt.Result, error) {
	return SolveHorn(ctx, h)
}

// SolveHorn is solver.SolveHorn without a solver (smt.HornSolver).
func SolveHorn(ctx context.Context, h *smt.HornSystem) (smt.Result, error) {
	text, err := evalScript(ctx, h.SMTLIB())
	if err != nil {
		return smt.Unknown, err
	}
	return hornAnswer(text)
}

// evalScript evaluates an SMT-LIB script in a fresh Z3 context and
// returns its output; a done ctx interrupts the evaluation (ctx's error).
func evalScript(ctx context.Context, text string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	script := C.CString(text)
	defer C.free(unsafe.Pointer(script))
	zc := C.reverify_horn_context()
	var mu sync.Mutex
	done := false
	stop := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			mu.Lock()
			if !done {
				C.Z3_interrupt(zc)
			}
			mu.Unlock()
		case <-stop:
		}
	}()
	out := C.reverify_eval(zc, script)
	mu.Lock()
	done = true
	mu.Unlock()
	close(stop)
	var res string
	if out != nil {
		res = C.GoString(out)
		C.free(unsafe.Pointer(out))
	}
	C.Z3_del_context(zc)
	if out == nil {
		return "", fmt.Errorf("spacer: the Horn clauses were rejected")
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return res, nil
}

// hornAnswer reads check-sat's answer from the script's output.
func hornAnswer(text string) (smt.Result, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "(error") {
			return smt.Unknown, fmt.Errorf("spacer: %s", strings.TrimSpace(l))
		}
	}
	switch strings.TrimSpace(lines[len(lines)-1]) {
	case "sat":
		return smt.Sat, nil
	case "unsat":
		return smt.Unsat, nil
	}
	return smt.Unknown, fmt.Errorf("spacer: no answer (%q)", strings.TrimSpace(text))
}
