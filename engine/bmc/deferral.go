package bmc

import "time"

// deferral decides when a bound's error query may wait for a larger
// bound. Iterative deepening (1, 2, 4, …) asks at every bound whether an
// error is reachable, then whether an execution runs longer than the
// bound (the unwinding assertions). On some programs the first query
// costs much more than the second at every bound: mlkem-native's
// contract checks, whose quantifiers are loops over 256 coefficients
// inside the checked function, spend about 2 s per bound on the error
// query and 0.2 s on the cut-offs, and need bound 256. Skipping error
// queries at intermediate bounds loses no verdict: TRUE still needs an
// error query at the bound whose unwinding assertions hold, and a FALSE
// within bound k is found at every larger bound; it only finds a
// shallow error later. The error queries keep at least half of the
// time: a bound skips its error query while the cut-off queries since
// the last error query cost less than that query did, so the skipping
// costs at most about twice the time to a FALSE that deepening at every
// bound would find.
type deferral struct {
	// errCost is the time of the last bound's error queries (Check: one
	// query; CheckAll: every model until no open property is violated).
	errCost time.Duration
	// cutCost is the time of the last cut-off query.
	cutCost time.Duration
	// pending is the time of the cut-off queries since the last error
	// queries.
	pending time.Duration
	// checked is the largest bound whose error queries found no error
	// (0: none).
	checked int
	// final marks the last bound, whose error queries always run.
	final bool
	// always skips the error queries of every bound but the first and
	// the last (tests).
	always bool
}

// minDeferredCost is the cost of an error query below which error
// queries never wait (starting a query costs milliseconds).
const minDeferredCost = 250 * time.Millisecond

// deferRatio is how many times a cut-off query an error query must cost
// before error queries wait.
const deferRatio = 4

// due says whether this bound's error queries must run: at the first
// bound and the last, when they are cheap, or when the cut-off queries since the
// last ones have cost as much as they did.
func (d *deferral) due() bool {
	if d.always {
		return d.final || d.checked == 0
	}
	return d.final || d.errCost < minDeferredCost || d.errCost < deferRatio*d.cutCost || d.pending >= d.errCost
}

// errorsChecked records error queries that took t and found no error
// within bound k.
func (d *deferral) errorsChecked(k int, t time.Duration) {
	d.errCost, d.pending, d.checked = t, 0, k
}

// cutChecked records a cut-off query that took t.
func (d *deferral) cutChecked(t time.Duration) {
	d.cutCost = t
	d.pending += t
}
