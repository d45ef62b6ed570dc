package bench

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestClassifyAndScore(t *testing.T) {
	tests := []struct {
		name                string
		row                 Row
		wantStatus          Status
		wantVerdict         string
		wantScore           int
		wantReasonSubstring string
	}{
		{"correct TRUE", Row{Expected: "true", Verdict: "TRUE", Timeout: 10, CPU: 1}, Correct, "TRUE", 2, ""},
		{"correct FALSE", Row{Expected: "false", Verdict: "FALSE", Timeout: 10, CPU: 1}, Correct, "FALSE", 1, ""},
		{"wrong TRUE", Row{Expected: "false", Verdict: "TRUE", Timeout: 10}, Wrong, "TRUE", -32, ""},
		{"wrong FALSE", Row{Expected: "true", Verdict: "FALSE", Timeout: 10}, Wrong, "FALSE", -16, ""},
		{"FALSE by signed overflow", Row{Expected: "true", Verdict: "FALSE", OverflowAt: "a.c:3:7", Timeout: 10}, Overflow, "FALSE", -16, ""},
		{"overflow on a FALSE task is just correct", Row{Expected: "false", Verdict: "FALSE", OverflowAt: "a.c:3:7", Timeout: 10}, Correct, "FALSE", 1, ""},
		{"unknown", Row{Expected: "true", Verdict: "UNKNOWN", Reason: "state limit"}, Unknown, "UNKNOWN", 0, "state limit"},
		{"garbage verdict is unknown", Row{Expected: "true", Verdict: ""}, Unknown, "UNKNOWN", 0, ""},
		{"answer after the CPU limit is a timeout", Row{Expected: "false", Verdict: "TRUE", Timeout: 5, CPU: 5.5}, Unknown, "UNKNOWN", 0, "timeout"},
		{"no label", Row{Verdict: "TRUE", Timeout: 10}, Unknown, "TRUE", 0, "no expected verdict"},
	}
	for _, tt := range tests {
		r := tt.row
		r.Classify()
		if r.Status != tt.wantStatus || r.Verdict != tt.wantVerdict || r.Score() != tt.wantScore || !strings.Contains(r.Reason, tt.wantReasonSubstring) {
			t.Errorf("%s: got %s %s score %d (%q), want %s %s score %d (reason containing %q)", tt.name,
				r.Status, r.Verdict, r.Score(), r.Reason, tt.wantStatus, tt.wantVerdict, tt.wantScore, tt.wantReasonSubstring)
		}
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tt := range []struct{ q, want float64 }{{0.5, 5}, {0.9, 9}, {1, 10}, {0.01, 1}} {
		if got := Quantile(xs, tt.q); got != tt.want {
			t.Errorf("Quantile(1..10, %g) = %g, want %g", tt.q, got, tt.want)
		}
	}
	if got := Quantile(nil, 0.5); got != 0 {
		t.Errorf("Quantile(nil) = %g, want 0", got)
	}
}

// rows is a small run: two configurations and a peer that only proves.
func rows() []Row {
	rs := []Row{
		{Task: "/t/a/t1.yml", Config: "default", Expected: "true", Verdict: "TRUE", CPU: 1},
		{Task: "/t/a/t2.yml", Config: "default", Expected: "false", Verdict: "FALSE", CPU: 2},
		{Task: "/t/a/t3.yml", Config: "default", Expected: "true", Verdict: "FALSE", OverflowAt: "/t/a/t3.c:4:9", CPU: 0.5},
		{Task: "/t/a/t4.yml", Config: "default", Expected: "true", Verdict: "UNKNOWN", Reason: "state limit 1000000", CPU: 3},
		{Task: "/t/a/t1.yml", Config: "symex", Expected: "true", Verdict: "TRUE", CPU: 4},
		{Task: "/t/a/t2.yml", Config: "symex", Expected: "false", Verdict: "TRUE", Reason: "oops", CPU: 1},
		{Task: "/t/a/t3.yml", Config: "symex", Expected: "true", Verdict: "UNKNOWN", Reason: "timeout (CPU time limit 10s)", CPU: 10.2},
		{Task: "/t/a/t4.yml", Config: "symex", Expected: "true", Verdict: "TRUE", CPU: 6},
		{Task: "/t/a/t1.yml", Config: "frama-c-eva", Expected: "true", Verdict: "TRUE", CPU: 2},
		{Task: "/t/a/t2.yml", Config: "frama-c-eva", Expected: "false", Verdict: "UNKNOWN", Reason: "Eva cannot prove reach_error unreachable", CPU: 1},
		{Task: "/t/a/t3.yml", Config: "frama-c-eva", Expected: "true", Verdict: "TRUE", CPU: 0.2},
		{Task: "/t/a/t4.yml", Config: "frama-c-eva", Expected: "true", Verdict: "UNKNOWN", Reason: "Eva cannot prove reach_error unreachable", CPU: 1},
	}
	for i := range rs {
		rs[i].Timeout = 10
		if rs[i].Config != "frama-c-eva" {
			rs[i].SignedOverflow = "wrap"
		}
		rs[i].Classify()
	}
	return rs
}

func TestSummarize(t *testing.T) {
	got := Summarize(rows(), []string{"default", "symex", "missing"})
	want := []Summary{
		{Config: "default", Tasks: 4, CorrectTrue: 1, CorrectFalse: 1, OverflowFalse: 1, Unknown: 1, Score: 2 + 1 - 16,
			Median: 1, P90: 2, Max: 2, CPUCorrect: 3},
		{Config: "symex", Tasks: 4, CorrectTrue: 2, WrongTrue: 1, Unknown: 1, Score: 4 - 32, Median: 4, P90: 6, Max: 6, CPUCorrect: 10},
		{Config: "missing"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize:\n got %+v\nwant %+v", got, want)
	}
}

func TestCompare(t *testing.T) {
	got := Compare(rows(), "default", "frama-c-eva", true)
	// TRUE tasks: t1 both (eva 2 s, default 1 s), t3 only eva, t4 neither.
	want := Pair{A: "default", B: "frama-c-eva", TrueOnly: true, Both: 1, RatioTotal: 2, RatioMedian: 2, OnlyBTrue: 1}
	if got != want {
		t.Errorf("Compare(default, eva):\n got %+v\nwant %+v", got, want)
	}
	got = Compare(rows(), "symex", "default", false)
	want = Pair{A: "symex", B: "default", Both: 1, RatioTotal: 0.25, RatioMedian: 0.25, OnlyATrue: 1, OnlyBFalse: 1}
	if got != want {
		t.Errorf("Compare(symex, default):\n got %+v\nwant %+v", got, want)
	}
}

func TestCSVRoundTripAndResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.csv")
	w, err := AppendCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	in := rows()
	in[3].Reason = "a reason, with \"quotes\"\nand a newline"
	for _, r := range in[:6] {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	// A run killed while writing leaves half a line; appending resumes.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("/t/a/t9.yml,default,10,wr")
	f.Close()
	w, err = AppendCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range in[6:] {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	got, err := ReadCSVFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("read %d rows, want %d", len(got), len(in))
	}
	for i := range in {
		if got[i] != in[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], in[i])
		}
		if got[i].Key() != in[i].Key() {
			t.Errorf("row %d: key changed", i)
		}
	}
	if in[0].Key() == (Row{Task: in[0].Task, Config: in[0].Config, Timeout: 20, SignedOverflow: "wrap"}).Key() {
		t.Error("rows with different limits share a key")
	}
	if rs, err := ReadCSVFile(filepath.Join(t.TempDir(), "none.csv")); err != nil || rs != nil {
		t.Errorf("missing file: %v, %v; want no rows, no error", rs, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("a,b\n1,2\n"), 0o644)
	if _, err := ReadCSVFile(bad); err == nil || !strings.Contains(err.Error(), "header") {
		t.Errorf("foreign CSV: err = %v, want a header error", err)
	}
}

func TestExpandTasks(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a/x.yml", "a/b/y.yml", "a/b/y.c", "c/z.yml"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "list.txt"), []byte("# subset\nc/z.yml\n\na/x.yml\n"), 0o644)
	j := func(s ...string) []string {
		for i := range s {
			s[i] = filepath.Join(dir, s[i])
		}
		return s
	}
	tests := []struct {
		args []string
		want []string
		err  string
	}{
		{args: j("a"), want: j("a/b/y.yml", "a/x.yml")},
		{args: []string{"@" + filepath.Join(dir, "list.txt")}, want: j("c/z.yml", "a/x.yml")},
		{args: append([]string{"@" + filepath.Join(dir, "list.txt")}, j("a")...), want: j("c/z.yml", "a/x.yml", "a/b/y.yml")},
		{args: j("a/*.yml"), want: j("a/x.yml")},
		{args: j("a/b/y.c"), err: "not a task definition"},
		{args: j("nope.yml"), err: "no such file"},
		{args: j("a/*.none"), err: "no file matches"},
	}
	for _, tt := range tests {
		got, err := ExpandTasks(tt.args, dir)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ExpandTasks(%v): err %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ExpandTasks(%v) = %v, %v; want %v", tt.args, got, err, tt.want)
		}
	}
	// ~/ is the home directory given.
	got, err := ExpandTasks([]string{"~/c/z.yml"}, dir)
	if err != nil || !reflect.DeepEqual(got, j("c/z.yml")) {
		t.Errorf("~/c/z.yml: %v, %v", got, err)
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	meta := Meta{Command: "reverify bench @tasks.txt --timeout 10s --config default,symex --peer frama-c-eva,cbmc", Tasks: 4,
		Timeout: "10s", Memory: "4GiB", SignedOverflow: "wrap", Machine: "test machine",
		Peers: []string{"frama-c-eva"}, TrueOnly: map[string]bool{"frama-c-eva": true}, Missing: []string{"cbmc: not on PATH"}}
	if err := WriteMarkdown(&b, rows(), []string{"default", "symex", "frama-c-eva"}, meta, "quantile.png"); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden.md")
	if *update {
		os.WriteFile(golden, b.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("Markdown differs from %s (go test -update rewrites it):\n%s", golden, b.String())
	}
}

func TestWritePlot(t *testing.T) {
	var b bytes.Buffer
	if err := WritePlot(&b, rows(), []string{"default", "symex", "frama-c-eva", "none"}, "test"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() < 400 || r.Dy() < 200 {
		t.Errorf("plot is %v, want at least 400×200", r)
	}
	pts := QuantilePoints(rows(), "symex")
	if len(pts) != 2 || pts[0].X != 1 || pts[0].Y != 4 || pts[1].Y != 6 {
		t.Errorf("QuantilePoints(symex) = %v, want (1,4) (2,6)", pts)
	}
}
