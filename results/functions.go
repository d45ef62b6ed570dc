package results

import (
	"sort"

	"github.com/reverify/reverify/engine/cfa"
)

// Function kinds of a FunctionSummary, in Kani's autoharness spirit:
// what is verified, what needs a precondition (a contract) before it
// can be, and what hits a limitation.
const (
	FunctionVerified     = "verified"             // every assertion TRUE
	FunctionViolated     = "violated"             // an API call violates one (FALSE)
	FunctionPrecondition = "needs a precondition" // violated only in a context more general than any API call shown
	FunctionLimitation   = "limitation"           // a limit or an unsupported construct left one UNKNOWN
	FunctionNotReached   = "not reached"          // no API function calls it
)

// FunctionSummary is one function's line in results.json's "functions"
// (library mode): its assertions' verdicts counted, and what they make
// of the function (Kind).
type FunctionSummary struct {
	Function     string `json:"function"`
	API          bool   `json:"api,omitempty"` // no function of the sources calls it
	Kind         string `json:"kind"`
	True         int    `json:"true"`
	False        int    `json:"false"`
	Precondition int    `json:"needs_precondition"`
	Unknown      int    `json:"unknown"`
	NotChecked   int    `json:"not_checked,omitempty"`
	// CPUSeconds is the time its assertions took, summed (their
	// cpu_seconds).
	CPUSeconds float64 `json:"cpu_seconds"`
}

// SummarizeFunctions counts the verdicts of props per function, sorted by
// function name; api says which functions are API functions. The
// properties of a contract's check and of its requires clauses count for
// the function the contract belongs to (cfa.ContractOwner): one line per
// function and its proof.
func SummarizeFunctions(props []PropertyReport, api func(string) bool) []FunctionSummary {
	by := map[string]*FunctionSummary{}
	for _, p := range props {
		fn := cfa.ContractOwner(p.Function)
		s := by[fn]
		if s == nil {
			s = &FunctionSummary{Function: fn, API: api(fn)}
			by[fn] = s
		}
		s.CPUSeconds += p.CPUSeconds
		switch {
		case p.Verdict == True:
			s.True++
		case p.Verdict == False:
			s.False++
		case p.Verdict == NotChecked:
			s.NotChecked++
		case p.Cause != nil && p.Cause.Kind == CausePrecondition:
			s.Precondition++
		default:
			s.Unknown++
		}
	}
	out := make([]FunctionSummary, 0, len(by))
	for _, s := range by {
		switch {
		case s.False > 0:
			s.Kind = FunctionViolated
		case s.Precondition > 0:
			s.Kind = FunctionPrecondition
		case s.Unknown > 0:
			s.Kind = FunctionLimitation
		case s.True == 0:
			s.Kind = FunctionNotReached
		default:
			s.Kind = FunctionVerified
		}
		s.CPUSeconds = float64(int64(s.CPUSeconds*1000+0.5)) / 1000
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Function < out[j].Function })
	return out
}
