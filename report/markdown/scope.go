package markdown

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/results"
)

// maxScopeNames is how many function names ScopeText lists.
const maxScopeNames = 6

// ScopeText is the compact form of a property scope (engine/scope, seed
// 004) for the pull-request comment: for a proof "proof depends on
// `parse_header`, `clamp_len` (2 of 14 functions)", for a violation
// "counterexample found in `main` (1 of 14 functions; partial scope)";
// at most six names, then "…". Empty without a scope.
func ScopeText(s *results.Scope, v results.Verdict) string {
	if s == nil {
		return ""
	}
	names := make([]string, 0, min(len(s.Functions), maxScopeNames))
	for i, f := range s.Functions {
		if i == maxScopeNames {
			names = append(names, "…")
			break
		}
		names = append(names, Code(f))
	}
	list := strings.Join(names, ", ")
	if len(names) == 0 {
		list = "no function"
	}
	count := fmt.Sprintf("%d of %d %s", len(s.Functions), s.FunctionsTotal, plural(s.FunctionsTotal, "function", "functions"))
	if v == results.False || s.Partial {
		return fmt.Sprintf("counterexample found in %s (%s; partial scope)", list, count)
	}
	return fmt.Sprintf("proof depends on %s (%s)", list, count)
}

// scopeCell is ScopeText as a continuation of a table's assertion cell.
func scopeCell(p *results.PropertyReport) string {
	if t := ScopeText(p.Scope, p.Verdict); t != "" {
		return "<br>" + t
	}
	return ""
}
