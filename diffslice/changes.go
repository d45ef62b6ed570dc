package diffslice

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/ctext"
	"github.com/reverify/reverify/engine/frontend/csyntax"
)

// ChangeKind says how a definition changed between base and head.
type ChangeKind string

// Kinds of definition changes.
const (
	Added   ChangeKind = "added"
	Removed ChangeKind = "removed"
	Changed ChangeKind = "changed"
	// Renamed: a definition of the base disappeared and one of the head
	// with the same body (the name aside) appeared.
	Renamed ChangeKind = "renamed"
)

// DefChange is one changed definition.
type DefChange struct {
	Kind ChangeKind
	// Def is the head's definition (the base's for Removed).
	Def cfa.Definition
	// Old is the base's definition of Changed and Renamed.
	Old *cfa.Definition
	// Via names the changed macros through which an unchanged text
	// changed meaning ("LIMIT"), for definitions whose tokens after
	// preprocessing changed while their source text did not.
	Via []string
	// Hunks are the diff hunks that touch the definition's lines (head
	// lines, and base lines for Removed and Changed).
	Hunks []Hunk
}

// Name is the definition's name ("parse_header", "struct pair", "N").
func (c *DefChange) Name() string { return c.Def.Name }

// Subject names the definition for messages: "`parse_header`" for
// functions, "macro `N`", "global `g`", "type `struct pair`"; renamed
// ones as "`old` (renamed `new`)".
func (c *DefChange) Subject() string {
	s := "`" + c.Def.Name + "`"
	if c.Kind == Renamed && c.Old != nil {
		s = "`" + c.Old.Name + "` (renamed `" + c.Def.Name + "`)"
	}
	switch c.Def.Kind {
	case cfa.DefMacro:
		return "macro " + s
	case cfa.DefGlobal:
		return "global " + s
	case cfa.DefType:
		return "type " + s
	}
	return s
}

// String describes the change in one line: "function parse_header
// changed (src/parse.c:40-52)".
func (c *DefChange) String() string {
	d := c.Def
	s := fmt.Sprintf("%s %s %s", d.Kind, d.Name, c.Kind)
	if c.Kind == Renamed && c.Old != nil {
		s = fmt.Sprintf("%s %s renamed to %s", d.Kind, c.Old.Name, d.Name)
	}
	if d.File != "" {
		if d.EndLine > d.Line {
			s += fmt.Sprintf(" (%s:%d-%d)", d.File, d.Line, d.EndLine)
		} else {
			s += fmt.Sprintf(" (%s:%d)", d.File, d.Line)
		}
	} else {
		s += " (configured define)"
	}
	if len(c.Via) > 0 {
		s += " through macro " + strings.Join(c.Via, ", ")
	}
	return s
}

type defKey struct {
	kind       cfa.DefKind
	name, file string
}

// Changes compares the definitions of base and head (Program.Defs:
// functions, globals, types, macros) and maps each change to the hunks of
// the line diff between the revisions. It returns the changes sorted by
// file and line of the head (removed ones by the base's), and an error
// only when the line diff could not be computed (the changes are still
// returned, without hunks).
//
// A definition is changed when its fingerprint differs, except when its
// source text (comments and white space aside) is unchanged and mentions
// no changed macro: then only expansions of __LINE__ or __FILE__ differ
// (assert.h puts __LINE__ into every assertion, so moving a function
// changes its token fingerprint). Configured defines (-D) that differ
// between the revisions count as changed macros. A removed and an added
// definition of the same kind whose texts are equal up to the name are
// one rename.
func Changes(base, head *Revision) ([]DefChange, error) {
	changes := defChanges(base, head)
	hunks, err := LineDiff(base, head)
	attachHunks(changes, hunks)
	return changes, err
}

// defChanges computes the changes without hunks.
func defChanges(base, head *Revision) []DefChange {
	index := func(defs []cfa.Definition) (map[defKey]int, map[defKey][]int) {
		exact := map[defKey]int{}
		byName := map[defKey][]int{}
		for i, d := range defs {
			exact[defKey{d.Kind, d.Name, d.File}] = i
			k := defKey{d.Kind, d.Name, ""}
			byName[k] = append(byName[k], i)
		}
		return exact, byName
	}
	bExact, bName := index(base.Defs)
	_, hName := index(head.Defs)
	match := make([]int, len(head.Defs)) // head index → base index or -1
	usedBase := make([]bool, len(base.Defs))
	for i, d := range head.Defs {
		match[i] = -1
		if j, ok := bExact[defKey{d.Kind, d.Name, d.File}]; ok {
			match[i] = j
			usedBase[j] = true
		}
	}
	// Moved to another file: the only unmatched ones of that name.
	for i, d := range head.Defs {
		if match[i] >= 0 {
			continue
		}
		k := defKey{d.Kind, d.Name, ""}
		var free []int
		for _, j := range bName[k] {
			if !usedBase[j] {
				free = append(free, j)
			}
		}
		var hfree int
		for _, h := range hName[k] {
			if match[h] < 0 {
				hfree++
			}
		}
		if len(free) == 1 && hfree == 1 {
			match[i] = free[0]
			usedBase[free[0]] = true
		}
	}

	// Macros first: their changes explain fingerprint changes of the
	// definitions that expand them.
	changedMacros := map[string]bool{}
	for i, d := range head.Defs {
		if d.Kind != cfa.DefMacro {
			continue
		}
		if j := match[i]; j < 0 || base.Defs[j].Fingerprint != d.Fingerprint {
			changedMacros[d.Name] = true
		}
	}
	for j, d := range base.Defs {
		if d.Kind == cfa.DefMacro && !usedBase[j] {
			changedMacros[d.Name] = true
		}
	}
	var defineChanges []DefChange
	for _, n := range unionKeys(base.Config.Defines, head.Config.Defines) {
		bv, inB := base.Config.Defines[n]
		hv, inH := head.Config.Defines[n]
		if inB != inH || bv != hv {
			changedMacros[n] = true
			kind := Changed
			switch {
			case !inB:
				kind = Added
			case !inH:
				kind = Removed
			}
			defineChanges = append(defineChanges, DefChange{Kind: kind, Def: cfa.Definition{Kind: cfa.DefMacro, Name: n}})
		}
	}
	// Close over macros whose replacement lists use changed macros.
	closeMacros(changedMacros, base, head)

	var out []DefChange
	for i, d := range head.Defs {
		j := match[i]
		if j < 0 {
			continue
		}
		old := base.Defs[j]
		if old.Fingerprint == d.Fingerprint {
			continue
		}
		c := DefChange{Kind: Changed, Def: d, Old: &old}
		// (reverify's generated definitions, a contract's check and use,
		// have no text of their own in the file: their lines are their
		// clauses', so their fingerprints decide)
		// (a definition from LLVM IR, with the clang front end, has its
		// macros expanded into its fingerprint, and no macro definitions
		// beside it: only the fingerprint decides)
		if d.Kind != cfa.DefMacro && !cfa.Generated(d.Name) && head.Config.Frontend != "clang" {
			bt, ht := base.defText(old), head.defText(d)
			if bt != "" && ctext.Normalize(bt, "") == ctext.Normalize(ht, "") && !strings.Contains(ht, "#include") {
				for _, id := range csyntax.Identifiers(ht) {
					if changedMacros[id] {
						c.Via = append(c.Via, id)
					}
				}
				if len(c.Via) == 0 {
					continue // only __LINE__ / __FILE__ expansions differ
				}
			}
		}
		out = append(out, c)
	}
	// Unmatched: renames, then additions and removals.
	var added, removed []int
	for i := range head.Defs {
		if match[i] < 0 {
			added = append(added, i)
		}
	}
	for j := range base.Defs {
		if !usedBase[j] {
			removed = append(removed, j)
		}
	}
	bodyKey := func(r *Revision, d cfa.Definition) string {
		name := d.Name
		if i := strings.LastIndexByte(name, ' '); i >= 0 {
			name = name[i+1:] // "struct pair" → "pair"
		}
		if i := strings.IndexByte(name, '.'); i >= 0 {
			name = name[:i] // static "f.file" → "f"
		}
		t := r.defText(d)
		if t == "" || !isIdent(name) {
			return ""
		}
		return fmt.Sprintf("%d\x01%s", d.Kind, ctext.Normalize(t, name))
	}
	bodies := map[string][]int{}
	for _, j := range removed {
		if k := bodyKey(base, base.Defs[j]); k != "" {
			bodies[k] = append(bodies[k], j)
		}
	}
	addedBodies := map[string]int{}
	for _, i := range added {
		if k := bodyKey(head, head.Defs[i]); k != "" {
			addedBodies[k]++
		}
	}
	renamedBase := map[int]bool{}
	for _, i := range added {
		d := head.Defs[i]
		k := bodyKey(head, d)
		if k != "" && len(bodies[k]) == 1 && addedBodies[k] == 1 {
			j := bodies[k][0]
			old := base.Defs[j]
			renamedBase[j] = true
			out = append(out, DefChange{Kind: Renamed, Def: d, Old: &old})
			continue
		}
		out = append(out, DefChange{Kind: Added, Def: d})
	}
	for _, j := range removed {
		if !renamedBase[j] {
			out = append(out, DefChange{Kind: Removed, Def: base.Defs[j]})
		}
	}
	out = append(out, defineChanges...)
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a].Def, out[b].Def
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Name < y.Name
	})
	return out
}

// closeMacros adds to changed every macro (of either revision) whose
// replacement list uses a changed macro, transitively.
func closeMacros(changed map[string]bool, revs ...*Revision) {
	uses := map[string][]string{} // macro → macros using it
	for _, r := range revs {
		for _, d := range r.Defs {
			if d.Kind != cfa.DefMacro {
				continue
			}
			for _, u := range csyntax.MacroUses(r.defText(d), d.Name) {
				uses[u] = append(uses[u], d.Name)
			}
		}
	}
	var work []string
	for m := range changed {
		work = append(work, m)
	}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range uses[m] {
			if !changed[u] {
				changed[u] = true
				work = append(work, u)
			}
		}
	}
}

func unionKeys(a, b map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]string{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// attachHunks records on each change the hunks touching its lines.
func attachHunks(changes []DefChange, hunks []Hunk) {
	for i := range changes {
		c := &changes[i]
		for _, h := range hunks {
			touch := false
			if c.Kind != Removed && h.NewFile == c.Def.File && c.Def.File != "" && h.touchesNew(c.Def.Line, max(c.Def.EndLine, c.Def.Line)) {
				touch = true
			}
			var old *cfa.Definition
			switch c.Kind {
			case Removed:
				old = &c.Def
			case Changed, Renamed:
				old = c.Old
			}
			if old != nil && h.OldFile == old.File && old.File != "" && h.touchesOld(old.Line, max(old.EndLine, old.Line)) {
				touch = true
			}
			if touch {
				c.Hunks = append(c.Hunks, h)
			}
		}
	}
}

// Cosmetic returns the hunks that touch none of the changes' lines:
// edits to comments, white space, code outside every definition, or
// definitions whose meaning did not change.
func Cosmetic(changes []DefChange, hunks []Hunk) []Hunk {
	used := map[Hunk]bool{}
	for _, c := range changes {
		for _, h := range c.Hunks {
			used[h] = true
		}
	}
	var out []Hunk
	for _, h := range hunks {
		if !used[h] {
			out = append(out, h)
		}
	}
	return out
}

// LineDiff returns the hunks of the line diff (git diff -U0) between the
// loaded files of base and head: between two commits of one repository
// with git diff; between a commit and the working tree of its repository
// with git diff against the working tree; otherwise (directories) with
// git diff --no-index over copies of the loaded files. Only files loaded
// in one of the revisions are kept.
func LineDiff(base, head *Revision) ([]Hunk, error) {
	loaded := func(h Hunk) bool {
		_, a := base.Contents[h.OldFile]
		_, b := head.Contents[h.NewFile]
		return a || b
	}
	keep := func(hs []Hunk, err error) ([]Hunk, error) {
		if err != nil {
			return nil, err
		}
		var out []Hunk
		for _, h := range hs {
			if loaded(h) {
				out = append(out, h)
			}
		}
		return out, nil
	}
	sameRepo := base.Commit != "" && sameDir(base.Repo, head.Repo)
	diffArgs := []string{"diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--src-prefix=a/", "--dst-prefix=b/"}
	switch {
	case sameRepo && head.Commit != "":
		out, err := git(base.Repo, nil, append(diffArgs, base.Commit, head.Commit, "--")...)
		if err != nil {
			return nil, err
		}
		return keep(parseDiff(out, "", ""))
	case sameRepo && head.Dir != "":
		out, err := git(base.Repo, nil, append(diffArgs, base.Commit, "--")...)
		if err != nil {
			return nil, err
		}
		return keep(parseDiff(out, "", ""))
	}
	tmp, err := os.MkdirTemp("", "diffslice-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	for _, x := range []struct {
		r   *Revision
		dir string
	}{{base, a}, {head, b}} {
		if err := os.MkdirAll(x.dir, 0o755); err != nil {
			return nil, err
		}
		if err := x.r.Materialize(x.dir); err != nil {
			return nil, err
		}
	}
	out, err := git(tmp, nil, append(diffArgs, "--no-index", "a", "b")...)
	if err != nil {
		return nil, err
	}
	return keep(parseDiff(out, "a", "b"))
}

func sameDir(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && filepath.Clean(x) == filepath.Clean(y)
}
