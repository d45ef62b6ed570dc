package difftest

import (
	"context"
	"strings"
)

// Reduce shrinks a failing case for a report: it removes lines of
// prog.c (single statements, or whole compound statements from a line
// ending in "{" to its closing line) and lines of the adversarial
// bodies, keeping each removal after which Check still reports a failure
// with the given problem, until no removal is kept (one-minimal in those
// units, as in delta debugging's ddmin with single-unit steps). It does
// at most maxChecks checks.
func (e *Env) Reduce(ctx context.Context, c *Case, config, problem string, lim Limits, maxChecks int) *Case {
	fails := func(k *Case) bool {
		if maxChecks <= 0 || ctx.Err() != nil {
			return false
		}
		maxChecks--
		outs, err := e.Check(ctx, k, config, lim)
		if err != nil {
			return false
		}
		for _, o := range outs {
			if o.Problem == problem {
				return true
			}
		}
		return false
	}
	cur := *c
	for changed := true; changed; {
		changed = false
		for _, field := range []*string{&cur.Source, &cur.Adversarial} {
			lines := strings.SplitAfter(*field, "\n")
			for i := 0; i < len(lines); i++ {
				end := unitEnd(lines, i)
				if end < 0 {
					continue
				}
				trial := append(append([]string{}, lines[:i]...), lines[end+1:]...)
				saved := *field
				*field = strings.Join(trial, "")
				if fails(&cur) {
					lines, changed = trial, true
					i--
					continue
				}
				*field = saved
			}
		}
	}
	return &cur
}

// unitEnd returns the last line of the removable unit starting at line
// i, or -1: a line without braces, or a compound statement (a line
// ending in "{" up to the line closing it, "} else {" included).
// Preprocessor lines, extern declarations (a call without one is
// implicitly declared to return int), closing braces and empty lines are
// not units.
func unitEnd(lines []string, i int) int {
	t := strings.TrimSpace(lines[i])
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "}") || strings.HasPrefix(t, "extern ") {
		return -1 // without its declaration a call would be implicitly declared
	}
	if !strings.HasSuffix(t, "{") {
		if strings.ContainsAny(t, "{}") && !strings.HasSuffix(t, ";") {
			return -1
		}
		return i
	}
	depth := 0
	for j := i; j < len(lines); j++ {
		for _, r := range lines[j] {
			switch r {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		if depth == 0 {
			return j
		}
	}
	return -1
}
