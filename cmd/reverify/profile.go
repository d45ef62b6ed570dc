package main

import (
	"os"
	"runtime/pprof"
)

// startCPUProfile starts a Go CPU profile written to path (the
// --cpuprofile flag of check and proofs) and returns the function that
// stops it and closes the file; with path "" it does nothing. Errors are
// those of creating the file or starting the profile.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
