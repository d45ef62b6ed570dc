package bmc

import (
	"testing"
	"time"
)

// TestHornDue: a try runs from its bound on, or once its fraction of
// Check's time is spent (never by time without a limit).
func TestHornDue(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		k, bound    int
		after       float64
		total, left time.Duration
		ok, want    bool
	}{
		{1, 1, 0, 0, 0, false, true},
		{8, 64, 0.25, 40 * s, 31 * s, true, false},
		{8, 64, 0.25, 40 * s, 30 * s, true, true},
		{8, 64, 0.25, 40 * s, 2 * s, true, true},
		{64, 64, 0.25, 40 * s, 39 * s, true, true},
		{8, 64, 0.25, 0, 0, false, false},
	} {
		if got := hornDue(c.k, c.bound, c.after, c.total, c.left, c.ok); got != c.want {
			t.Errorf("hornDue(%d, %d, %v, %v, %v, %v) = %v, want %v", c.k, c.bound, c.after, c.total, c.left, c.ok, got, c.want)
		}
	}
}
