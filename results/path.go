package results

import (
	"path/filepath"
	"strings"
)

// RepoPath returns file relative to the repository root as a cleaned,
// slash-separated path, or the cleaned absolute path when file lies
// outside root.
func RepoPath(file, root string) string {
	if file == "" {
		return ""
	}
	if root == "" {
		root = "."
	}
	f, r := filepath.Clean(file), filepath.Clean(root)
	if filepath.IsAbs(f) != filepath.IsAbs(r) {
		// Only mixed cases need the working directory.
		af, err1 := filepath.Abs(f)
		ar, err2 := filepath.Abs(r)
		if err1 != nil || err2 != nil {
			return filepath.ToSlash(f)
		}
		f, r = af, ar
	}
	rel, err := filepath.Rel(r, f)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	if !filepath.IsAbs(f) {
		if af, err := filepath.Abs(f); err == nil {
			f = af
		}
	}
	return filepath.ToSlash(f)
}

// AlignInputs attaches each counterexample input of p to the step that
// reads it: the step results.json names (InputJSON.Step), else, for
// reports without that field, the first step at or after the previous
// match whose line equals the input's line. It returns the input
// indices per step index and the indices of inputs that match no step
// (line unknown, or a line no later step has). Without Step, InputJSON
// carries no file, so two files with a read on the same line can be
// confused, and repeated reads on one line (a loop) all attach to its
// first step.
func AlignInputs(p *PropertyReport) (at map[int][]int, unmatched []int) {
	at = map[int][]int{}
	next := 0
	for k, in := range p.Inputs {
		if in.Step != nil {
			if i := *in.Step; i >= 0 && i < len(p.Steps) {
				at[i] = append(at[i], k)
				next = i
			} else {
				unmatched = append(unmatched, k)
			}
			continue
		}
		found := -1
		if in.Line > 0 {
			for i := next; i < len(p.Steps); i++ {
				if p.Steps[i].Line == in.Line {
					found = i
					break
				}
			}
		}
		if found < 0 {
			unmatched = append(unmatched, k)
			continue
		}
		at[found] = append(at[found], k)
		next = found
	}
	return at, unmatched
}
