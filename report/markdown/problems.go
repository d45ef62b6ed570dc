package markdown

import (
	"fmt"
	"strings"
)

// Problem is an error in the input that stopped verification, at a
// place in the sources when known: a syntax or type error of the C
// frontend.
type Problem struct {
	File    string // repository-relative; empty when unknown
	Line    int    // 1-based; 0 when unknown
	Column  int    // 1-based; 0 when unknown
	Message string
}

// Problems renders the sticky comment of a run that could not verify at
// all because the sources do not translate:
//
//	<!-- reverify:summary -->
//	## reverify
//
//	⚠️ No assertion was checked: 1 file of the head revision does not compile.
//
//	- <code>src/util.c&#58;15</code>: unexpected '{', expected declarator …
//
// what names the revision or step that failed ("translating the head
// revision"); every property is unchecked, so the comment says so instead
// of listing verdicts. File:line is linked as in [Summary]. The result
// has at most Options.MaxChars characters.
func Problems(what string, problems []Problem, opts Options) string {
	var b strings.Builder
	title := opts.Title
	if title == "" {
		title = "reverify"
	}
	b.WriteString(Marker + "\n")
	fmt.Fprintf(&b, "## %s\n\n", Escape(title))
	files := map[string]bool{}
	for _, p := range problems {
		files[p.File] = true
	}
	fmt.Fprintf(&b, "⚠️ **No assertion was checked**: %s failed with %d %s, so every property of this pull request is unchecked until it compiles.\n\n",
		Escape(what), len(problems), plural(len(problems), "error", "errors"))
	for _, p := range problems {
		where := "—"
		if p.File != "" {
			where = location(p.File, p.Line, opts)
		}
		fmt.Fprintf(&b, "- %s: %s\n", where, Escape(p.Message))
	}
	b.WriteString("\n")
	if opts.RunURL != "" {
		fmt.Fprintf(&b, "🔗 [Workflow run](%s)\n", escapeURL(opts.RunURL))
	}
	s := b.String()
	if len([]rune(s)) > opts.maxChars() {
		return cut(s, opts.maxChars(), note(opts))
	}
	return s
}
