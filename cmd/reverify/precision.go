package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
)

// readInitialPrecision reads a results.json of an earlier run
// (results.Report, written by check --json or --output) and returns, by
// property ID, the precision each property ended with, for
// engine.Config.InitialPrecision (check --initial-precision), parsed by
// engine.ParsePrecision. Properties without a precision are left out.
// Entries are only checked for syntax: entries naming functions, variables or locations
// that the program no longer has are ignored by the analysis, so a stale
// file costs refinements, never soundness.
//
// Errors say what and where in one line: a file that cannot be read, is
// not JSON (with line and column), is not a results.json (no schema or
// properties, a newer schema), or holds a malformed entry (with the
// property ID).
func readInitialPrecision(path string) (map[string]engine.Precision, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep struct {
		Schema     *int `json:"schema"`
		Properties []struct {
			ID        string   `json:"id"`
			Precision []string `json:"precision"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := lineCol(data, se.Offset)
			return nil, fmt.Errorf("%s:%d:%d: not JSON: %v", path, line, col, err)
		case errors.As(err, &te):
			line, col := lineCol(data, te.Offset)
			return nil, fmt.Errorf("%s:%d:%d: not a results.json: %v", path, line, col, err)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	switch {
	case rep.Schema == nil || rep.Properties == nil:
		return nil, fmt.Errorf("%s: not a results.json (no \"schema\" or \"properties\")", path)
	case *rep.Schema > results.SchemaVersion:
		return nil, fmt.Errorf("%s: results.json schema %d is newer than this reverify's (%d)", path, *rep.Schema, results.SchemaVersion)
	}
	out := map[string]engine.Precision{}
	for i, p := range rep.Properties {
		if p.ID == "" {
			return nil, fmt.Errorf("%s: property %d has no \"id\"", path, i+1)
		}
		prec, err := engine.ParsePrecision(p.Precision)
		if err != nil {
			return nil, fmt.Errorf("%s: property %s: %v", path, p.ID, err)
		}
		if len(p.Precision) > 0 {
			out[p.ID] = prec
		}
	}
	return out, nil
}

// lineCol converts a byte offset into data to a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}
