package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
)

// LimitExecArg is the hidden first argument of `reverify bench` that
// makes it the limit wrapper of one run: `reverify bench __exec CPU AS --
// PROG ARGS…` sets RLIMIT_CPU to CPU seconds and RLIMIT_AS to AS bytes
// and execs PROG, so that the limits and the rusage the parent collects
// belong to the measured program itself.
const LimitExecArg = "__exec"

// Options configure Run. The caller (the flag parsing of `reverify
// bench`) validates the limits, the overflow mode, the reduction level
// and the configuration names.
type Options struct {
	Tasks   []string      // .yml task files, verdict programs, directories or @list files (ExpandTasks)
	Timeout time.Duration // CPU-time limit per run
	Memory  uint64        // address-space limit per run, in bytes
	// MemoryText is the memory limit as the user gave it, for the report.
	MemoryText string
	Jobs       int      // runs in parallel, ≥ 1
	Configs    []string // reverify configurations, at least one
	// ProgramConfigs, when not nil, restricts verdict programs to those
	// of their own configurations (`// configs:`) it lists; nil runs
	// each under all of its own. Configs, Peers, Mode, Reduce and
	// Frontend are for task definitions: a verdict program's directives
	// set up its runs (verdicts.go).
	ProgramConfigs []string
	Peers          []string // peer specifications (frama-c-eva[:PRECISION], cbmc)
	Out            string   // output directory: results.csv, results.md, quantile.png
	Mode           engine.OverflowMode
	Reduce         string // --reduce of reverify's runs
	// Frontend is --frontend of reverify's runs: "" or "cc" the built-in
	// C front end, "clang" the LLVM front end.
	Frontend string
	Command  string // the command line, for the report
	// Self is the reverify executable every run re-executes (as
	// `reverify bench __exec …` and `reverify check --svcomp …`);
	// empty: os.Executable().
	Self string
	Log  io.Writer // progress and missing peers; nil discards
}

// Outcome is what a Run wrote and found.
type Outcome struct {
	CSV, Markdown, Plot string // paths of results.csv, results.md, quantile.png
	// Interrupted: ctx was cancelled; the runs not finished are not
	// recorded, and rerunning the same command resumes.
	Interrupted bool
	// Wrong: a reverify configuration (not a peer) gave a wrong verdict.
	Wrong bool
}

// Run runs every (task, configuration) and (task, peer) pair in its own
// child process under a CPU-time and a memory limit; rows are appended
// to Out/results.csv as they finish (a rerun skips the pairs already
// there with the same limit and mode), and at the end Out/results.md and
// Out/quantile.png summarise the tasks of this run. Pairs run
// configuration-major (the first configuration on every task, then the
// peers, then the other configurations), o.Jobs at a time. Its error is
// a usage or input error (unknown peer, unreadable task, no tasks, an
// unreadable CSV) or a failure to write the results; a cancelled ctx is
// not an error (Outcome.Interrupted).
func Run(ctx context.Context, o Options) (*Outcome, error) {
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	var peers []*peer
	meta := Meta{Command: o.Command,
		Timeout: o.Timeout.String(), Memory: o.MemoryText, SignedOverflow: string(o.Mode), Machine: machine(),
		TrueOnly: map[string]bool{}}
	for _, name := range o.Peers {
		p, err := newPeer(name)
		if err != nil {
			return nil, err
		}
		if p.missing != "" {
			meta.Missing = append(meta.Missing, p.missing)
			fmt.Fprintf(log, "reverify bench: %s\n", p.missing)
			continue
		}
		peers = append(peers, p)
		meta.Peers = append(meta.Peers, p.name)
		meta.TrueOnly[p.name] = p.trueOnly
	}
	home, _ := os.UserHomeDir()
	paths, err := ExpandTasks(o.Tasks, home)
	if err != nil {
		return nil, err
	}
	meta.Tasks = len(paths)
	tasks := make([]*Task, len(paths))
	programs := 0
	for i, p := range paths {
		if strings.HasSuffix(p, ".c") {
			tasks[i], err = readProgram(p)
			programs++
		} else {
			tasks[i], err = ReadTask(p)
		}
		if err != nil {
			return nil, err
		}
	}
	self := o.Self
	if self == "" {
		if self, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("cannot find the reverify executable: %v", err)
		}
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	// One scratch directory per bench process: two runs into the same
	// Out must not remove each other's files.
	tmp, err := os.MkdirTemp(o.Out, "tmp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	csvPath := filepath.Join(o.Out, "results.csv")
	old, err := ReadCSVFile(csvPath)
	if err != nil {
		return nil, fmt.Errorf("%v (move it away to start afresh)", err)
	}
	done := map[string]Row{}
	for _, r := range old {
		done[r.Key()] = r
	}
	w, err := AppendCSV(csvPath)
	if err != nil {
		return nil, err
	}
	defer w.Close()

	r := &benchRun{self: self, timeout: o.Timeout, mem: o.Memory, memText: o.MemoryText, mode: o.Mode, reduce: o.Reduce, front: o.Frontend, tmp: tmp}
	var todo []benchJob
	var rows []Row
	var names []string
	if programs < len(tasks) {
		names = append(names, o.Configs...)
		for _, p := range peers {
			names = append(names, p.name)
		}
	}
	// Configuration-major order: the first configuration on every task,
	// then the peers, then the other configurations, so that an
	// interrupted run has complete tables for what it finished.
	add := func(j benchJob) {
		if row, ok := done[r.key(j)]; ok {
			rows = append(rows, row)
			return
		}
		todo = append(todo, j)
	}
	plan := func(config string, p *peer) {
		for i, t := range tasks {
			if t.Program == nil {
				add(benchJob{path: paths[i], task: t, config: config, peer: p})
			}
		}
	}
	if programs < len(tasks) {
		plan(o.Configs[0], nil)
		for _, p := range peers {
			plan(p.name, p)
		}
		for _, c := range o.Configs[1:] {
			plan(c, nil)
		}
	}
	// Verdict programs, each under its own configurations, after the
	// task definitions.
	for i, t := range tasks {
		if t.Program == nil {
			continue
		}
		configs := programConfigs(t.Program, o.ProgramConfigs)
		if len(configs) == 0 {
			fmt.Fprintf(log, "reverify bench: %s: none of its configurations (%s) is among --config: skipped\n", paths[i], strings.Join(t.Program.Configs, " "))
		}
		for _, c := range configs {
			if !slices.Contains(names, c) {
				names = append(names, c)
			}
			add(benchJob{path: paths[i], task: t, config: c})
		}
	}
	prog := newProgress(log, len(todo)+len(rows), len(rows))
	for _, row := range rows {
		prog.count(row)
	}
	var mu sync.Mutex
	var writeErr error
	work := make(chan benchJob)
	var wg sync.WaitGroup
	for k := 0; k < o.Jobs; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				row, ok := r.run(ctx, j)
				if !ok {
					continue // interrupted: not recorded, a rerun repeats it
				}
				mu.Lock()
				rows = append(rows, row)
				if err := w.Write(row); err != nil && writeErr == nil {
					writeErr = err
				}
				prog.count(row)
				prog.show(row)
				mu.Unlock()
			}
		}()
	}
	for _, j := range todo {
		if ctx.Err() != nil {
			break
		}
		work <- j
	}
	close(work)
	wg.Wait()
	prog.end()
	if writeErr != nil {
		return nil, fmt.Errorf("writing %s: %v", csvPath, writeErr)
	}
	if err := writeReport(o.Out, rows, names, meta); err != nil {
		return nil, err
	}
	out := &Outcome{CSV: csvPath, Markdown: filepath.Join(o.Out, "results.md"), Plot: filepath.Join(o.Out, "quantile.png"),
		Interrupted: ctx.Err() != nil}
	for _, row := range rows {
		if row.Status == Wrong && row.SignedOverflow != "" { // a reverify row (peers have no mode)
			out.Wrong = true
		}
	}
	return out, nil
}

// writeReport writes results.md and quantile.png for rows.
func writeReport(dir string, rows []Row, names []string, meta Meta) error {
	var png bytes.Buffer
	title := fmt.Sprintf("%d tasks, CPU-time limit %s", meta.Tasks, meta.Timeout)
	if err := WritePlot(&png, rows, names, title); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "quantile.png"), png.Bytes(), 0o644); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rows, names, meta, "quantile.png"); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.md"), md.Bytes(), 0o644)
}

// benchJob is one task under one configuration or peer.
type benchJob struct {
	path   string
	task   *Task
	config string
	peer   *peer // nil: reverify
}

// benchRun holds what every run shares.
type benchRun struct {
	self    string
	timeout time.Duration
	mem     uint64
	memText string // the memory limit as given: reverify check --memory of verdict programs
	mode    engine.OverflowMode
	reduce  string // --reduce of each run
	front   string // --frontend of each run ("": the default)
	tmp     string
	seq     int
	mu      sync.Mutex
}

func (r *benchRun) key(j benchJob) string { return r.row(j).Key() }

// row is the Row of j before it runs.
func (r *benchRun) row(j benchJob) Row {
	row := Row{Task: j.path, Config: j.config, Timeout: r.timeout.Seconds(), Expected: j.task.Expected}
	switch {
	case j.task.Program != nil:
		row.SignedOverflow = programMode(j.task.Program)
	case j.peer == nil:
		row.SignedOverflow = string(r.mode)
	}
	return row
}

// run runs j in a child process and classifies its result; ok is false
// when the run was interrupted (ctx cancelled) and must not be recorded.
func (r *benchRun) run(ctx context.Context, j benchJob) (row Row, ok bool) {
	row = r.row(j)
	r.mu.Lock()
	r.seq++
	n := r.seq
	r.mu.Unlock()
	// The limit is on CPU time (RLIMIT_CPU, as SV-COMP's BenchExec):
	// the CPU limit leaves a second of grace, and a result over the limit
	// is a timeout anyway. A process that sleeps or blocks uses no CPU:
	// the wall-clock limit catches it. reverify's own limit is the same
	// CPU time (--clock cpu), so that sequential combinations hand over
	// at their share of it and a timeout is reported as such; RLIMIT_CPU
	// is the backstop.
	cpuLimit := int(r.timeout.Seconds()+0.999) + 1
	wall := 20*r.timeout + 90*time.Second
	var argv []string
	jsonPath := filepath.Join(r.tmp, fmt.Sprintf("run-%d-%d.json", os.Getpid(), n))
	if j.task.Program != nil {
		argv = append([]string{r.self, "check"}, programArgs(j.task.Program, j.config, jsonPath, r.memText)...)
		defer os.Remove(jsonPath)
	} else if j.peer == nil {
		argv = []string{r.self, "check", "--svcomp", j.path, "--config", j.config, "--json", jsonPath,
			"--timeout", r.timeout.String(), "--clock", "cpu", "--signed-overflow", string(r.mode), "--reduce", r.reduce}
		if r.front != "" {
			argv = append(argv, "--frontend", r.front)
		}
		defer os.Remove(jsonPath)
	} else {
		var cleanup func()
		var err error
		argv, cleanup, err = j.peer.command(j.task, r.tmp, n)
		if err != nil {
			row.Verdict, row.Reason = VerdictUnknown, err.Error()
			row.Classify()
			return row, true
		}
		defer cleanup()
	}
	wctx, cancel := context.WithTimeout(ctx, wall)
	defer cancel()
	cmd := exec.CommandContext(wctx, r.self, append([]string{"bench", LimitExecArg, strconv.Itoa(cpuLimit),
		strconv.FormatUint(r.mem, 10), "--"}, argv...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out, errOut tailBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	row.Wall = time.Since(start).Seconds()
	if ctx.Err() != nil {
		return row, false
	}
	st := cmd.ProcessState
	if st == nil {
		row.Verdict, row.Reason = VerdictUnknown, "could not start: "+err.Error()
		row.Classify()
		return row, true
	}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		row.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		row.MemMiB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	ws, _ := st.Sys().(syscall.WaitStatus)
	stderrText := errOut.String()
	switch {
	case row.CPU >= r.timeout.Seconds():
		row.Verdict, row.Reason = VerdictUnknown, fmt.Sprintf("timeout (CPU time limit %s)", r.timeout)
	case errors.Is(wctx.Err(), context.DeadlineExceeded):
		row.Verdict, row.Reason = VerdictUnknown, fmt.Sprintf("wall-time limit %s (the process used %.1f s CPU)", wall, row.CPU)
	case outOfMemory(stderrText):
		row.Verdict, row.Reason = VerdictUnknown, "memory limit "+humanBytes(r.mem)
	case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
		// Not the wall-clock kill (checked above): RLIMIT_CPU. The
		// kernel's precise runtime reaches the limit while the rusage
		// times (tick-sampled) can read up to a second or two less.
		row.Verdict, row.Reason = VerdictUnknown, fmt.Sprintf("timeout (CPU time limit %s: killed by RLIMIT_CPU)", r.timeout)
	case ws.Signaled():
		row.Verdict, row.Reason = VerdictUnknown, "killed by signal "+ws.Signal().String()
	case j.task.Program != nil:
		row.Verdict, row.Reason = programVerdict(j.task.Program, j.config, jsonPath, ws.ExitStatus(), stderrText)
	case j.peer != nil:
		row.Verdict, row.Reason = j.peer.verdict(ws.ExitStatus(), out.String(), stderrText)
	default:
		row.Verdict, row.Reason, row.OverflowAt = reverifyVerdict(jsonPath, ws.ExitStatus(), stderrText)
		if v := violatedOf(jsonPath); row.Verdict == VerdictFalse && j.task.Subproperty != "" && v != j.task.Subproperty {
			// A memory-safety FALSE counts only with the expected
			// subproperty: any other is wrong.
			row.Expected = "false(" + j.task.Subproperty + ")"
		}
	}
	if j.task.Program != nil {
		row.classifyWants()
		return row, true
	}
	row.Classify()
	return row, true
}

// reverifyVerdict reads the results.json of a `reverify check --svcomp`
// child.
func reverifyVerdict(jsonPath string, exit int, stderr string) (verdict, reason, overflowAt string) {
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return VerdictUnknown, fmt.Sprintf("error (exit %d): %s", exit, lastLine(stderr)), ""
	}
	var rep results.Report
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Properties) != 1 {
		return VerdictUnknown, fmt.Sprintf("error: unreadable results.json (exit %d): %s", exit, lastLine(stderr)), ""
	}
	p := rep.Properties[0]
	switch p.Verdict {
	case results.True:
		return VerdictTrue, p.Reason, ""
	case results.False:
		return VerdictFalse, p.Reason, p.SignedOverflow
	}
	return VerdictUnknown, p.Reason, ""
}

// LimitExec is the child side of a run (`reverify bench __exec CPU AS --
// PROG ARGS…`, args without LimitExecArg): it sets RLIMIT_CPU to CPU
// seconds and RLIMIT_AS to AS bytes and execs PROG, so that the limits
// and the rusage the parent collects belong to the measured program. It
// returns only on failure, with exit code 2 after a message on stderr.
func LimitExec(args []string, stderr io.Writer) int {
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(stderr, "reverify bench __exec: usage: CPU_SECONDS AS_BYTES -- PROGRAM ARGS...")
		return 2
	}
	cpu, err1 := strconv.ParseUint(args[0], 10, 64)
	as, err2 := strconv.ParseUint(args[1], 10, 64)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(stderr, "reverify bench __exec: bad limits", args[0], args[1])
		return 2
	}
	prog, err := exec.LookPath(args[3])
	if err != nil {
		fmt.Fprintf(stderr, "reverify bench __exec: %v\n", err)
		return 2
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: cpu, Max: cpu}); err != nil {
		fmt.Fprintf(stderr, "reverify bench __exec: RLIMIT_CPU: %v\n", err)
		return 2
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as}); err != nil {
		fmt.Fprintf(stderr, "reverify bench __exec: RLIMIT_AS: %v\n", err)
		return 2
	}
	err = syscall.Exec(prog, args[3:], os.Environ())
	fmt.Fprintf(stderr, "reverify bench __exec: %s: %v\n", prog, err)
	return 2
}

func outOfMemory(stderr string) bool {
	for _, s := range []string{"out of memory", "cannot allocate memory", "Out of memory", "std::bad_alloc", "Out_of_memory"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// ParseBytes parses a size in bytes: 4GiB, 512MiB, 4G (binary), 4GB
// (decimal), 100M, or a plain number; it fails on anything not positive.
func ParseBytes(s string) (uint64, error) {
	units := []struct {
		suffix string
		mult   uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
		{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}}
	mult := uint64(1)
	num := strings.TrimSpace(s)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad size %q (want e.g. 4GiB or 512MiB)", s)
	}
	return uint64(v * float64(mult)), nil
}

func humanBytes(b uint64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", b>>30)
	case b >= 1<<20:
		return fmt.Sprintf("%dMiB", b>>20)
	}
	return fmt.Sprintf("%dB", b)
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 300 {
		l = l[:300] + "…"
	}
	if l == "" {
		return "no output"
	}
	return l
}

// machine describes this machine: CPU model, cores, memory.
func machine() string {
	model := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := ""
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb uint64
		if _, err := fmt.Sscanf(string(data), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf(", %.0f GiB memory", float64(kb)/(1<<20))
		}
	}
	if model == "" {
		model = runtime.GOARCH
	}
	return fmt.Sprintf("%s, %d cores%s", model, runtime.NumCPU(), mem)
}

// tailBuffer keeps the first and last 32 KiB of a stream.
type tailBuffer struct {
	head, tail []byte
	cut        bool
}

const tailKeep = 32 << 10

func (b *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := tailKeep - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		b.tail = append(b.tail, p...)
		if len(b.tail) > tailKeep {
			b.tail = append([]byte{}, b.tail[len(b.tail)-tailKeep:]...)
			b.cut = true
		}
	}
	return n, nil
}

func (b *tailBuffer) String() string {
	if b.cut {
		return string(b.head) + "\n…\n" + string(b.tail)
	}
	return string(b.head) + string(b.tail)
}

// progress prints one status line on stderr: runs done of the total,
// counts of correct, wrong and unknown results, and the last result.
type progress struct {
	w                       io.Writer
	tty                     bool
	total, done, resumed    int
	correct, wrong, unknown int
	overflow                int
	lastPrint               time.Time
}

func newProgress(w io.Writer, total, resumed int) *progress {
	p := &progress{w: w, total: total, resumed: resumed}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) count(r Row) {
	p.done++
	switch r.Status {
	case Correct:
		p.correct++
	case Wrong:
		p.wrong++
	case Overflow:
		p.overflow++
	default:
		p.unknown++
	}
}

func (p *progress) show(r Row) {
	line := fmt.Sprintf("bench: %d/%d done (%d resumed): %d correct, %d wrong, %d by signed overflow, %d unknown; last %s %s %s %.1fs",
		p.done, p.total, p.resumed, p.correct, p.wrong, p.overflow, p.unknown, TaskName(r.Task), r.Config, r.Verdict, r.CPU)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
		return
	}
	if time.Since(p.lastPrint) > 10*time.Second || p.done == p.total {
		fmt.Fprintln(p.w, line)
		p.lastPrint = time.Now()
	}
}

func (p *progress) end() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
}

// violatedOf returns the violated memory property of the single result
// in a `reverify check --svcomp` results.json ("" if none or unreadable).
func violatedOf(jsonPath string) string {
	var rep results.Report
	if data, err := os.ReadFile(jsonPath); err != nil || json.Unmarshal(data, &rep) != nil || len(rep.Properties) != 1 {
		return ""
	}
	return rep.Properties[0].Violated
}
