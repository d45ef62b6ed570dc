package main

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/reverify/reverify/engine"
)

// exitProcess ends the process; tests replace it.
var exitProcess = os.Exit

// watchPhase holds the work of a run that no property's budget covers
// (reading and translating the sources, loading the revisions of a pull
// request, the dependence graphs) to the run's limits
// (engine.PhaseWatch): the time limit of one property, counted in the
// process's CPU time whatever the run's clock (the phase runs alone, so
// its CPU time is its work, and a loaded machine does not end it), and
// the memory of the properties verified at once (--memory times the
// workers). Past either the run ends with a one-line error
// ("reverify: reading the sources of big.c needs more than the memory
// limit of 1.5GiB (1.6GiB in use); no property was checked") and exit
// status 2, before the system would kill the process for memory and
// lose every result. Stop the watch where the properties' own budgets
// begin (engine.Verify's watchdog).
func (s runSettings) watchPhase(what string, stderr io.Writer) *engine.PhaseWatch {
	memory := s.memory
	if memory == 0 {
		memory = engine.DefaultMemoryLimit
	}
	w := workers(s.clock, s.jobs)
	if w <= 0 {
		w = runtime.NumCPU()
	}
	return engine.StartPhaseWatch(what, engine.ProcessCPU, s.timeout, memory*uint64(w), func(msg string) {
		fmt.Fprintf(stderr, "reverify: %s; no property was checked\n", msg)
		exitProcess(2)
	})
}

// describeFiles names the input files in a message: the first, and how
// many more.
func describeFiles(files []string) string {
	switch len(files) {
	case 0:
		return "no files"
	case 1:
		return files[0]
	}
	return fmt.Sprintf("%s and %d more files", files[0], len(files)-1)
}
