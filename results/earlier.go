package results

// Where an earlier verdict was found (Earlier.On).
const (
	// EarlierBase: the verdict of the property's slice at the base
	// revision of the change, from the verdict cache.
	EarlierBase = "base"
	// EarlierPullRequest: reported on an earlier head of the same pull
	// request (the open findings the verdict cache keeps per pull
	// request).
	EarlierPullRequest = "pull-request"
	// EarlierCommit: found by an earlier run on the same commit.
	EarlierCommit = "commit"
	// EarlierSlice: cached under the property's own slice hash, computed
	// on another commit: the same slice, so the same verdict.
	EarlierSlice = "slice"
)

// Earlier is the verdict reverify knew for a property before this run:
// at the base revision, on an earlier head of the same pull request, or
// for the same slice.
// Reports set it for UNKNOWN properties, where it decides whether the
// UNKNOWN leaves a finding open (Unresolved) or is new (NewUnknown).
type Earlier struct {
	Verdict Verdict `json:"verdict"`
	// On is EarlierBase, EarlierPullRequest, EarlierCommit or
	// EarlierSlice.
	On string `json:"on"`
	// Commit is the revision the verdict was found on, when known.
	Commit string `json:"commit,omitempty"`
}

// Span is a range of lines of the head revision that a change added or
// modified: Lines lines from Line on, in File (repository-relative,
// slash-separated).
type Span struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Lines int    `json:"lines"`
}

// Unresolved reports whether p is a finding the run leaves open without
// showing it: FALSE earlier (at the base or on an earlier head of the
// pull request), UNKNOWN now. Only TRUE resolves a finding; a timeout or
// any other UNKNOWN neither shows nor refutes the violation.
func (p *PropertyReport) Unresolved() bool {
	return p.Verdict == Unknown && p.Earlier != nil && p.Earlier.Verdict == False
}

// NewUnknown reports whether p is UNKNOWN now and was neither UNKNOWN nor
// FALSE earlier, as far as reverify knows (Earlier: TRUE, or no verdict
// known).
func (p *PropertyReport) NewUnknown() bool {
	if p.Verdict != Unknown {
		return false
	}
	return p.Earlier == nil || p.Earlier.Verdict != Unknown && p.Earlier.Verdict != False
}

// Touched reports whether the change under review touches p: a line of
// its slice changed (ChangedLines), or its own line did (changed, when
// not nil, says whether a repository-relative file and line changed;
// root is the repository root, see RepoPath).
func (p *PropertyReport) Touched(root string, changed func(file string, line int) bool) bool {
	if len(p.ChangedLines) > 0 {
		return true
	}
	return changed != nil && p.Line > 0 && changed(RepoPath(p.File, root), p.Line)
}

// NewUnknownAtChange reports whether p is a new UNKNOWN (NewUnknown)
// that the change under review touches (Touched): a warning for the
// reviewer, on a line of the diff.
func (p *PropertyReport) NewUnknownAtChange(root string, changed func(file string, line int) bool) bool {
	return p.NewUnknown() && p.Touched(root, changed)
}

// Unresolved counts the unresolved findings of r (PropertyReport.Unresolved).
func (r *Report) Unresolved() int {
	n := 0
	for i := range r.Properties {
		if r.Properties[i].Unresolved() {
			n++
		}
	}
	return n
}

// OpenFindings are the findings of a pull request that no run has
// resolved yet, by property ID: a property reported FALSE on one of its
// heads, or FALSE at its base and UNKNOWN since, stays open until a run
// proves it (TRUE). The verdict cache keeps them between runs
// (diffslice.Cache.OpenFindings).
type OpenFindings map[string]Earlier

// Track takes a pull request's run on head into account: each UNKNOWN
// property of r with an open finding gets it as its Earlier verdict (it
// is the latest); then a FALSE property opens (or renews) its finding at
// head, an unresolved one (FALSE before, UNKNOWN now) keeps it open, a
// TRUE one closes it. Properties absent from r (another shard's, or
// removed) keep what they had.
func (o OpenFindings) Track(r *Report, head string) {
	for i := range r.Properties {
		p := &r.Properties[i]
		if e, ok := o[p.ID]; ok && e.Verdict == False && p.Verdict == Unknown {
			e := e
			p.Earlier = &e
		}
		switch {
		case p.Verdict == False:
			o[p.ID] = Earlier{Verdict: False, On: EarlierPullRequest, Commit: head}
		case p.Unresolved():
			o[p.ID] = *p.Earlier
		case p.Verdict == True:
			delete(o, p.ID)
		}
	}
}
