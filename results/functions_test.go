package results

import "testing"

// TestSummarizeFunctions: one FALSE makes a function violated, a
// needs-precondition UNKNOWN outranks a limit's, all TRUE is verified,
// only NOT_CHECKED is not reached; times add up per function.
func TestSummarizeFunctions(t *testing.T) {
	pre := &Cause{Kind: CausePrecondition}
	lim := &Cause{Kind: CauseTimeout}
	ps := []PropertyReport{
		{Function: "a", Verdict: True, CPUSeconds: 0.25}, {Function: "a", Verdict: False, CPUSeconds: 0.5},
		{Function: "b", Verdict: Unknown, Cause: lim}, {Function: "b", Verdict: Unknown, Cause: pre},
		{Function: "c", Verdict: True}, {Function: "d", Verdict: NotChecked}, {Function: "e", Verdict: Unknown, Cause: lim},
	}
	got := SummarizeFunctions(ps, func(f string) bool { return f == "a" })
	want := []struct {
		fn, kind string
		api      bool
	}{{"a", FunctionViolated, true}, {"b", FunctionPrecondition, false}, {"c", FunctionVerified, false}, {"d", FunctionNotReached, false}, {"e", FunctionLimitation, false}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		if got[i].Function != w.fn || got[i].Kind != w.kind || got[i].API != w.api {
			t.Errorf("%d: got %+v, want %+v", i, got[i], w)
		}
	}
	if got[0].CPUSeconds != 0.75 || got[0].True != 1 || got[0].False != 1 || got[1].Precondition != 1 || got[1].Unknown != 1 {
		t.Errorf("counts: %+v %+v", got[0], got[1])
	}
}

// TestSummarizeContracts: a contract's check and the uses of its
// requires clauses count for the function the contract belongs to.
func TestSummarizeContracts(t *testing.T) {
	ps := []PropertyReport{
		{Function: "__reverify_check_bump", Verdict: True}, {Function: "__reverify_use_bump", Verdict: False},
		{Function: "bump", Verdict: True}, {Function: "caller", Verdict: True},
	}
	got := SummarizeFunctions(ps, func(f string) bool { return f == "caller" })
	if len(got) != 2 || got[0].Function != "bump" || got[0].True != 2 || got[0].False != 1 || got[0].Kind != FunctionViolated || got[1].Function != "caller" {
		t.Errorf("got %+v, want bump (2 TRUE, 1 FALSE) and caller", got)
	}
}
