package bmc

import (
	"testing"
	"time"
)

// TestHornDue: a try runs from its bound on, once its fraction of
// Check's time is spent (never by time without a limit), or once the
// bounds since the last try, which ran out of time, cost twice what it
// did.
func TestHornDue(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		k, bound int
		after    float64
		clock    hornClock
		want     bool
	}{
		{1, 1, 0, hornClock{}, true},
		{8, 64, 0.25, hornClock{total: 40 * s, spent: 9 * s, limited: true}, false},
		{8, 64, 0.25, hornClock{total: 40 * s, spent: 10 * s, limited: true}, true},
		{8, 64, 0.25, hornClock{total: 40 * s, spent: 38 * s, limited: true}, true},
		{64, 64, 0.25, hornClock{total: 40 * s, spent: s, limited: true}, true},
		{8, 64, 0.25, hornClock{spent: 39 * s}, false},
		{8, 64, 0.25, hornClock{total: 40 * s, spent: 5 * s, limited: true, lastTry: s, sinceTry: 1999 * time.Millisecond}, false},
		{8, 64, 0.25, hornClock{total: 40 * s, spent: 5 * s, limited: true, lastTry: s, sinceTry: 2 * s}, true},
		{8, 64, 0.25, hornClock{spent: 5 * s, lastTry: s, sinceTry: 3 * s}, true},
	} {
		if got := hornDue(c.k, c.bound, c.after, c.clock); got != c.want {
			t.Errorf("hornDue(%d, %d, %v, %+v) = %v, want %v", c.k, c.bound, c.after, c.clock, got, c.want)
		}
	}
}
