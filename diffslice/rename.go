package diffslice

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/ctext"
	"github.com/reverify/reverify/engine/spec"
)

// Renamed properties keep their cache.
//
// A function renamed with its body unchanged (a Renamed change) renames
// every property in it — the property ID names the function — and
// changes the text of every slice that passes through it (the slice text
// holds function names and the source text of calls). Renaming a
// function consistently everywhere (alpha-renaming) does not change what
// a program does, so a slice that equals a cached slice once the renames
// are undone has the cached verdict. renameKey computes that "renamed
// hash": the normalised slice text (engine/pdg Slice.Normalized) with
// every new name replaced by the old one, the function blocks sorted by
// name again, hashed like a slice hash. When an entry is cached under it
// and every changed definition in the slice is a rename or a function
// whose text differs from its base text only by the renames (a caller),
// the property reuses that verdict instead of being re-verified as new.
//
// Guards: only functions with a body at both revisions take part
// (Renamed changes are such), never an error function, a __VERIFIER_ or
// other reserved (__-prefixed) name, nor the entry function (each has a
// meaning by name); and the old name must not occur in the head's slice
// text, so the replacement is one-to-one. Everything else about the
// cache entry is checked as for any cached verdict (FALSE is re-checked,
// UNKNOWN only under the same limits, same engine and configuration).

// renameMap returns the usable function renames of changes, new name →
// old name, or nil.
func renameMap(changes []DefChange, entry string) map[string]string {
	var m map[string]string
	for _, c := range changes {
		if c.Kind != Renamed || c.Def.Kind != cfa.DefFunc || c.Old == nil {
			continue
		}
		n, o := c.Def.Name, c.Old.Name
		if !renamable(n, entry) || !renamable(o, entry) {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		m[n] = o
	}
	return m
}

func renamable(name, entry string) bool {
	return isIdent(name) && name != entry && !spec.ErrorFuncs[name] && !strings.HasPrefix(name, "__")
}

// renameIdents replaces the identifiers of C text that m maps (outside
// comments and string and character literals, which are kept as they
// are; comments become a space).
func renameIdents(text string, m map[string]string) string {
	var b strings.Builder
	ctext.Scan(text, func(id string) {
		if o, ok := m[id]; ok {
			id = o
		}
		b.WriteString(id)
	}, func(t string) { b.WriteString(t) })
	return b.String()
}

// renameKey returns the renamed hash of a normalised slice text (see
// above), or "" when the renaming cannot apply: no renamed function
// occurs in it, or an old name already does.
func renameKey(normalized string, m map[string]string) string {
	old := map[string]bool{}
	for _, o := range m {
		old[o] = true
	}
	uses, clash := false, false
	ctext.Scan(normalized, func(id string) {
		if _, ok := m[id]; ok {
			uses = true
		}
		if old[id] {
			clash = true
		}
	}, func(string) {})
	if !uses || clash {
		return ""
	}
	// Header lines, function blocks ("func …" and its indented lines),
	// type lines: rename, then sort the blocks by function name as
	// engine/pdg does.
	lines := strings.SplitAfter(normalized, "\n")
	var head, tail []string
	type block struct {
		name string
		text strings.Builder
	}
	var blocks []*block
	for _, l := range lines {
		r := renameIdents(l, m)
		switch {
		case strings.HasPrefix(l, "func "):
			name := strings.TrimPrefix(strings.TrimPrefix(r, "func "), "static ")
			if i := strings.IndexByte(name, ' '); i >= 0 {
				name = name[:i]
			}
			blocks = append(blocks, &block{name: name})
			blocks[len(blocks)-1].text.WriteString(r)
		case strings.HasPrefix(l, "  ") && len(blocks) > 0 && len(tail) == 0:
			blocks[len(blocks)-1].text.WriteString(r)
		case len(blocks) == 0:
			head = append(head, r)
		default:
			tail = append(tail, r)
		}
	}
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].name < blocks[j].name })
	var b strings.Builder
	for _, l := range head {
		b.WriteString(l)
	}
	for _, bl := range blocks {
		b.WriteString(bl.text.String())
	}
	for _, l := range tail {
		b.WriteString(l)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// explainedByRenames reports whether every hit is a rename of m or a
// function whose head text, with the renames undone, equals its base
// text (comments and white space aside): a caller of a renamed function.
func explainedByRenames(hits []Hit, m map[string]string, base, head *Revision) bool {
	for _, h := range hits {
		c := h.Change
		switch {
		case c.Kind == Renamed && c.Def.Kind == cfa.DefFunc && c.Old != nil && m[c.Def.Name] == c.Old.Name:
		case c.Kind == Changed && c.Def.Kind == cfa.DefFunc && c.Old != nil && len(c.Via) == 0 && base != nil:
			bt, ht := base.defText(*c.Old), head.defText(c.Def)
			if bt == "" || ht == "" || ctext.Normalize(renameIdents(ht, m), "") != ctext.Normalize(bt, "") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// renamePrecision renames, in precision entries of the base ("f::x@f:L5"),
// the functions renamed by changes (old name → new name).
func renamePrecision(prec []string, changes []DefChange, entry string) []string {
	m := renameMap(changes, entry)
	if len(m) == 0 || len(prec) == 0 {
		return prec
	}
	inv := map[string]string{}
	for n, o := range m {
		inv[o] = n
	}
	out := make([]string, len(prec))
	for i, e := range prec {
		out[i] = renameIdents(e, inv)
	}
	return out
}
