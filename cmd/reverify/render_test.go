package main

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

var updateScreenshots = flag.Bool("update-screenshots", false, "write the screenshots of the pull-request texts into doc/pr")

// commentWidth is the width in CSS pixels of the body of a comment in a
// pull request's conversation on github.com (desktop layout).
const commentWidth = 780

// githubCSS approximates GitHub's Markdown styles (markdown-body) closely
// enough for widths: its font stack and sizes, table cell padding and
// borders, code spans and blocks.
const githubCSS = `
body { margin: 0; background: #fff; }
.markdown-body { box-sizing: border-box; width: ` + "780" + `px; padding: 16px; color: #1f2328;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji";
  font-size: 14px; line-height: 1.5; word-wrap: break-word; }
.markdown-body h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; margin: 0 0 16px; }
.markdown-body h3 { font-size: 1.25em; margin: 24px 0 16px; }
.markdown-body p, .markdown-body ul, .markdown-body table, .markdown-body pre, .markdown-body details { margin: 0 0 16px; }
.markdown-body table { display: block; width: max-content; max-width: 100%; overflow: auto; border-spacing: 0; border-collapse: collapse; }
.markdown-body td, .markdown-body th { padding: 6px 13px; border: 1px solid #d1d9e0; }
.markdown-body tr:nth-child(2n) { background: #f6f8fa; }
.markdown-body code { padding: .2em .4em; font-size: 85%; background: rgba(129,139,152,.12); border-radius: 6px;
  font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; }
.markdown-body pre { padding: 16px; background: #f6f8fa; border-radius: 6px; overflow: auto; font-size: 85%; }
.markdown-body pre code { padding: 0; background: transparent; font-size: 100%; }
.markdown-body a { color: #0969da; text-decoration: none; }
`

// renderHTML renders GitHub-flavoured Markdown as GitHub does for a
// comment: GFM tables, strikethrough, autolinks, raw HTML (details,
// code, br) and newlines as hard breaks.
func renderHTML(t *testing.T, md string) string {
	t.Helper()
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(gmhtml.WithUnsafe(), gmhtml.WithHardWraps()))
	var body bytes.Buffer
	if err := gm.Convert([]byte(md), &body); err != nil {
		t.Fatal(err)
	}
	// The script records the widest element's right edge in the title, so
	// that --dump-dom tells whether anything overflows the column.
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>-</title><style>` + githubCSS + `</style></head><body>` +
		`<div class="markdown-body">` + body.String() + `</div><script>
for (const d of document.querySelectorAll("details")) d.open = true;
let w = 0; const root = document.querySelector(".markdown-body");
for (const e of root.querySelectorAll("*")) { w = Math.max(w, e.getBoundingClientRect().right, e.scrollWidth + e.getBoundingClientRect().left); }
document.title = "width=" + Math.ceil(w) + " height=" + Math.ceil(root.getBoundingClientRect().bottom);
</script></body></html>`
}

// chromium returns the headless browser, or "" when none is installed.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

var titleRE = regexp.MustCompile(`<title>width=(\d+) height=(\d+)</title>`)

// checkRendered renders each Markdown text (name → text) as GitHub shows
// it and, when Chromium is installed, lays it out headless at GitHub's
// comment width: no element may stick out of the column (a table that
// pushes its last column off-screen fails). With -update-screenshots it
// writes doc/pr/<name>.png. Without Chromium it only checks that the
// Markdown converts.
func checkRendered(t *testing.T, texts map[string]string) {
	t.Helper()
	browser := chromium()
	dir := t.TempDir()
	for name, md := range texts {
		page := filepath.Join(dir, name+".html")
		if err := os.WriteFile(page, []byte(renderHTML(t, md)), 0o644); err != nil {
			t.Fatal(err)
		}
		if browser == "" {
			continue
		}
		flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--hide-scrollbars",
			"--virtual-time-budget=2000"}
		out, err := exec.Command(browser, append(flags, "--window-size="+strconv.Itoa(commentWidth)+",1000", "--dump-dom", "file://"+page)...).Output()
		m := titleRE.FindSubmatch(out)
		if err != nil || m == nil {
			t.Errorf("%s: chromium --dump-dom: %v\n%s", name, err, out)
			continue
		}
		w, _ := strconv.Atoi(string(m[1]))
		h, _ := strconv.Atoi(string(m[2]))
		if w > commentWidth {
			t.Errorf("%s: %d px wide, GitHub's comment column has %d", name, w, commentWidth)
		}
		if !*updateScreenshots {
			continue
		}
		shot := filepath.Join(dir, name+".png")
		cmd := exec.Command(browser, append(flags, "--window-size="+strconv.Itoa(commentWidth)+","+strconv.Itoa(h+16), "--screenshot="+shot, "file://"+page)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: chromium --screenshot: %v\n%s", name, err, out)
			continue
		}
		data, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: screenshot: %v", name, err)
			continue
		}
		dst := filepath.Join("..", "..", "doc", "pr", name+".png")
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
