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
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/reverify/reverify/engine/smt"
)

// SolveHorn decides a system of constrained Horn clauses with Z3's
// Spacer engine (IC3/PDR generalised to Horn clauses over theories:
// Komuravelli, Gurfinkel, Chaki, "SMT-based model checking for recursive
// programs", CAV 2014). The system is written as SMT-LIB Horn clauses
// (smt.HornSystem.SMTLIB) and solved through Z3's fixedpoint API (go-z3
// has no fixedpoint or quantifier calls) in a child process: this
// program run again with hornChildEnv set (init hands the process to
// hornChild), because Spacer in Z3 4.8.12 crashes (SIGSEGV) on some
// bit-vector clause sets, which must not take the verifier down. Sat:
// the clauses have a solution (no query is derivable), with the solution
// Spacer gives (its answer read by smt.HornSystem.ReadSolution); Unsat:
// a query is derivable; Unknown with an error when Spacer gives up, the
// script is rejected, the child fails, or ctx is done (the child is
// killed).
func (s *solver) SolveHorn(ctx context.Context, b *smt.Builder, h *smt.HornSystem) (smt.Result, smt.HornSolution, error) {
	return SolveHorn(ctx, b, h)
}

// SolveHorn is solver.SolveHorn without a solver (smt.HornSolver).
func SolveHorn(ctx context.Context, b *smt.Builder, h *smt.HornSystem) (smt.Result, smt.HornSolution, error) {
	if err := ctx.Err(); err != nil {
		return smt.Unknown, nil, err
	}
	head, reason, text, err := solveScript(ctx, h.SMTLIB())
	if err != nil {
		return smt.Unknown, nil, err
	}
	switch head {
	case "unsat":
		return smt.Unsat, nil, nil
	case "sat":
		sol, _ := h.ReadSolution(b, text) // an unreadable answer leaves the relations out
		return smt.Sat, sol, nil
	case "unknown":
		return smt.Unknown, nil, fmt.Errorf("spacer: %s", reason)
	}
	return smt.Unknown, nil, fmt.Errorf("spacer: the Horn clauses were rejected: %s", reason)
}

// solveScript runs a child on the SMT-LIB Horn clauses script and
// returns its answer (hornChild's three parts), or an error when the
// child fails or ctx is done.
func solveScript(ctx context.Context, script string) (head, reason, text string, err error) {
	if err := ctx.Err(); err != nil {
		return "", "", "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", "", "", fmt.Errorf("spacer: %v", err)
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), hornChildEnv+"=1")
	cmd.Stdin = strings.NewReader(script)
	cmd.Stderr = io.Discard
	out, err := cmd.Output()
	if cerr := ctx.Err(); cerr != nil {
		return "", "", "", cerr
	}
	if err != nil {
		return "", "", "", fmt.Errorf("spacer: the solver process failed (%v)", err)
	}
	head, rest, ok := strings.Cut(string(out), "\n")
	reason, text, _ = strings.Cut(rest, "\n")
	switch {
	case !ok:
		return "", "", "", fmt.Errorf("spacer: no answer from the solver process")
	case head == "sat", head == "unsat", head == "unknown", head == "rejected":
		return head, reason, text, nil
	}
	return "", "", "", fmt.Errorf("spacer: the solver process answered %q", head)
}

// hornChildEnv, set in a process's environment, makes it a Horn solver
// child of SolveHorn.
const hornChildEnv = "REVERIFY_Z3_HORN_CHILD"

// hornChildMemory is the address-space limit of a child (bytes).
const hornChildMemory = 4 << 30

func init() {
	if os.Getenv(hornChildEnv) != "" {
		hornChild()
	}
}

// hornChild solves the Horn clauses on standard input and writes three
// parts to standard output: "sat", "unsat", "unknown" or "rejected" on
// the first line, the reason on the second, and for sat Spacer's answer;
// then it ends the process.
func hornChild() {
	lim := uint64(hornChildMemory)
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim})
	script, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(3)
	}
	cs := C.CString(string(script))
	zc := C.reverify_horn_context()
	var why, answer *C.char
	r := C.reverify_horn(zc, cs, &why, &answer)
	reason, text := "", ""
	if why != nil {
		reason = C.GoString(why)
	}
	if answer != nil {
		text = C.GoString(answer)
	}
	head := map[C.int]string{1: "unsat", -1: "sat", 0: "unknown"}[r]
	if head == "" {
		head = "rejected"
	}
	fmt.Fprintf(os.Stdout, "%s\n%s\n%s", head, strings.Join(strings.Fields(reason), " "), text)
	os.Exit(0)
}
