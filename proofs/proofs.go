package proofs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Proof is one proof directory, its Makefile resolved.
type Proof struct {
	// Dir is the proof directory (absolute, clean); Name its PROOF_UID,
	// else its base name.
	Dir, Name string
	// Entry is HARNESS_ENTRY, the function to verify.
	Entry string
	// HarnessFile is HARNESS_FILE as resolved (informative: the files
	// compiled are Sources).
	HarnessFile string
	// Sources are PROOF_SOURCES then PROJECT_SOURCES: absolute paths,
	// each once, in the Makefiles' order.
	Sources []string
	// Defines are DEFINES' -D options (name → value; "" for -DNAME).
	Defines map[string]string
	// Includes are INCLUDES' -I directories (absolute).
	Includes []string
	// Unwindset is UNWINDSET as resolved: CBMC's loop bounds, loop id
	// ("function.N", CBMC's numbering) → bound (CBMC's --unwindset:
	// one more than the iterations unrolled), for bounded model checking
	// (engine/bmc unrolls each listed loop at least that far; verdicts
	// stay unbounded: an unwinding assertion that fails is never a
	// proof). An entry that is not "id:N" is listed in Unresolved.
	Unwindset map[string]int
	// ProjectSources are the Sources that come from PROJECT_SOURCES only
	// (not also from PROOF_SOURCES).
	ProjectSources []string
	// RemoveFunctionBody lists the functions whose bodies CBMC's
	// goto-instrument --remove-function-body removes from the project
	// sources before linking them with the proof sources
	// (REMOVE_FUNCTION_BODY): a stub among the proof sources then defines
	// the function, or it has no body ("no side effects and an
	// unconstrained result", the starter kit's Makefile.common).
	RemoveFunctionBody []string
	// CheckContracts is CHECK_FUNCTION_CONTRACTS: the functions whose
	// contracts the proof checks (the harness's call of each is replaced
	// by the check), UseContracts USE_FUNCTION_CONTRACTS: the callees
	// whose contracts replace their calls, LoopContracts whether
	// APPLY_LOOP_CONTRACTS is on (reverify applies a loop's contract
	// always; it is reported).
	CheckContracts, UseContracts []string
	LoopContracts                bool
	// MallocMayFail is false when CBMC_FLAG_MALLOC_MAY_FAIL or CBMCFLAGS
	// holds --no-malloc-may-fail (the starter kit's way to turn CBMC's
	// default off).
	MallocMayFail bool
	// Checks are the implicit checks CBMC 6 makes in this proof, run
	// with the flags the starter kit's Makefile.common gives it
	// (CBMCFLAGS, CBMC_FLAG_UNWINDING_ASSERTIONS and CHECKFLAGS, which
	// collects the CBMC_FLAG_*_CHECK variables a proof's Makefile may
	// override): CBMC's option names without "--" ("bounds-check",
	// "pointer-check", …, "memory-leak-check") and BuiltinAssertions,
	// in the order of checks.go (cbmcChecks). MemoryChecks maps them to
	// reverify's properties.
	Checks []string
	// Unresolved says, sorted, what the reader could not evaluate in the
	// values above, or which source files or include directories do not
	// exist; each is "VARIABLE: what".
	Unresolved []string
}

// Find returns the proofs under root: every directory (root included)
// holding a file named Makefile that sets HARNESS_ENTRY, sorted by
// directory. A proof whose Makefile cannot be read is returned with the
// error in Unresolved, not dropped.
func Find(root string) ([]*Proof, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var dirs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "Makefile" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "HARNESS_ENTRY") {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	var out []*Proof
	for _, d := range dirs {
		p, err := Read(d)
		if err != nil {
			p = &Proof{Dir: d, Name: filepath.Base(d), Unresolved: []string{err.Error()}}
		}
		out = append(out, p)
	}
	return out, nil
}

// Read resolves the Makefile of the proof directory dir. It fails when
// the Makefile cannot be read or parsed, or sets no HARNESS_ENTRY.
func Read(dir string) (*Proof, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	m := newMakefile(dir)
	if err := m.readFile("Makefile", false); err != nil {
		return nil, err
	}
	// what reading needed but no value used here depends on is not reported
	m.unresolved = map[string]bool{}
	get := func(name string) string { return strings.TrimSpace(m.expand("$("+name+")", name)) }
	getOpt := func(name string) string {
		if m.vars[name] == nil {
			return ""
		}
		return get(name)
	}
	p := &Proof{Dir: dir, Entry: get("HARNESS_ENTRY"), Defines: map[string]string{}}
	if p.Entry == "" {
		return nil, fmt.Errorf("%s: HARNESS_ENTRY is empty", filepath.Join(dir, "Makefile"))
	}
	p.Name = getOpt("PROOF_UID")
	if p.Name == "" {
		p.Name = filepath.Base(dir)
	}
	p.HarnessFile = getOpt("HARNESS_FILE")
	abs := func(f string) string {
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		return filepath.Clean(f)
	}
	seen := map[string]bool{}
	for _, v := range []string{"PROOF_SOURCES", "PROJECT_SOURCES"} {
		for _, f := range strings.Fields(getOpt(v)) {
			f = abs(f)
			if seen[f] {
				continue
			}
			seen[f] = true
			if _, err := os.Stat(f); err != nil {
				m.unresolved[fmt.Sprintf("%s: %s does not exist", v, f)] = true
				continue
			}
			p.Sources = append(p.Sources, f)
			if v == "PROJECT_SOURCES" {
				p.ProjectSources = append(p.ProjectSources, f)
			}
		}
	}
	if len(p.Sources) == 0 {
		m.unresolved["PROOF_SOURCES: no source file"] = true
	}
	words := shellWords(getOpt("DEFINES"))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "-D" && i+1 < len(words) {
			i++
			w = "-D" + words[i]
		}
		d, ok := strings.CutPrefix(w, "-D")
		if !ok || d == "" {
			m.unresolved[fmt.Sprintf("DEFINES: %q is not a -D option", w)] = true
			continue
		}
		n, v, eq := strings.Cut(d, "=")
		if eq && v == "" {
			// -DNAME= defines NAME as nothing (mlkem-native's -Dstatic=);
			// an empty value means 1 (-DNAME) to engine.SourceOptions
			v = " "
		}
		p.Defines[n] = v
	}
	words = shellWords(getOpt("INCLUDES"))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "-I" && i+1 < len(words) {
			i++
			w = "-I" + words[i]
		}
		d, ok := strings.CutPrefix(w, "-I")
		if !ok || d == "" {
			m.unresolved[fmt.Sprintf("INCLUDES: %q is not a -I option", w)] = true
			continue
		}
		d = abs(d)
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			m.unresolved[fmt.Sprintf("INCLUDES: %s is not a directory", d)] = true
			continue
		}
		p.Includes = append(p.Includes, d)
	}
	p.Unwindset = map[string]int{}
	for _, w := range strings.Fields(strings.ReplaceAll(getOpt("UNWINDSET"), ",", " ")) {
		id, n, ok := ParseUnwind(w)
		if !ok {
			m.unresolved[fmt.Sprintf("UNWINDSET: %q is not LOOP:N", w)] = true
			continue
		}
		p.Unwindset[id] = n
	}
	p.RemoveFunctionBody = strings.Fields(getOpt("REMOVE_FUNCTION_BODY"))
	p.CheckContracts = strings.Fields(getOpt("CHECK_FUNCTION_CONTRACTS"))
	p.UseContracts = strings.Fields(getOpt("USE_FUNCTION_CONTRACTS"))
	p.LoopContracts = strings.TrimSpace(getOpt("APPLY_LOOP_CONTRACTS")) == "on"
	keep := m.unresolved
	m.unresolved = map[string]bool{} // only a flag is looked for in these
	flags := getOpt("CBMC_FLAG_MALLOC_MAY_FAIL") + " " + getOpt("CBMCFLAGS")
	m.unresolved = keep
	p.MallocMayFail = !strings.Contains(flags, "--no-malloc-may-fail")
	// CBMC's command line in the starter kit's recipes:
	// $(CBMCFLAGS) $(CBMC_FLAG_UNWINDING_ASSERTIONS) $(CHECKFLAGS); an
	// undefined variable there is empty, as in make, and only what could
	// hide a flag of CHECKFLAGS ($(shell …), …) is reported
	m.unresolved = map[string]bool{}
	cmd := getOpt("CBMCFLAGS") + " " + getOpt("CBMC_FLAG_UNWINDING_ASSERTIONS")
	m.unresolved = map[string]bool{}
	cmd += " " + getOpt("CHECKFLAGS")
	for u := range m.unresolved {
		if !strings.HasSuffix(u, " is not defined") {
			keep[u] = true
		}
	}
	m.unresolved = keep
	p.Checks = cbmcChecks(shellWords(cmd))
	for u := range m.unresolved {
		p.Unresolved = append(p.Unresolved, u)
	}
	sort.Strings(p.Unresolved)
	return p, nil
}

// ParseUnwind reads one entry of CBMC's --unwindset, "[T:]LOOP:N"
// (a thread number T is ignored): the loop id and its bound.
func ParseUnwind(w string) (id string, n int, ok bool) {
	i := strings.LastIndexByte(w, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(w[i+1:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	id = w[:i]
	if t, rest, found := strings.Cut(id, ":"); found {
		if _, err := strconv.Atoi(t); err != nil {
			return "", 0, false
		}
		id = rest
	}
	if id == "" || strings.ContainsAny(id, ": ") {
		return "", 0, false
	}
	return id, n, true
}

// shellWords splits s at blanks outside quotes and removes the quotes,
// as the shell running make's recipe would ("-DX=\"(a b)\"" is one word).
func shellWords(s string) []string {
	var out []string
	var b strings.Builder
	in := false
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q == '"' && c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
			// inside double quotes a backslash escapes ", \, $ and `
			i++
			b.WriteByte(s[i])
		case q != 0:
			b.WriteByte(c)
		case c == '"' || c == '\'':
			q, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}
