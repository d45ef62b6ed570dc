package diffslice

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/results"
)

// DefaultCacheDir is the cache directory, relative to the repository.
const DefaultCacheDir = ".reverify/cache"

// CacheSchema is the version of the cache entry format; entries of
// another schema are ignored.
const CacheSchema = 1

// Limits are the resource limits a verdict was computed under, as
// configured (0 means the engine's default, or none for Timeout).
// Clock is what Timeout measures: "" or "wall" (wall-clock time) or
// "cpu" (the process's CPU time; reverify check --clock). The engine has
// no memory limit, so none is recorded; the configuration is part of
// every slice hash and of Entry.Config.
type Limits struct {
	Timeout        time.Duration `json:"timeout_ns"`
	MaxStates      int           `json:"max_states"`
	MaxDepth       int           `json:"max_depth"`
	MaxRefinements int           `json:"max_refinements"`
	Clock          string        `json:"clock,omitempty"`
	// Budget is the time the properties of one run share when it is one
	// of the run's limits (reverify proofs: --proof-timeout, each proof's
	// properties share it; 0: none). An UNKNOWN whose cause is that
	// budget (results.CauseBudget) is then stored (Plan.Store) and reused
	// under a budget not larger; without it such an UNKNOWN is never
	// stored (check's --time-budget covers a whole run, whose share a
	// property gets depends on what else the run verifies).
	Budget time.Duration `json:"budget_ns,omitempty"`
}

// LimitsOf returns the limits of an engine configuration. Its Clock is
// "wall" when cfg.Clock is nil and "custom" otherwise: callers that
// inject a clock name it (e.g. "cpu") in the returned Limits.
func LimitsOf(cfg engine.Config) Limits {
	l := Limits{Timeout: cfg.Timeout, MaxStates: cfg.MaxStates, MaxDepth: cfg.MaxDepth, MaxRefinements: cfg.MaxRefinements, Clock: "wall"}
	if cfg.Clock != nil {
		l.Clock = "custom"
	}
	return l
}

// clock is the clock's name with "" read as "wall".
func (l Limits) clock() string {
	if l.Clock == "" {
		return "wall"
	}
	return l.Clock
}

// effective returns the limits with the engine's defaults filled in
// (engine.Config: 1,000,000 states, depth 64; cegar's refinement limit)
// and the clock named, so that equal runs compare equal.
func (l Limits) effective() Limits {
	if l.MaxStates == 0 {
		l.MaxStates = 1_000_000
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = 64
	}
	if l.MaxRefinements == 0 {
		l.MaxRefinements = cegar.DefaultMaxRefinements
	}
	l.Clock = l.clock()
	return l
}

// NotLarger reports whether a run under l can do no more than a run under
// old: the same clock, and no limit larger (a Timeout of 0 is no limit,
// larger than any). A cached UNKNOWN computed under old is reused under
// such limits: a run under them would stop no later.
func (l Limits) NotLarger(old Limits) bool {
	n, o := l.effective(), old.effective()
	if n.Clock != o.Clock {
		return false
	}
	switch {
	case o.Timeout == 0: // none: n's is no larger
	case n.Timeout == 0 || n.Timeout > o.Timeout:
		return false
	}
	switch {
	case o.Budget == 0: // none: n's is no larger
	case n.Budget == 0 || n.Budget > o.Budget:
		return false
	}
	return n.MaxStates <= o.MaxStates && n.MaxDepth <= o.MaxDepth && n.MaxRefinements <= o.MaxRefinements
}

func (l Limits) String() string {
	t := "none"
	if l.Timeout > 0 {
		t = l.Timeout.String()
		if c := l.clock(); c != "wall" {
			t += " " + c + " time"
		}
	}
	s := fmt.Sprintf("timeout %s, max states %s, max depth %s, max refinements %s",
		t, orDefault(l.MaxStates), orDefault(l.MaxDepth), orDefault(l.MaxRefinements))
	if l.Budget > 0 {
		s += ", shared budget " + l.Budget.String()
	}
	return s
}

func orDefault(n int) string {
	if n == 0 {
		return "default"
	}
	return fmt.Sprint(n)
}

// Entry is one cached verdict: the file <slice hash>.json in the cache
// directory.
type Entry struct {
	Schema    int    `json:"schema"`
	SliceHash string `json:"slice_hash"`
	// Property is the ID of the property the verdict was computed for
	// (informational: any property with this slice hash shares it).
	Property string          `json:"property"`
	Verdict  results.Verdict `json:"verdict"`
	Reason   string          `json:"reason,omitempty"`
	// Cause is an UNKNOWN's cause (results.Cause).
	Cause *results.Cause `json:"cause,omitempty"`
	// Assumptions are the verdict's (engine.Result.Assumptions), shown
	// again on every reuse.
	Assumptions []string `json:"assumptions,omitempty"`
	// Witness, Reproducer and PixelTree are the artifact paths of the run.
	Witness    string `json:"witness,omitempty"`
	Reproducer string `json:"reproducer,omitempty"`
	PixelTree  string `json:"pixel_tree,omitempty"`
	// Statistics of the run.
	Seconds     float64 `json:"seconds"`
	States      int     `json:"states"`
	Refinements int     `json:"refinements"`
	// Precision is the final precision (engine.Result.Precision), the
	// start of a later run of an affected property (precision reuse).
	Precision     []string `json:"precision,omitempty"`
	EngineVersion string   `json:"engine_version"`
	Config        string   `json:"configuration"`
	Limits        Limits   `json:"limits"`
	// Commit is the revision the verdict was computed on ("" for a
	// working tree).
	Commit  string    `json:"commit,omitempty"`
	Created time.Time `json:"created"`
}

// Cache is a content-addressed verdict cache: one JSON file per slice
// hash in Dir. Writes are atomic (temporary file and rename), so
// concurrent runs sharing a directory see whole entries or none.
type Cache struct {
	Dir string
}

// validHash accepts the hex SHA-256 slice hashes only (no paths).
func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (c *Cache) path(hash string) string { return filepath.Join(c.Dir, hash+".json") }

// Get returns the entry cached under a slice hash. A missing, unreadable
// or malformed entry, or one of another schema or hash, is a miss.
func (c *Cache) Get(hash string) (*Entry, bool) {
	if c == nil || c.Dir == "" || !validHash(hash) {
		return nil, false
	}
	data, err := os.ReadFile(c.path(hash))
	if err != nil {
		return nil, false
	}
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil || e.Schema != CacheSchema || e.SliceHash != hash {
		return nil, false
	}
	return &e, true
}

// Put stores an entry under its slice hash, replacing an older one.
func (c *Cache) Put(e *Entry) error {
	if c == nil || c.Dir == "" {
		return nil
	}
	if !validHash(e.SliceHash) {
		return fmt.Errorf("cache: invalid slice hash %q", e.SliceHash)
	}
	e.Schema = CacheSchema
	if e.Created.IsZero() {
		e.Created = time.Now().UTC()
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(c.Dir, ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), c.path(e.SliceHash)); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
