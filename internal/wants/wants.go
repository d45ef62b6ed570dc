package wants

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/results"
)

// The expressions of the format (doc.go): exported for tests that select
// programs by their directives.
var (
	// WantRE matches the expectations of an assertion line.
	WantRE = regexp.MustCompile(`// want (.*)$`)
	// WantItemRE matches one item of a want line ([label:]VERDICT ["reason"]).
	WantItemRE = regexp.MustCompile(`^\s*(?:([a-z][a-z0-9-]*):)?(TRUE|FALSE|UNKNOWN|NOT_CHECKED)(?: "([^"]*)")?`)
	// ConfigsRE matches `// configs: value value-cegar`.
	ConfigsRE = regexp.MustCompile(`(?m)^// configs:((?:\s+[a-z][a-z0-9-]*)+)\s*$`)
	// MaxStatesRE matches `// max-states: N`.
	MaxStatesRE = regexp.MustCompile(`(?m)^// max-states: ([0-9]+)\s*$`)
	// OverflowRE matches `// signed-overflow: MODE`.
	OverflowRE = regexp.MustCompile(`(?m)^// signed-overflow: ([a-z-]+)\s*$`)
	// AssumePureRE matches `// assume-pure: f g`.
	AssumePureRE = regexp.MustCompile(`(?m)^// assume-pure:((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)\s*$`)
	// ReduceRE matches `// reduce: LEVEL`.
	ReduceRE = regexp.MustCompile(`(?m)^// reduce: ([a-z]+)\s*$`)
	// EntryRE matches `// entry: f`.
	EntryRE = regexp.MustCompile(`(?m)^// entry: ([A-Za-z_][A-Za-z0-9_]*)\s*$`)
	// MemoryRE matches `// memory: valid-memsafety FALSE "valid-deref"`.
	MemoryRE = regexp.MustCompile(`(?m)^// memory: (valid-memsafety|valid-memcleanup) (TRUE|FALSE|UNKNOWN)(?: "([^"]*)")?\s*$`)
	// SitesRE matches `// memory: sites`.
	SitesRE    = regexp.MustCompile(`(?m)^// memory: sites\s*$`)
	siteRE     = regexp.MustCompile(`// site:(.*)$`)
	siteItemRE = regexp.MustCompile(`(valid-deref|valid-free) (TRUE|FALSE|UNKNOWN)(?: "([^"]*)")?`)
	// ViolationRE marks the line of a memory-safety violation.
	ViolationRE = regexp.MustCompile(`// violation\s*$`)
	// MallocRE matches `// malloc: may-fail`.
	MallocRE = regexp.MustCompile(`(?m)^// malloc: may-fail\s*$`)
)

// DefaultConfigs are the configurations a program runs under unless its
// `// configs:` line says otherwise.
var DefaultConfigs = []string{"value", "value-cegar"}

// Want is an expected verdict and a substring of the reason.
type Want struct {
	Verdict results.Verdict
	Reason  string
}

// Memory-safety property IDs and subproperties, as engine/spec names
// them.
const (
	MemSafety  = "valid-memsafety"
	MemCleanup = "valid-memcleanup"
	Deref      = "valid-deref"
	Free       = "valid-free"
)

// Program is a verdict program with its directives.
type Program struct {
	File, Src string
	// Configs are the configurations it runs under.
	Configs []string
	// MaxStates is the state limit of each run (0: the engine's).
	MaxStates int
	// SignedOverflow is the signed-overflow mode ("": the default).
	SignedOverflow string
	// AssumePure are the functions assumed side-effect-free.
	AssumePure []string
	// Reduce is the size reduction ("": none).
	Reduce string
	// Entry is the entry function (main unless `// entry:` says).
	Entry string
	// Memory are the wanted verdicts of the whole-program memory
	// properties, by ID (MemSafety, MemCleanup); MemoryIDs lists them in
	// the order of their lines.
	Memory    map[string]Want
	MemoryIDs []string
	// Sites: the per-site memory properties (valid-deref, valid-free)
	// are checked; SiteWants are their wants by "LINE SUBPROPERTY".
	Sites     bool
	SiteWants map[string]Want
	// ViolationLine is the line marked `// violation` (0: none).
	ViolationLine int
	// MallocMayFail: malloc and calloc may return NULL.
	MallocMayFail bool
}

// IsProgram reports whether src is a verdict program: it has a `// want`
// line or a `// memory:` directive.
func IsProgram(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		if WantRE.MatchString(line) {
			return true
		}
	}
	return MemoryRE.MatchString(src) || SitesRE.MatchString(src)
}

// Read reads and parses the program at file.
func Read(file string) (*Program, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, string(src)), nil
}

// Parse parses the directives of src (the program at file). Bad want
// lines are reported by Wants.
func Parse(file, src string) *Program {
	p := &Program{File: file, Src: src, Configs: DefaultConfigs, Entry: "main", Memory: map[string]Want{}, SiteWants: map[string]Want{}}
	if m := ConfigsRE.FindStringSubmatch(src); m != nil {
		p.Configs = strings.Fields(m[1])
	}
	if m := MaxStatesRE.FindStringSubmatch(src); m != nil {
		p.MaxStates, _ = strconv.Atoi(m[1])
	}
	if m := OverflowRE.FindStringSubmatch(src); m != nil {
		p.SignedOverflow = m[1]
	}
	if m := AssumePureRE.FindStringSubmatch(src); m != nil {
		p.AssumePure = strings.Fields(m[1])
	}
	if m := ReduceRE.FindStringSubmatch(src); m != nil {
		p.Reduce = m[1]
	}
	if m := EntryRE.FindStringSubmatch(src); m != nil {
		p.Entry = m[1]
	}
	for _, m := range MemoryRE.FindAllStringSubmatch(src, -1) {
		p.Memory[m[1]] = Want{results.Verdict(m[2]), m[3]}
		p.MemoryIDs = append(p.MemoryIDs, m[1])
	}
	p.Sites = SitesRE.MatchString(src)
	p.MallocMayFail = MallocRE.MatchString(src)
	for i, line := range strings.Split(src, "\n") {
		if ViolationRE.MatchString(line) {
			p.ViolationLine = i + 1
		}
		if m := siteRE.FindStringSubmatch(line); m != nil {
			for _, it := range siteItemRE.FindAllStringSubmatch(m[1], -1) {
				p.SiteWants[SiteKey(i+1, it[1])] = Want{results.Verdict(it[2]), it[3]}
			}
		}
	}
	return p
}

// SiteKey is the key of SiteWants: a site's line and subproperty.
func SiteKey(line int, sub string) string { return fmt.Sprintf("%d %s", line, sub) }

// Wants returns the expectations of the assertion lines under config, by
// line: the item labelled first (when it is not config) wins over
// config's, which wins over the unlabelled one. A line it cannot read,
// or without a want for config, is an error naming the line.
func (p *Program) Wants(config string, first ...string) (map[int]Want, error) {
	wants := map[int]Want{}
	for i, line := range strings.Split(p.Src, "\n") {
		m := WantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var all, mine, pref *Want
		for rest := m[1]; strings.TrimSpace(rest) != ""; {
			it := WantItemRE.FindStringSubmatch(rest)
			if it == nil {
				return nil, fmt.Errorf("%s:%d: bad want %q", p.File, i+1, m[1])
			}
			rest = rest[len(it[0]):]
			w := &Want{results.Verdict(it[2]), it[3]}
			switch it[1] {
			case "":
				all = w
			case config:
				mine = w
			}
			if len(first) > 0 && first[0] != config && it[1] == first[0] {
				pref = w
			}
		}
		switch {
		case pref != nil:
			wants[i+1] = *pref
		case mine != nil:
			wants[i+1] = *mine
		case all != nil:
			wants[i+1] = *all
		default:
			return nil, fmt.Errorf("%s:%d: no want for configuration %s", p.File, i+1, config)
		}
	}
	return wants, nil
}

// Got is one property's result as Check compares it.
type Got struct {
	ID string
	// Line is the property's line: an assertion's, or a memory site's.
	Line    int
	Verdict results.Verdict
	Reason  string
	// Site is the subproperty of a per-site memory property (valid-deref,
	// valid-free); Memory marks a whole-program memory property (its ID
	// is MemSafety or MemCleanup).
	Site   string
	Memory bool
	// Steps is the length of the counterexample; ViolationLine the line
	// of a memory-safety violation.
	Steps         int
	ViolationLine int
}

// Check compares got with wants (Wants' result) and the program's memory
// and site wants, and returns the problems, each a line naming the file.
func (p *Program) Check(wants map[int]Want, got []Got) []string {
	var out []string
	errf := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	file := p.File
	seen := map[int]bool{}
	siteSeen := map[string]bool{}
	for _, r := range got {
		if r.Site != "" {
			key := SiteKey(r.Line, r.Site)
			siteSeen[key] = true
			w, ok := p.SiteWants[key]
			switch {
			case !ok:
				errf("%s:%d: unexpected memory site %s: %s (%s)", file, r.Line, r.ID, r.Verdict, r.Reason)
			case r.Verdict != w.Verdict || !strings.Contains(r.Reason, w.Reason):
				errf("%s: %s: got %s (%s), want %s %q", file, r.ID, r.Verdict, r.Reason, w.Verdict, w.Reason)
			case r.Verdict == results.False && (r.Steps == 0 || r.ViolationLine != r.Line):
				errf("%s: %s: FALSE at line %d with %d steps, want the violation at its own line", file, r.ID, r.ViolationLine, r.Steps)
			}
			continue
		}
		if w, ok := p.Memory[r.ID]; ok && r.Memory {
			if r.Verdict != w.Verdict || !strings.Contains(r.Reason, w.Reason) {
				errf("%s: %s: got %s (%s), want %s %q", file, r.ID, r.Verdict, r.Reason, w.Verdict, w.Reason)
			}
			if r.Verdict == results.False && (r.Steps == 0 || p.ViolationLine != 0 && r.ViolationLine != p.ViolationLine) {
				errf("%s: %s: FALSE at line %d with %d steps, want the violation at line %d", file, r.ID, r.ViolationLine, r.Steps, p.ViolationLine)
			}
			continue
		}
		line := r.Line
		seen[line] = true
		w, ok := wants[line]
		if !ok {
			errf("%s:%d: unexpected property %s: %s (%s)", file, line, r.ID, r.Verdict, r.Reason)
			continue
		}
		if r.Verdict != w.Verdict || !strings.Contains(r.Reason, w.Reason) {
			errf("%s:%d: %s: got %s (%s), want %s %q", file, line, r.ID, r.Verdict, r.Reason, w.Verdict, w.Reason)
		}
		if r.Verdict == results.False && r.Steps == 0 {
			errf("%s:%d: FALSE without a counterexample", file, line)
		}
	}
	var lines []int
	for line := range wants {
		lines = append(lines, line)
	}
	sort.Ints(lines)
	for _, line := range lines {
		if !seen[line] {
			errf("%s:%d: no property found, want %s", file, line, wants[line].Verdict)
		}
	}
	var keys []string
	for key := range p.SiteWants {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		if !siteSeen[key] {
			errf("%s: no memory site at line %s, want %s", file, key, p.SiteWants[key].Verdict)
		}
	}
	return out
}
