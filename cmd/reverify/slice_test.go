package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSliceExample checks the slice of the example's first assertion: the
// saturating addition and the two inputs, nothing of the ring index.
func TestSliceExample(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"slice", "../../testdata/examples/counter.c", "--property", "main:s>=a"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		pos, _, _ := strings.Cut(l, "\t")
		got = append(got, strings.TrimPrefix(pos, "../../testdata/examples/counter.c:"))
	}
	want := "9: 10: 22: 23: 25: 26:"
	if strings.Join(got, " ") != want {
		t.Errorf("slice lines %q, want %q", strings.Join(got, " "), want)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"slice", "../../testdata/examples/counter.c", "--property", "nope"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `no property "nope"`) {
		t.Errorf("unknown property: exit %d, stderr %q", code, stderr.String())
	}
}
