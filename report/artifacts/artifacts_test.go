package artifacts

import (
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
)

// TestSelectBudget: invariant selection gets what the analysis left of
// the property's time limit, at most SelectTimeout, never a negative
// time.
func TestSelectBudget(t *testing.T) {
	for _, tc := range []struct {
		timeout time.Duration
		seconds float64
		want    time.Duration
	}{
		{0, 5, SelectTimeout},
		{10 * time.Second, 4, 6 * time.Second},
		{10 * time.Second, 12, 0},
		{time.Hour, 1, SelectTimeout},
	} {
		if got := SelectBudget(tc.timeout, &engine.Result{Seconds: tc.seconds}); got != tc.want {
			t.Errorf("SelectBudget(%v, %vs) = %v, want %v", tc.timeout, tc.seconds, got, tc.want)
		}
	}
}

// TestShellQuote: plain words stay as they are, the rest is single-quoted
// with embedded single quotes closed, escaped and reopened.
func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"reproducer.c": "reproducer.c",
		"-m32":         "-m32",
		"":             "''",
		"a b":          "'a b'",
		"it's":         `'it'\''s'`,
		"$HOME":        "'$HOME'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestDir: the directory name is the property ID made file-name safe, at
// most 60 bytes, with the line.
func TestDir(t *testing.T) {
	long := ""
	for len(long) < 70 {
		long += "abcdefghij"
	}
	for _, tc := range []struct {
		id   string
		line int
		want string
	}{
		{"main:assert@12 x > 0", 12, "out/main_assert_12_x_0-L12"},
		{long, 3, "out/" + long[:60] + "-L3"},
	} {
		r := &engine.Result{Property: &engine.Property{ID: tc.id, Pos: engine.Pos{Line: tc.line}}}
		if got := Dir("out", r); got != tc.want {
			t.Errorf("Dir(out, %q) = %s, want %s", tc.id, got, tc.want)
		}
	}
}
