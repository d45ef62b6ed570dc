package reproduce

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/witnesstest"
)

// testdata is where the test programs and the golden reproducer are:
// the witness writers' test programs (engine/witness/testdata), shared.
var testdata = filepath.Join("..", "testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	witnesstest.Golden(t, filepath.Join(testdata, name), got)
}

var fixedTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

const fixedUUID = "0f8e1d2c-3b4a-4596-8877-665544332211"

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdata, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// violationFor translates testdata/file, runs it with vals and returns the
// violation (failing if the run does not reach the error).
func violationFor(t *testing.T, file string, dm cfa.DataModel, specification string, vals []uint64, o witnesstest.ExecOpts) *witness.Violation {
	t.Helper()
	src := readTestdata(t, file)
	p := witnesstest.Translate(t, dm, file, src)
	path, inputs, reached := witnesstest.Execute(t, p, "main", vals, o)
	if !reached {
		t.Fatalf("%s with %v does not reach the error", file, vals)
	}
	return &witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{
		Files:         []string{file},
		Contents:      map[string]string{file: src},
		Entry:         "main",
		Specification: specification,
		DataModel:     dm,
		Producer:      "reverify",
		Version:       "0.0.0-test",
		Configuration: "value",
		UUID:          fixedUUID,
		Created:       fixedTime,
	}}
}
