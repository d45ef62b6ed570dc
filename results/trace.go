package results

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// TraceRow is one row of a readable counterexample (ReadableTrace): a
// step of p.Steps, or a fold standing for several steps.
type TraceRow struct {
	// Step is the index into PropertyReport.Steps of the step shown,
	// or of the first step of a fold.
	Step int
	// Folded is the number of steps the row stands for; 0 for a plain
	// step.
	Folded int
	// Fold says what a fold hides, e.g. "call sum(v, 2): 13 steps" or
	// "4 more iterations (12 steps)"; empty for a plain step.
	Fold string
	// Inputs are indices into PropertyReport.Inputs read at this step
	// (for a fold: read inside it), in reading order.
	Inputs []int
	// Changed reports whether the step's line is one the change added
	// or modified (for a fold: whether any folded step's line is).
	Changed bool
}

// IsInput reports whether a counterexample input is a value the
// program reads (a __VERIFIER_nondet_* call, an external function, a
// volatile read, an entry parameter) rather than the indeterminate
// initial value of an uninitialised declaration ("decl x"), which the
// program overwrites (or reads, which C leaves undefined). Witnesses keep
// both; the readable forms show only inputs.
func IsInput(in InputJSON) bool { return !strings.HasPrefix(in.Source, "decl ") }

// ReadableTrace folds the counterexample of p into the rows a reviewer
// reads; folded steps are counted in their rows, left-out steps are the
// difference between len(p.Steps) and the steps the rows stand for:
//
//   - steps without a source line (the skip edge of older results.json)
//     and declarations that read no input (an uninitialised local's
//     indeterminate value is not an input) are left out;
//   - a call that returns (its "enter f" to its "return from f") becomes
//     one row, unless it reads an input, passes through a changed line,
//     is still active at the failure or, for a memory-safety property
//     (MemoryKind), allocates or frees memory (IsMemoryStep: the
//     malloc and free of the block the violation concerns stay in view);
//   - a loop whose body repeats at least three times shows its first and
//     last iterations; the iterations between become one row that lists
//     the inputs read in them.
//
// changed, if not nil, says whether a repository-relative file and line
// were changed by the pull request; root makes step files repository
// relative (RepoPath). Inputs are attached by AlignInputs. This is a
// presentation of the path, not a semantic slice: folded steps may still
// matter to the failure (a folded callee can write through a pointer).
func ReadableTrace(p *PropertyReport, root string, changed func(file string, line int) bool) []TraceRow {
	at, _ := AlignInputs(p)
	n := len(p.Steps)
	memory := p.MemoryKind() != ""
	isChanged := func(i int) bool {
		if changed == nil {
			return false
		}
		s := p.Steps[i]
		f := s.File
		if f == "" {
			f = p.File
		}
		return changed(RepoPath(f, root), s.Line)
	}
	inputsAt := func(i int) []int {
		var out []int
		for _, k := range at[i] {
			if IsInput(p.Inputs[k]) {
				out = append(out, k)
			}
		}
		return out
	}
	// Match each "enter f" with its "return from f".
	ret := make([]int, n)
	var stack []int
	for i := range ret {
		ret[i] = -1
		op := p.Steps[i].Op
		switch {
		case strings.HasPrefix(op, "enter "):
			stack = append(stack, i)
		case strings.HasPrefix(op, "return from ") && len(stack) > 0:
			ret[stack[len(stack)-1]] = i
			stack = stack[:len(stack)-1]
		}
	}
	// units: plain steps and folded calls, in order.
	type unit struct {
		row TraceRow
		key string // identity for loop detection
	}
	var units []unit
	for i := 0; i < n; i++ {
		s := p.Steps[i]
		if s.Line <= 0 && s.File == "" {
			continue
		}
		if j := ret[i]; j > i {
			keep := false
			var ins []int
			for k := i; k <= j; k++ {
				ins = append(ins, inputsAt(k)...)
				if isChanged(k) || memory && IsMemoryStep(p.Steps[k]) {
					keep = true
				}
			}
			if !keep && len(ins) == 0 {
				call := strings.TrimPrefix(s.Op, "enter ")
				if s.Text != "" {
					call = s.Text
				}
				units = append(units, unit{
					row: TraceRow{Step: i, Folded: j - i + 1, Fold: fmt.Sprintf("call %s: %d steps", call, j-i+1)},
					key: fmt.Sprintf("call %d %s %s", s.Line, s.File, s.Op),
				})
				i = j
				continue
			}
		}
		if strings.HasPrefix(s.Op, "decl ") && len(inputsAt(i)) == 0 && !isChanged(i) {
			continue // a declaration without initialiser: no effect to show
		}
		units = append(units, unit{
			row: TraceRow{Step: i, Inputs: inputsAt(i), Changed: isChanged(i)},
			key: fmt.Sprintf("%d %s %s", s.Line, s.File, s.Op),
		})
	}
	// Loops: a segment of units that repeats back to back ≥ 3 times.
	var rows []TraceRow
	for u := 0; u < len(units); {
		best, reps := 0, 0
		for period := 1; u+2*period <= len(units) && period <= 64; period++ {
			if units[u+period].key != units[u].key {
				continue
			}
			r := 1
			for u+(r+1)*period <= len(units) && sameSeg(units[u:u+period], units[u+r*period:u+(r+1)*period], func(x unit) string { return x.key }) {
				r++
			}
			if r >= 3 && (reps == 0 || r*period > best*reps) {
				best, reps = period, r
			}
		}
		if reps == 0 {
			rows = append(rows, units[u].row)
			u++
			continue
		}
		for k := u; k < u+best; k++ {
			rows = append(rows, units[k].row)
		}
		fold := TraceRow{Step: units[u+best].row.Step}
		for k := u + best; k < u+(reps-1)*best; k++ {
			r := units[k].row
			fold.Folded += max(r.Folded, 1)
			fold.Inputs = append(fold.Inputs, r.Inputs...)
			fold.Changed = fold.Changed || r.Changed
		}
		fold.Fold = fmt.Sprintf("%d more %s (%d steps)", reps-2, pluralS(reps-2, "iteration", "iterations"), fold.Folded)
		rows = append(rows, fold)
		for k := u + (reps-1)*best; k < u+reps*best; k++ {
			rows = append(rows, units[k].row)
		}
		u += reps * best
	}
	return rows
}

// StepText describes a counterexample step in plain text: its source
// text (the CFA operation when there is none), saying which way a branch
// went ("i < 6 is false") and which function a call enters or leaves
// ("parse(&h) → parse").
func StepText(s StepJSON) string {
	if s.Text == "" {
		return s.Op
	}
	switch {
	case strings.HasPrefix(s.Op, "[!("):
		return s.Text + " is false"
	case strings.HasPrefix(s.Op, "["):
		return s.Text + " is true"
	case strings.HasPrefix(s.Op, "enter "):
		return s.Text + " → " + strings.TrimPrefix(s.Op, "enter ")
	case strings.HasPrefix(s.Op, "return from "):
		return s.Text + " ← " + strings.TrimPrefix(s.Op, "return from ")
	}
	return s.Text
}

func sameSeg[T any](a, b []T, key func(T) string) bool {
	for i := range a {
		if key(a[i]) != key(b[i]) {
			return false
		}
	}
	return true
}

func pluralS(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// EnvUnreadInputs is EnvUnread of a report's counterexample inputs.
func EnvUnreadInputs(ins []InputJSON) []bool {
	sources, values := make([]string, len(ins)), make([]int64, len(ins))
	for i, in := range ins {
		sources[i], values[i] = in.Source, in.Value
	}
	return EnvUnread(sources, values)
}

// EnvUnread marks, for inputs given by their Sources and Values in
// order, those that are parts of a getenv value no run has
// (cfa.GetenvSource: a name's "getenv NAME" set or not, "getenv NAME
// length", "getenv NAME[i]"): the length and bytes of a name that is not
// set, and the bytes at or past the value's length. The readable forms
// leave them out; witnesses and reproducers keep every input.
func EnvUnread(sources []string, values []int64) []bool {
	out := make([]bool, len(sources))
	set := map[string]bool{}
	length := map[string]int64{}
	prefix := cfa.GetenvSource + " "
	for i, src := range sources {
		rest, ok := strings.CutPrefix(src, prefix)
		if !ok {
			continue
		}
		if name, ok := strings.CutSuffix(rest, " length"); ok && i > 0 && sources[i-1] == prefix+name {
			length[name] = values[i]
			out[i] = !set[name]
			continue
		}
		if j := strings.LastIndexByte(rest, '['); j > 0 && strings.HasSuffix(rest, "]") {
			name := rest[:j]
			if k, err := strconv.ParseInt(rest[j+1:len(rest)-1], 10, 64); err == nil {
				if _, ok := length[name]; ok {
					out[i] = !set[name] || k >= length[name]
					continue
				}
			}
		}
		set[rest] = values[i] != 0
	}
	return out
}
