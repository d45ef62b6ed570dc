package witness

import "testing"

// Golden lets the black-box tests (package witness_test) share golden
// and the -update flag.
func Golden(t *testing.T, name string, got []byte) { golden(t, name, got) }
