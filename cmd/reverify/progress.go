package main

import (
	"fmt"
	"github.com/reverify/reverify/report/github"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
)

// checkProgress prints each property's line as it is decided (engine.Config's
// OnResult), not at the end of the run, and shows where the run stands:
//   - on a terminal (stderr is one, and not in GitHub Actions), a progress
//     bar on stderr with the count of verified properties, the verdicts so
//     far and the estimated time left (github.com/schollz/progressbar);
//   - in GitHub Actions (GITHUB_ACTIONS=true), one log line per property
//     inside a ::group:: per shard (or per entry function), so that the
//     log folds;
//   - otherwise, the lines only.
//
// Its methods may be called from several goroutines.
type checkProgress struct {
	mu     sync.Mutex
	out    io.Writer
	bar    *progressbar.ProgressBar // nil unless on a terminal
	action bool
	group  bool // a ::group:: is open
	counts map[results.Verdict]int
}

// progressMode says how to show checkProgress: "terminal", "action" or "plain".
func progressMode(stderr io.Writer, getenv func(string) string) string {
	if getenv("GITHUB_ACTIONS") == "true" {
		return "action"
	}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) && getenv("TERM") != "dumb" {
		return "terminal"
	}
	return "plain"
}

// newCheckProgress starts the display of a run that verifies toVerify
// properties; title names the group in GitHub Actions ("" opens none).
func newCheckProgress(stdout, stderr io.Writer, mode, title string, toVerify int) *checkProgress {
	p := &checkProgress{out: stdout, action: mode == "action", counts: map[results.Verdict]int{}}
	if p.action && title != "" {
		github.NewActions(nil, stdout).Group(title)
		p.group = true
	}
	if mode == "terminal" && toVerify > 0 {
		p.bar = progressbar.NewOptions(toVerify,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("verifying"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetRenderBlankState(true),
		)
	}
	return p
}

// result prints a decided property's line; verified says whether the
// engine decided it in this run (it advances the bar) rather than the
// cache.
func (p *checkProgress) result(r *engine.Result, verified bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Clear()
	}
	if verified {
		printResult(p.out, r)
	} else {
		// A reused verdict: its line says so.
		var b strings.Builder
		printResult(&b, r)
		first, rest, _ := strings.Cut(b.String(), "\n")
		fmt.Fprintf(p.out, "%s  [cached]\n%s", first, rest)
	}
	p.counts[r.Verdict]++
	if p.bar != nil && verified {
		p.bar.Describe(p.tally())
		p.bar.Add(1)
	}
}

// tally is "2 TRUE, 1 FALSE, 0 UNKNOWN".
func (p *checkProgress) tally() string {
	var parts []string
	for _, v := range []results.Verdict{results.True, results.False, results.Unknown} {
		parts = append(parts, fmt.Sprintf("%d %s", p.counts[v], v))
	}
	return strings.Join(parts, ", ")
}

// finish removes the bar and closes the group.
func (p *checkProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
		p.bar.Clear()
		p.bar = nil
	}
	if p.group {
		github.NewActions(nil, p.out).EndGroup()
		p.group = false
	}
}
