package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Status classifies a result against the task's expected verdict.
type Status string

// Statuses of a Row.
const (
	Correct Status = "correct"
	Wrong   Status = "wrong"
	Unknown Status = "unknown"
	// Overflow: FALSE on a task labelled TRUE whose counterexample
	// overflows a signed integer (Row.OverflowAt); a wrong FALSE for
	// SV-COMP's scoring, listed separately.
	Overflow Status = "overflow"
)

// Verdicts as rows record them.
const (
	VerdictTrue    = "TRUE"
	VerdictFalse   = "FALSE"
	VerdictUnknown = "UNKNOWN"
)

// Row is the result of one task under one configuration (or peer).
type Row struct {
	Task    string  // path of the task definition (.yml), absolute
	Config  string  // reverify configuration, or peer name (frama-c-eva, cbmc)
	Timeout float64 // CPU-time limit, seconds
	// SignedOverflow is reverify's signed-overflow mode (wrap,
	// assume-none), or "" for peers.
	SignedOverflow string
	Expected       string // "true", "false", or "" when the task has no label
	Verdict        string // TRUE, FALSE, UNKNOWN
	Status         Status
	CPU            float64 // CPU seconds of the child process (user + system)
	Wall           float64 // wall-clock seconds
	MemMiB         float64 // peak resident set size (maxrss), MiB
	// OverflowAt is file:line:col of the first signed overflow on a FALSE
	// counterexample under wrap-around semantics.
	OverflowAt string
	Reason     string // why UNKNOWN, or the tool's explanation
}

// Key identifies a run for resuming: task, configuration, CPU limit and
// signed-overflow mode.
func (r Row) Key() string {
	return fmt.Sprintf("%s\x00%s\x00%g\x00%s", r.Task, r.Config, r.Timeout, r.SignedOverflow)
}

// Classify sets r.Status (and turns the verdict into UNKNOWN with reason
// "timeout" when the CPU time exceeds the limit): Correct when the
// verdict matches the expected one, Overflow for a FALSE against TRUE
// with r.OverflowAt set, Wrong for other mismatches, Unknown for
// UNKNOWN and for tasks without a label.
func (r *Row) Classify() {
	if r.Timeout > 0 && r.CPU > r.Timeout && r.Verdict != VerdictUnknown {
		r.Verdict = VerdictUnknown
		r.Reason = fmt.Sprintf("timeout (CPU time %.1f s over the limit; the tool answered too late)", r.CPU)
	}
	switch {
	case r.Verdict != VerdictTrue && r.Verdict != VerdictFalse:
		r.Verdict, r.Status = VerdictUnknown, Unknown
	case r.Expected == "":
		r.Status = Unknown
		if r.Reason == "" {
			r.Reason = "task has no expected verdict"
		}
	case strings.EqualFold(r.Verdict, r.Expected):
		r.Status = Correct
	case r.Verdict == VerdictFalse && r.OverflowAt != "":
		r.Status = Overflow
	default:
		r.Status = Wrong
	}
}

// classifyWants sets the Status of a verdict program's row: Correct
// when every property was as the program wants, Wrong otherwise (a run
// that did not finish included).
func (r *Row) classifyWants() {
	if r.Verdict == VerdictMet {
		r.Status = Correct
		return
	}
	r.Verdict, r.Status = VerdictNotMet, Wrong
}

// Score is the SV-COMP score of r (0 for a verdict program's row).
func (r Row) Score() int {
	if r.Expected == ExpectedWants {
		return 0
	}
	switch r.Status {
	case Correct:
		if r.Verdict == VerdictTrue {
			return 2
		}
		return 1
	case Wrong, Overflow:
		if r.Verdict == VerdictTrue {
			return -32
		}
		return -16
	}
	return 0
}

// header is the CSV header; ReadCSV requires it.
var header = []string{"task", "config", "timeout_s", "signed_overflow", "expected", "verdict", "status",
	"cpu_s", "wall_s", "mem_mib", "overflow_at", "reason"}

func (r Row) record() []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	return []string{r.Task, r.Config, strconv.FormatFloat(r.Timeout, 'g', -1, 64), r.SignedOverflow, r.Expected,
		r.Verdict, string(r.Status), f(r.CPU), f(r.Wall), f(r.MemMiB), r.OverflowAt, r.Reason}
}

// ReadCSV reads rows written by a CSVWriter. A truncated last line (a run
// killed while writing) is dropped; any other malformed line is an error
// naming its line number.
func ReadCSV(rd io.Reader) ([]Row, error) {
	cr := csv.NewReader(rd)
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		// A partial final record: keep what parsed.
		if pe, ok := err.(*csv.ParseError); !ok || pe.Err != csv.ErrQuote {
			return nil, err
		}
	}
	if len(recs) == 0 {
		return nil, nil
	}
	if strings.Join(recs[0], ",") != strings.Join(header, ",") {
		return nil, fmt.Errorf("line 1: not a reverify bench CSV header: %q", strings.Join(recs[0], ","))
	}
	var rows []Row
	for i, rec := range recs[1:] {
		if len(rec) != len(header) {
			if i == len(recs)-2 {
				break // truncated last line
			}
			return nil, fmt.Errorf("line %d: %d fields, want %d", i+2, len(rec), len(header))
		}
		num := func(j int) (float64, error) {
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil {
				return 0, fmt.Errorf("line %d: %s: %v", i+2, header[j], err)
			}
			return v, nil
		}
		r := Row{Task: rec[0], Config: rec[1], SignedOverflow: rec[3], Expected: rec[4], Verdict: rec[5],
			Status: Status(rec[6]), OverflowAt: rec[10], Reason: rec[11]}
		var err error
		if r.Timeout, err = num(2); err != nil {
			return nil, err
		}
		if r.CPU, err = num(7); err != nil {
			return nil, err
		}
		if r.Wall, err = num(8); err != nil {
			return nil, err
		}
		if r.MemMiB, err = num(9); err != nil {
			return nil, err
		}
		switch r.Status {
		case Correct, Wrong, Unknown, Overflow:
		default:
			return nil, fmt.Errorf("line %d: unknown status %q", i+2, r.Status)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// ReadCSVFile reads path; a missing file is no rows.
func ReadCSVFile(path string) ([]Row, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := ReadCSV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nil
}

// CSVWriter appends rows to a results CSV, one flushed line per row, so
// that an interrupted run loses at most the runs in progress.
type CSVWriter struct {
	f *os.File
	w *csv.Writer
}

// AppendCSV opens path for appending, writing the header when the file is
// new or empty. A file whose last line is incomplete is cut back to its
// last complete line first.
func AppendCSV(path string) (*CSVWriter, error) {
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	if i := strings.LastIndexByte(string(data), '\n'); len(data) > 0 && i != len(data)-1 {
		if err := os.WriteFile(path, data[:i+1], 0o644); err != nil {
			return nil, err
		}
		data = data[:i+1]
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	w := &CSVWriter{f: f, w: csv.NewWriter(f)}
	if len(data) == 0 {
		if err := w.write(header); err != nil {
			f.Close()
			return nil, err
		}
	}
	return w, nil
}

func (w *CSVWriter) write(rec []string) error {
	if err := w.w.Write(rec); err != nil {
		return err
	}
	w.w.Flush()
	return w.w.Error()
}

// Write appends one row.
func (w *CSVWriter) Write(r Row) error { return w.write(r.record()) }

// Close closes the file.
func (w *CSVWriter) Close() error { return w.f.Close() }
