package validate_test

import (
	"path/filepath"
	"testing"

	"github.com/reverify/reverify/engine/witness/witnesstest"
)

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	witnesstest.Golden(t, filepath.Join("testdata", name), got)
}
