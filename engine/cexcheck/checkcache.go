package cexcheck

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/timeslice"
)

// CheckCache holds the outcomes of counterexample checks (CheckPathOpts)
// by program, C semantics and path, for the runs of one verification
// call to share: the rounds of growing budgets of
// engine.Config.ShareDeadline re-explore from the root and meet the same
// error paths again (the value analysis is deterministic), and the
// multi-property run and the per-property runs check the same paths to
// the same targets. The outcome of a check depends on nothing else (prog,
// path and sem fix the formula and the replay), so a cached Feasible or
// Infeasible is exactly what the check would say again. An Undecided is
// cached only when the check's context was still live at its end (an
// encoder limit or construct, a replay disagreement; not a cancelled or
// timed-out check, which a larger budget may decide), as cegar.Run's own
// per-run cache does.
//
// Measured on aws-c-common's CBMC proofs (doc/proofs.md): a check of a 500-step harness path builds about 140,000
// terms and costs 0.2 to 0.6 s, most of a round's time.
//
// The zero value is not usable; NewCheckCache makes one, for the paths
// of one program (the reduced programs of engine.Config.Reduce, made per
// property, bypass it, so that it keeps none of them alive). A nil
// *CheckCache caches nothing. Safe for concurrent use; two runs that
// check the same path at once both compute it.
type CheckCache struct {
	prog         *cfa.Program // nil: every program
	mu           sync.Mutex
	m            map[checkKey]Check
	hits, misses int
}

type checkKey struct {
	prog *cfa.Program
	sem  smt.EncodeOptions
	path string // PathKey
}

// maxCheckCache bounds the entries of a CheckCache (each a few hundred
// bytes: the key's hash and a Check); when full, new outcomes are not
// kept.
const maxCheckCache = 1 << 16

// NewCheckCache returns an empty cache for the checks of paths of prog
// (nil: of any program; a cache keeps the programs of its keys alive).
func NewCheckCache(prog *cfa.Program) *CheckCache {
	return &CheckCache{prog: prog, m: map[checkKey]Check{}}
}

// Check is CheckPathOpts(ctx, prog, path, solver, sem) through the
// cache; cached reports whether the outcome came from it (no check ran).
func (c *CheckCache) Check(ctx context.Context, prog *cfa.Program, path []cfa.Step, solver smt.Factory, sem smt.EncodeOptions) (chk Check, cached bool) {
	if c == nil || (c.prog != nil && prog != c.prog) {
		return CheckPathOpts(ctx, prog, path, solver, sem), false
	}
	k := checkKey{prog: prog, sem: sem, path: PathKey(path)}
	c.mu.Lock()
	chk, ok := c.m[k]
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.mu.Unlock()
	if ok {
		return chk, true
	}
	chk = CheckPathOpts(ctx, prog, path, solver, sem)
	if chk.Status != Undecided || timeslice.Expired(ctx) == nil {
		c.mu.Lock()
		if len(c.m) < maxCheckCache {
			c.m[k] = chk
		}
		c.mu.Unlock()
	}
	return chk, false
}

// Stats returns the number of checks answered from the cache and of
// checks run.
func (c *CheckCache) Stats() (hits, misses int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// PathKey identifies a path by the SHA-256 of its steps (edge IDs and
// step kinds): the path part of a CheckCache key.
func PathKey(path []cfa.Step) string {
	h := sha256.New()
	var buf [9]byte
	for _, s := range path {
		id := -1
		if s.Edge != nil {
			id = s.Edge.ID
		}
		binary.LittleEndian.PutUint64(buf[:8], uint64(id))
		buf[8] = byte(s.Kind)
		h.Write(buf[:])
	}
	return string(h.Sum(nil))
}
