package results

// Verdict is the outcome for one property: TRUE (proved), FALSE
// (violated, with a counterexample feasible under bit-precise C
// semantics), UNKNOWN (neither, with a reason) or NOT_CHECKED (no entry
// function reaches the assertion). Its string is what results.json
// stores.
type Verdict string

// Verdicts. NotChecked is for assertions no entry function reaches.
const (
	True       Verdict = "TRUE"
	False      Verdict = "FALSE"
	Unknown    Verdict = "UNKNOWN"
	NotChecked Verdict = "NOT_CHECKED"
)

// verdictStrength orders verdicts for combining two reports of the same
// property: a violation from any entry function (or shard) wins, then
// UNKNOWN; TRUE only when nothing weaker was reported; NOT_CHECKED (no
// path from that entry) yields to any verdict.
var verdictStrength = map[Verdict]int{False: 0, Unknown: 1, True: 2, NotChecked: 3}

// Strength ranks v for merging (Merge): lower is stronger, in the order
// FALSE, UNKNOWN, TRUE, NOT_CHECKED; a verdict string outside these is
// stronger than all (-1), so that merging never hides what it cannot
// rank.
func Strength(v Verdict) int {
	if s, ok := verdictStrength[v]; ok {
		return s
	}
	return -1
}
