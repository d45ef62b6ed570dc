package solverproc

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the solver process when this
// process ends (prctl PR_SET_PDEATHSIG): a process stopped while its
// arm waits for a turn (watch) would otherwise stay stopped, with its
// memory, after the verifier was killed at its limit. The signal follows
// the exit of the thread that started the child; the Go runtime ends a
// thread only when a goroutine locked to it exits, and nothing here
// locks one.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
