package diffslice

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"

	"github.com/reverify/reverify/engine/cfa"
)

// summarySchema is the version of the revision summary format.
const summarySchema = 1

// propRef is a property reduced to what a base revision contributes.
type propRef struct {
	ID   string `json:"id"`
	Func string `json:"function"`
}

// revSummary is what a revision contributes as the base of a plan,
// stored in the cache (Cache.Dir/revisions/COMMIT-FLAGS.json) by
// Plan.Store when the revision was a verified head, so that a later job
// with this base need not translate it again: its definitions, property
// IDs, address-taken functions and slice hashes (for precision reuse).
type revSummary struct {
	Schema        int               `json:"schema"`
	Commit        string            `json:"commit"`
	Flags         string            `json:"flags"`
	EngineVersion string            `json:"engine_version"`
	Config        SourceConfig      `json:"config"`
	Files         []string          `json:"files"`
	Loaded        []string          `json:"loaded"`
	Defs          []cfa.Definition  `json:"definitions"`
	Properties    []propRef         `json:"properties"`
	AddressTaken  []string          `json:"address_taken"`
	HashKey       string            `json:"hash_key"`
	SliceHashes   map[string]string `json:"slice_hashes"`
}

// flagsKey identifies the source configuration given on the command line
// (the rest of the effective configuration is in the commit).
func flagsKey(cfg SourceConfig) string {
	data, _ := json.Marshal(cfg)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// hashKey identifies what slice hashes depend on besides the program.
func hashKey(o Options) string {
	k := o.EngineVersion + "|" + o.Config + "|" + o.Entry
	if o.Variant != "" {
		k += "|" + o.Variant
	}
	return k
}

func (c *Cache) summaryPath(commit string, flags SourceConfig) string {
	return filepath.Join(c.Dir, "revisions", commit+"-"+flagsKey(flags)+".json")
}

// LoadBase loads a base revision: from the summary a verified head left
// in the cache (same commit, same flags, same engine version) without
// translating it, else with LoadRevision. A revision loaded from a
// summary has no Program: it serves as the base of NewPlan only.
func (c *Cache) LoadBase(repo, rev string, cfg SourceConfig, engineVersion string) (*Revision, error) {
	if c == nil || c.Dir == "" || rev == "" {
		return LoadRevision(repo, rev, cfg)
	}
	commit, err := resolveCommit(repo, rev)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(c.summaryPath(commit, cfg))
	var s revSummary
	if err != nil || json.Unmarshal(data, &s) != nil || s.Schema != summarySchema || s.Commit != commit ||
		s.Flags != flagsKey(cfg) || s.EngineVersion != engineVersion {
		return LoadRevision(repo, rev, cfg)
	}
	r := &Revision{Repo: repo, Rev: rev, Commit: commit, Config: s.Config, Files: s.Files, Defs: s.Defs,
		summary: &s, flags: cfg, Contents: map[string]string{}}
	names := make([]string, len(s.Loaded))
	for i, n := range s.Loaded {
		names[i] = commit + ":" + n
	}
	blobs, err := catObjects(repo, names)
	if err != nil {
		return LoadRevision(repo, rev, cfg)
	}
	for i, n := range s.Loaded {
		r.Contents[n] = string(blobs[i])
	}
	return r, nil
}

// storeSummary writes the head's summary (for commits only).
func (p *Plan) storeSummary(c *Cache) error {
	h := p.Head
	if h.Commit == "" || h.Program == nil || c == nil || c.Dir == "" {
		return nil
	}
	s := revSummary{Schema: summarySchema, Commit: h.Commit, Flags: flagsKey(h.flags), EngineVersion: p.Options.EngineVersion,
		Config: h.Config, Files: h.Files, Defs: h.Defs, AddressTaken: h.addrTaken(), HashKey: hashKey(p.Options),
		SliceHashes: map[string]string{}}
	for n := range h.Contents {
		s.Loaded = append(s.Loaded, n)
	}
	sort.Strings(s.Loaded)
	for _, d := range p.Decisions {
		s.Properties = append(s.Properties, propRef{ID: d.Property.ID, Func: d.Property.Func})
		s.SliceHashes[d.Property.ID] = d.SliceHash
	}
	data, err := json.Marshal(&s)
	if err != nil {
		return err
	}
	return writeAtomic(c.summaryPath(h.Commit, h.flags), data)
}

// propertyRefs returns the IDs and functions of the revision's
// properties.
func (r *Revision) propertyRefs() []propRef {
	if r.summary != nil {
		return r.summary.Properties
	}
	var out []propRef
	for _, p := range r.Properties() {
		out = append(out, propRef{ID: p.ID, Func: p.Func})
	}
	return out
}

// addrTaken returns the address-taken functions of the revision.
func (r *Revision) addrTaken() []string {
	if r.summary != nil {
		return r.summary.AddressTaken
	}
	return r.Program.AddressTaken()
}
