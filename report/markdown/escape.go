package markdown

import (
	"net/url"
	"strings"
)

// inlineEscaper maps every character that GitHub-flavoured Markdown or
// HTML could interpret inside a table cell, a list item or a <summary> to
// a numeric character reference. References render as the character in
// text and inside <code>, never start a construct (emphasis, code span,
// link, table cell, tag, @-mention, #-reference), and leave the text
// readable in the raw comment.
var inlineEscaper = strings.NewReplacer(
	"&", "&amp;",
	"<", "&lt;",
	">", "&gt;",
	`"`, "&quot;",
	"|", "&#124;",
	"`", "&#96;",
	"*", "&#42;",
	"_", "&#95;",
	"[", "&#91;",
	"]", "&#93;",
	`\`, "&#92;",
	"~", "&#126;",
	"@", "&#64;",
	"#", "&#35;",
	"!", "&#33;",
	"$", "&#36;", // math
	":", "&#58;", // emoji shortcodes, autolinks
	"\r\n", " ",
	"\n", " ",
	"\r", " ",
)

// Escape returns s as inline Markdown text that renders literally: HTML
// and Markdown metacharacters (| < > & ` * _ [ ] \ ~ @ # ! $ :) become
// character references and line breaks become spaces, so user-controlled
// text (expressions, reasons, paths) can neither break a table nor inject
// markup, mentions or links.
func Escape(s string) string { return inlineEscaper.Replace(s) }

// Code returns s as inline code: <code>Escape(s)</code>. Unlike a
// backtick code span, it is safe inside table cells whatever s holds.
func Code(s string) string { return "<code>" + Escape(s) + "</code>" }

// fence returns a code fence longer than every backtick run in s.
func fence(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			if run > longest {
				longest = run
			}
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// codeBlock returns s as a fenced code block with the given info string.
func codeBlock(info, s string) string {
	f := fence(s)
	return f + info + "\n" + strings.TrimRight(s, "\n") + "\n" + f + "\n"
}

// escapePath percent-encodes a slash-separated path for a URL, segment by
// segment.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// escapeURL makes a URL safe as a Markdown link destination.
func escapeURL(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", "\n", "").Replace(u)
}
