package solverproc

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/smtlib"
	"github.com/reverify/reverify/engine/smt/z3"
)

// Horn is an smt.HornSolver that decides each system with Z3's Spacer
// (engine/smt/z3.SolveHornScript) in a solver process, killed when the
// context is done: Spacer in Z3 4.8.12 dies with SIGSEGV on some
// bit-vector clause sets, and a crash must cost one answer, not the
// verifier. The process's heap may grow to Memory bytes less what this
// process holds (at least minChildMemory; 0: 4 GiB).
type Horn struct{ Memory int64 }

// SolveHorn implements smt.HornSolver: Sat with Spacer's solution,
// Unsat, or Unknown with an error when Spacer gives up, the process
// fails (a crash) or ctx is done.
func (h Horn) SolveHorn(ctx context.Context, b *smt.Builder, sys *smt.HornSystem) (smt.Result, smt.HornSolution, error) {
	head, reason, text, err := solveScript(ctx, childLimit(h.Memory), smtlib.Horn(sys))
	if err != nil {
		return smt.Unknown, nil, err
	}
	return z3.HornAnswer(b, sys, head, reason, text)
}

// solveScript runs a solver process on the SMT-LIB Horn clauses script
// and returns its answer (z3.SolveHornScript's three parts), or an error
// when the process fails or ctx is done.
func solveScript(ctx context.Context, limit int64, script string) (head, reason, text string, err error) {
	out, err := runChild(ctx, modeHorn, limit, script)
	if err != nil {
		return "", "", "", err
	}
	head, rest, ok := strings.Cut(out, "\n")
	reason, text, _ = strings.Cut(rest, "\n")
	switch {
	case !ok:
		return "", "", "", fmt.Errorf("spacer: no answer from the solver process")
	case head == "sat", head == "unsat", head == "unknown", head == "rejected":
		return head, reason, text, nil
	}
	return "", "", "", fmt.Errorf("spacer: the solver process answered %q", head)
}

// hornChild solves the clauses on standard input and writes the
// answer's three parts to standard output (head line, reason line,
// Spacer's answer).
func hornChild(script string) {
	head, reason, text := z3.SolveHornScript(context.Background(), script)
	fmt.Fprintf(os.Stdout, "%s\n%s\n%s", head, reason, text)
}
