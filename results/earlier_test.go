package results

import (
	"reflect"
	"testing"
)

func earlier(v Verdict, on string) *Earlier { return &Earlier{Verdict: v, On: on, Commit: "c0"} }

// TestUnresolved: only an UNKNOWN that was FALSE before is an unresolved
// finding; a new UNKNOWN is one that was neither UNKNOWN nor FALSE.
func TestUnresolved(t *testing.T) {
	for _, tt := range []struct {
		v                    Verdict
		e                    *Earlier
		unresolved, newUnknw bool
	}{
		{Unknown, earlier(False, EarlierBase), true, false},
		{Unknown, earlier(False, EarlierPullRequest), true, false},
		{Unknown, earlier(Unknown, EarlierBase), false, false},
		{Unknown, earlier(True, EarlierBase), false, true},
		{Unknown, nil, false, true},
		{True, earlier(False, EarlierBase), false, false},
		{False, earlier(False, EarlierBase), false, false},
		{NotChecked, earlier(False, EarlierBase), false, false},
	} {
		p := &PropertyReport{Verdict: tt.v, Earlier: tt.e}
		if got := p.Unresolved(); got != tt.unresolved {
			t.Errorf("%s after %+v: unresolved %v", tt.v, tt.e, got)
		}
		if got := p.NewUnknown(); got != tt.newUnknw {
			t.Errorf("%s after %+v: new unknown %v", tt.v, tt.e, got)
		}
	}
	r := &Report{Properties: []PropertyReport{{Verdict: Unknown, Earlier: earlier(False, EarlierBase)}, {Verdict: Unknown}, {Verdict: False}}}
	if n := r.Unresolved(); n != 1 {
		t.Errorf("Report.Unresolved = %d, want 1", n)
	}
}

// TestTouched: the change touches a property through a changed line of
// its slice or its own line.
func TestTouched(t *testing.T) {
	changed := func(file string, line int) bool { return file == "src/a.c" && line == 7 }
	for _, tt := range []struct {
		p    PropertyReport
		want bool
	}{
		{PropertyReport{File: "src/a.c", Line: 7}, true},
		{PropertyReport{File: "./src/a.c", Line: 7}, true},
		{PropertyReport{File: "src/a.c", Line: 8}, false},
		{PropertyReport{File: "src/a.c", Line: 8, ChangedLines: []Span{{File: "src/b.c", Line: 3, Lines: 1}}}, true},
	} {
		if got := tt.p.Touched("", changed); got != tt.want {
			t.Errorf("%s:%d %v: touched %v", tt.p.File, tt.p.Line, tt.p.ChangedLines, got)
		}
	}
	if (&PropertyReport{File: "src/a.c", Line: 7}).Touched("", nil) {
		t.Errorf("touched without changed lines")
	}
	p := PropertyReport{Verdict: Unknown, File: "src/a.c", Line: 7, Earlier: earlier(True, EarlierBase)}
	if !p.NewUnknownAtChange("", changed) {
		t.Errorf("a proof lost at a changed line is no new unknown at the change")
	}
	p.Earlier = earlier(Unknown, EarlierBase)
	if p.NewUnknownAtChange("", changed) {
		t.Errorf("an old unknown is a new unknown at the change")
	}
}

// TestOpenFindingsTrack: a FALSE opens a finding at the head, an UNKNOWN
// keeps it open (and learns it as its Earlier verdict), only a TRUE
// closes it; properties the report lacks keep theirs.
func TestOpenFindingsTrack(t *testing.T) {
	open := OpenFindings{}
	r1 := &Report{Properties: []PropertyReport{
		{ID: "a", Verdict: False},
		{ID: "b", Verdict: Unknown, Earlier: earlier(False, EarlierBase)},
		{ID: "c", Verdict: Unknown, Earlier: earlier(True, EarlierBase)},
		{ID: "d", Verdict: True},
	}}
	open.Track(r1, "h1")
	want := OpenFindings{"a": {Verdict: False, On: EarlierPullRequest, Commit: "h1"}, "b": *earlier(False, EarlierBase)}
	if !reflect.DeepEqual(open, want) {
		t.Fatalf("after h1: %v, want %v", open, want)
	}
	open["x"] = Earlier{Verdict: False, On: EarlierPullRequest, Commit: "h0"} // another shard's
	r2 := &Report{Properties: []PropertyReport{
		{ID: "a", Verdict: Unknown, Earlier: earlier(True, EarlierBase)},
		{ID: "b", Verdict: True},
		{ID: "c", Verdict: Unknown},
		{ID: "d", Verdict: NotChecked},
	}}
	open.Track(r2, "h2")
	if e := r2.Properties[0].Earlier; e == nil || e.Verdict != False || e.On != EarlierPullRequest || e.Commit != "h1" || !r2.Properties[0].Unresolved() {
		t.Errorf("h2: a's earlier verdict %+v, want FALSE at h1 in the pull request", e)
	}
	if r2.Properties[2].Earlier != nil {
		t.Errorf("h2: c learned %+v", r2.Properties[2].Earlier)
	}
	want = OpenFindings{"a": {Verdict: False, On: EarlierPullRequest, Commit: "h1"}, "x": {Verdict: False, On: EarlierPullRequest, Commit: "h0"}}
	if !reflect.DeepEqual(open, want) {
		t.Errorf("after h2: %v, want %v", open, want)
	}
}

// TestMergeKeepsOpenFinding: merging the reports of two entries (or
// shards) never drops an earlier FALSE of an UNKNOWN property.
func TestMergeKeepsOpenFinding(t *testing.T) {
	mk := func(entry string, p PropertyReport) *Report {
		return &Report{Schema: SchemaVersion, Engine: "e", Config: "c", DataModel: "LP64", Entry: entry, Properties: []PropertyReport{p}}
	}
	for _, tt := range []struct {
		a, b PropertyReport
		want *Earlier
	}{
		{PropertyReport{ID: "p", Verdict: Unknown}, PropertyReport{ID: "p", Verdict: Unknown, Earlier: earlier(False, EarlierBase)}, earlier(False, EarlierBase)},
		{PropertyReport{ID: "p", Verdict: Unknown, Earlier: earlier(True, EarlierBase)}, PropertyReport{ID: "p", Verdict: NotChecked, Earlier: earlier(False, EarlierBase)}, earlier(False, EarlierBase)},
		{PropertyReport{ID: "p", Verdict: True}, PropertyReport{ID: "p", Verdict: Unknown, Earlier: earlier(False, EarlierBase)}, earlier(False, EarlierBase)},
		{PropertyReport{ID: "p", Verdict: Unknown, Earlier: earlier(True, EarlierBase)}, PropertyReport{ID: "p", Verdict: True}, earlier(True, EarlierBase)},
		{PropertyReport{ID: "p", Verdict: False}, PropertyReport{ID: "p", Verdict: Unknown, Earlier: earlier(False, EarlierBase)}, nil},
	} {
		m, err := Merge([]*Report{mk("main", tt.a), mk("other", tt.b)})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Properties[0].Earlier; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %+v + %s %+v: earlier %+v, want %+v", tt.a.Verdict, tt.a.Earlier, tt.b.Verdict, tt.b.Earlier, got, tt.want)
		}
	}
}
