package solverproc

import "syscall"

// dieWithParent is the solver process's attributes that make the kernel
// kill it when this process ends (prctl PR_SET_PDEATHSIG): a process
// stopped while its arm waits for a turn (watch) would otherwise stay
// stopped, with its memory, after the verifier was killed at its limit.
// The signal follows the exit of the thread that started the child; the
// Go runtime ends a thread only when a goroutine locked to it exits, and
// nothing here locks one.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
