package engine

import (
	"testing"
	"time"
)

// TestSharedLimit: the multi-property run over n properties may take a
// quarter of their limits together, spread over the workers that
// verify them afterwards, never less than one limit unless the quarter
// itself is less (testdata/examples/bitalloc: 19 assertions at 5 s on
// one worker, 23.75 s; its shared run needs about 8 s and was cut at
// one limit before).
func TestSharedLimit(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		limit      time.Duration
		n, workers int
		want       time.Duration
	}{
		{5 * s, 19, 1, 23750 * time.Millisecond},
		{5 * s, 19, 2, 11875 * time.Millisecond},
		{5 * s, 19, 8, 5 * s},
		{5 * s, 4, 2, 5 * s},
		{4 * s, 2, 1, 2 * s},
		{5 * s, 19, 0, 23750 * time.Millisecond},
	} {
		if got := sharedLimit(tc.limit, tc.n, tc.workers); got != tc.want {
			t.Errorf("sharedLimit(%v, %d, %d) = %v, want %v", tc.limit, tc.n, tc.workers, got, tc.want)
		}
	}
}
