package spacer

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// ChildEnv, set in a process's environment, makes it a solver process.
const ChildEnv = "REVERIFY_SPACER_CHILD"

// childMemory is the address-space limit of a solver process (bytes).
const childMemory = 4 << 30

func init() {
	if os.Getenv(ChildEnv) != "" {
		child()
	}
}

// Solver is an smt.HornSolver that runs each system in a solver process,
// killed when the context is done.
type Solver struct{}

// SolveHorn implements smt.HornSolver: Sat with Spacer's solution,
// Unsat, or Unknown with an error when Spacer gives up, the process
// fails (a crash) or ctx is done.
func (Solver) SolveHorn(ctx context.Context, b *smt.Builder, h *smt.HornSystem) (smt.Result, smt.HornSolution, error) {
	head, reason, text, err := solveScript(ctx, h.SMTLIB())
	if err != nil {
		return smt.Unknown, nil, err
	}
	return z3.HornAnswer(b, h, head, reason, text)
}

// solveScript runs a solver process on the SMT-LIB Horn clauses script
// and returns its answer (z3.SolveHornScript's three parts), or an error
// when the process fails or ctx is done.
func solveScript(ctx context.Context, script string) (head, reason, text string, err error) {
	if err := ctx.Err(); err != nil {
		return "", "", "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", "", "", fmt.Errorf("spacer: %v", err)
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), ChildEnv+"=1")
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

// child solves the clauses on standard input and writes the answer's
// three parts to standard output (head line, reason line, Spacer's
// answer), then ends the process.
func child() {
	lim := uint64(childMemory)
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim})
	script, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(3)
	}
	head, reason, text := z3.SolveHornScript(context.Background(), string(script))
	fmt.Fprintf(os.Stdout, "%s\n%s\n%s", head, reason, text)
	os.Exit(0)
}
