package pdg

// SetRestLimit changes restLimit for a test and returns the function that
// restores it.
func SetRestLimit(n int) (restore func()) {
	old := restLimit
	restLimit = n
	return func() { restLimit = old }
}
