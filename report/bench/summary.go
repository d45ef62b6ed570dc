package bench

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
)

// Summary is one configuration's (or peer's) line of the results table.
type Summary struct {
	Config                    string
	Tasks                     int
	CorrectTrue, CorrectFalse int
	WrongTrue, WrongFalse     int
	// OverflowFalse counts FALSE verdicts on TRUE tasks whose
	// counterexample overflows a signed integer (Status Overflow).
	OverflowFalse int
	Unknown       int
	Score         int
	// CPU-time quantiles over correct results, seconds (0 without any):
	// nearest-rank median and 90th percentile, and the maximum.
	Median, P90, Max float64
	CPUCorrect       float64 // total CPU seconds of correct results
}

// Quantile returns the nearest-rank q-quantile (0 < q ≤ 1) of sorted
// values (ascending); 0 for none.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	if i < 0 {
		i = 0
	}
	return sorted[i]
}

// Summarize returns one Summary per configuration, in the order of
// configs (configurations without rows get an empty summary).
func Summarize(rows []Row, configs []string) []Summary {
	out := make([]Summary, len(configs))
	for i, c := range configs {
		s := Summary{Config: c}
		var cpu []float64
		for _, r := range rows {
			if r.Config != c {
				continue
			}
			s.Tasks++
			s.Score += r.Score()
			switch r.Status {
			case Correct:
				if r.Verdict == VerdictTrue {
					s.CorrectTrue++
				} else {
					s.CorrectFalse++
				}
				cpu = append(cpu, r.CPU)
				s.CPUCorrect += r.CPU
			case Wrong:
				if r.Verdict == VerdictTrue {
					s.WrongTrue++
				} else {
					s.WrongFalse++
				}
			case Overflow:
				s.OverflowFalse++
			default:
				s.Unknown++
			}
		}
		sort.Float64s(cpu)
		s.Median, s.P90, s.Max = Quantile(cpu, 0.5), Quantile(cpu, 0.9), Quantile(cpu, 1)
		out[i] = s
	}
	return out
}

// Pair compares two tools on the tasks both ran: A is typically a reverify
// configuration, B a peer. With TrueOnly (a peer that never refutes, such
// as Frama-C's Eva) only tasks labelled TRUE count, on both sides.
type Pair struct {
	A, B     string
	TrueOnly bool
	// Both counts tasks both solve (correct verdicts); RatioTotal is
	// B's total CPU time over A's on those, RatioMedian the median of
	// the per-task ratios B/A (CPU times below 10 ms count as 10 ms).
	Both                    int
	RatioTotal, RatioMedian float64
	// OnlyA and OnlyB count tasks one solves and the other does not
	// (among tasks both ran), split by expected verdict.
	OnlyATrue, OnlyAFalse, OnlyBTrue, OnlyBFalse int
}

// Compare computes the Pair of configurations a and b.
func Compare(rows []Row, a, b string, trueOnly bool) Pair {
	p := Pair{A: a, B: b, TrueOnly: trueOnly}
	byTask := map[string][2]*Row{}
	for i := range rows {
		r := &rows[i]
		if trueOnly && r.Expected != "true" {
			continue
		}
		e := byTask[r.Task]
		switch r.Config {
		case a:
			e[0] = r
		case b:
			e[1] = r
		default:
			continue
		}
		byTask[r.Task] = e
	}
	var sumA, sumB float64
	var ratios []float64
	for _, e := range byTask {
		ra, rb := e[0], e[1]
		if ra == nil || rb == nil {
			continue
		}
		sa, sb := ra.Status == Correct, rb.Status == Correct
		switch {
		case sa && sb:
			p.Both++
			sumA += ra.CPU
			sumB += rb.CPU
			ratios = append(ratios, math.Max(rb.CPU, 0.01)/math.Max(ra.CPU, 0.01))
		case sa:
			if ra.Expected == "true" {
				p.OnlyATrue++
			} else {
				p.OnlyAFalse++
			}
		case sb:
			if rb.Expected == "true" {
				p.OnlyBTrue++
			} else {
				p.OnlyBFalse++
			}
		}
	}
	if p.Both > 0 {
		p.RatioTotal = math.Max(sumB, 0.01) / math.Max(sumA, 0.01)
		sort.Float64s(ratios)
		p.RatioMedian = Quantile(ratios, 0.5)
	}
	return p
}

// Meta describes a run for the Markdown header.
type Meta struct {
	Command        string   // the command line that regenerates the run
	Tasks          int      // number of tasks
	Timeout        string   // CPU-time limit per task, e.g. "10s"
	Memory         string   // memory limit per task, e.g. "4GiB"
	SignedOverflow string   // reverify's signed-overflow mode
	Machine        string   // CPU model, cores, memory
	Peers          []string // peers that ran
	// TrueOnly names peers compared on TRUE tasks only (Eva).
	TrueOnly map[string]bool
	// Missing says, per requested peer that could not run, why
	// ("cbmc: not on PATH").
	Missing []string
}

// WriteMarkdown writes the results report: the table per configuration
// and peer (Table 2 of the seed's evaluation), the peer comparison, the
// pairwise "solves what the other cannot" matrix (Table 3), the signed-
// overflow disagreements, every wrong verdict, and the most frequent
// reasons for UNKNOWN. configs lists reverify's configurations and the
// peers, in table order; plot is the quantile plot's file name ("" for
// none).
func WriteMarkdown(w io.Writer, rows []Row, configs []string, meta Meta, plot string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## reverify bench\n\n")
	fmt.Fprintf(&b, "%d tasks; CPU-time limit %s and memory limit %s per task and configuration; signed overflow: %s.",
		meta.Tasks, meta.Timeout, meta.Memory, meta.SignedOverflow)
	if meta.Machine != "" {
		fmt.Fprintf(&b, " Machine: %s.", meta.Machine)
	}
	b.WriteString("\n")
	if meta.Command != "" {
		fmt.Fprintf(&b, "Regenerate with `%s`.\n", meta.Command)
	}
	b.WriteString("\n| configuration | tasks | correct TRUE | correct FALSE | wrong TRUE | wrong FALSE | FALSE by signed overflow | UNKNOWN | score | CPU median | CPU p90 | CPU max |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range Summarize(rows, configs) {
		name := s.Config
		if meta.TrueOnly[s.Config] {
			name += " (proves only)"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s | %s |\n", name, s.Tasks,
			s.CorrectTrue, s.CorrectFalse, s.WrongTrue, s.WrongFalse, s.OverflowFalse, s.Unknown, s.Score,
			secs(s.Median), secs(s.P90), secs(s.Max))
	}
	b.WriteString("\nScore: +2 correct TRUE, +1 correct FALSE, −32 wrong TRUE, −16 wrong FALSE (SV-COMP); a FALSE by signed overflow scores −16 too. CPU quantiles are over correct results.\n")
	if plot != "" {
		fmt.Fprintf(&b, "\n![quantile plot](%s)\n", plot)
	}
	if len(meta.Missing) > 0 {
		b.WriteString("\nPeers not run: " + strings.Join(meta.Missing, "; ") + ".\n")
	}
	var ours []string
	for _, c := range configs {
		if !contains(meta.Peers, c) {
			ours = append(ours, c)
		}
	}
	if len(meta.Peers) > 0 {
		b.WriteString("\n### Side by side with peers\n\n")
		b.WriteString("| peer | configuration | tasks compared | both solve | CPU ratio peer / reverify (total) | median per-task ratio | only reverify (TRUE/FALSE) | only peer (TRUE/FALSE) |\n")
		b.WriteString("|---|---|---|--:|--:|--:|--:|--:|\n")
		for _, peer := range meta.Peers {
			for _, c := range ours {
				p := Compare(rows, c, peer, meta.TrueOnly[peer])
				scope := "all"
				if p.TrueOnly {
					scope = "labelled TRUE"
				}
				ratio, med := "–", "–"
				if p.Both > 0 {
					ratio, med = fmt.Sprintf("%.2f", p.RatioTotal), fmt.Sprintf("%.2f", p.RatioMedian)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %d/%d | %d/%d |\n", peer, c, scope, p.Both, ratio, med,
					p.OnlyATrue, p.OnlyAFalse, p.OnlyBTrue, p.OnlyBFalse)
			}
		}
	}
	if len(configs) > 1 {
		b.WriteString("\n### Solves what the other cannot\n\nRow solves, column does not (TRUE/FALSE tasks; peers that only prove are compared on TRUE tasks).\n\n")
		b.WriteString("| solves \\ cannot |")
		for _, c := range configs {
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n|---|" + strings.Repeat("--:|", len(configs)) + "\n")
		for _, a := range configs {
			b.WriteString("| " + a + " |")
			for _, c := range configs {
				if a == c {
					b.WriteString(" – |")
					continue
				}
				p := Compare(rows, a, c, meta.TrueOnly[a] || meta.TrueOnly[c])
				fmt.Fprintf(&b, " %d/%d |", p.OnlyATrue, p.OnlyAFalse)
			}
			b.WriteString("\n")
		}
	}
	var ovf, wrong []Row
	for _, r := range rows {
		if !contains(configs, r.Config) {
			continue
		}
		switch r.Status {
		case Overflow:
			ovf = append(ovf, r)
		case Wrong:
			wrong = append(wrong, r)
		}
	}
	if len(ovf) > 0 {
		fmt.Fprintf(&b, "\n### Disagreements by signed overflow (%d)\n\nThe label says TRUE; reverify's counterexample overflows a signed integer, which wraps under `--signed-overflow wrap` and is undefined behaviour in C (`--signed-overflow assume-none` cuts such paths).\n\n", len(ovf))
		for _, r := range ovf {
			fmt.Fprintf(&b, "- `%s` (%s): expected TRUE, got FALSE; disagrees by signed overflow at `%s`\n", TaskName(r.Task), r.Config, shortPos(r.OverflowAt))
		}
	}
	fmt.Fprintf(&b, "\n### Wrong verdicts (%d)\n\n", len(wrong))
	if len(wrong) == 0 {
		b.WriteString("None.\n")
	}
	for _, r := range wrong {
		fmt.Fprintf(&b, "- `%s` (%s): expected %s, got %s — %s\n", TaskName(r.Task), r.Config, strings.ToUpper(r.Expected), r.Verdict, oneLine(r.Reason, 200))
	}
	b.WriteString("\n### Most frequent reasons for UNKNOWN\n\n")
	any := false
	for _, c := range configs {
		counts := map[string]int{}
		for _, r := range rows {
			if r.Config == c && r.Status == Unknown {
				counts[reasonClass(r.Reason)]++
			}
		}
		if len(counts) == 0 {
			continue
		}
		any = true
		type kv struct {
			k string
			n int
		}
		var l []kv
		for k, n := range counts {
			l = append(l, kv{k, n})
		}
		sort.Slice(l, func(i, j int) bool { return l[i].n > l[j].n || l[i].n == l[j].n && l[i].k < l[j].k })
		if len(l) > 5 {
			l = l[:5]
		}
		parts := make([]string, len(l))
		for i, x := range l {
			parts[i] = fmt.Sprintf("%d× %s", x.n, x.k)
		}
		fmt.Fprintf(&b, "- %s: %s\n", c, strings.Join(parts, "; "))
	}
	if !any {
		b.WriteString("None.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TaskName is the task's display name: its directory and file name.
func TaskName(path string) string {
	return filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path)))
}

func shortPos(p string) string {
	dir, file := filepath.Split(p)
	if dir == "" {
		return p
	}
	return file
}

// reasonClass groups reasons: numbers and positions removed, the first
// clause kept.
func reasonClass(s string) string {
	s = oneLine(s, 1000)
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = s[:i]
	}
	var b strings.Builder
	lastDigit := false
	for _, r := range s {
		if r >= '0' && r <= '9' {
			if !lastDigit {
				b.WriteByte('N')
			}
			lastDigit = true
			continue
		}
		lastDigit = false
		b.WriteRune(r)
	}
	out := strings.TrimSpace(b.String())
	if len(out) > 90 {
		out = out[:90] + "…"
	}
	if out == "" {
		return "(no reason given)"
	}
	return out
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "|", "\\|")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

func secs(x float64) string {
	if x == 0 {
		return "–"
	}
	if x < 10 {
		return fmt.Sprintf("%.2f s", x)
	}
	return fmt.Sprintf("%.1f s", x)
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
