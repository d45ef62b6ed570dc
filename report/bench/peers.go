package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// peer is another verifier run by Run on the same tasks
// under the same limits.
type peer struct {
	name string
	bin  string // absolute path
	// missing says why the peer cannot run ("cbmc: not on PATH").
	missing string
	// trueOnly: the peer proves but never refutes (Eva); it is compared
	// on TRUE tasks only.
	trueOnly bool
	// command returns the argv of one run on t and a cleanup function;
	// tmp is a scratch directory, n a unique number.
	command func(t *Task, tmp string, n int) ([]string, func(), error)
	// verdict maps the exit code and output of a run to a verdict and
	// reason.
	verdict func(exit int, stdout, stderr string) (verdict, reason string)
}

// newPeer returns the named peer: frama-c-eva[:PRECISION] (Frama-C's Eva
// plug-in, default precision 3) or cbmc. A peer whose binary is not on
// the PATH is returned with missing set, never faked.
func newPeer(spec string) (*peer, error) {
	name, arg, _ := strings.Cut(spec, ":")
	switch name {
	case "frama-c-eva", "eva":
		prec := 3
		if arg != "" {
			p, err := strconv.Atoi(arg)
			if err != nil || p < 0 || p > 11 {
				return nil, fmt.Errorf("peer %s: precision must be 0..11", spec)
			}
			prec = p
		}
		p := &peer{name: "frama-c-eva", trueOnly: true}
		if prec != 3 {
			p.name = fmt.Sprintf("frama-c-eva:%d", prec)
		}
		bin, err := exec.LookPath("frama-c")
		if err != nil {
			p.missing = p.name + ": frama-c not on PATH (Debian: apt-get install frama-c-base)"
			return p, nil
		}
		p.bin = bin
		p.command = func(t *Task, tmp string, n int) ([]string, func(), error) {
			return evaCommand(bin, prec, t, tmp, n)
		}
		p.verdict = evaVerdict
		return p, nil
	case "cbmc":
		if arg != "" {
			return nil, fmt.Errorf("peer %s: cbmc takes no argument", spec)
		}
		p := &peer{name: "cbmc"}
		bin, err := exec.LookPath("cbmc")
		if err != nil {
			p.missing = "cbmc: not on PATH"
			return p, nil
		}
		p.bin = bin
		standard := cbmcHasStandardChecks(bin)
		p.command = func(t *Task, tmp string, n int) ([]string, func(), error) {
			argv := []string{bin, "--" + strconv.Itoa(t.DataModel.PointerBits())}
			if standard {
				// CBMC 6 checks memory safety and overflows by default;
				// the property is unreach-call only.
				argv = append(argv, "--no-standard-checks")
			}
			return append(argv, t.Inputs...), func() {}, nil
		}
		p.verdict = cbmcVerdict
		return p, nil
	}
	return nil, fmt.Errorf("unknown peer %q (known: frama-c-eva[:PRECISION], cbmc)", spec)
}

// cbmcHasStandardChecks reports whether cbmc is version 6 or later (it
// enables --bounds-check, --pointer-check and more unless
// --no-standard-checks is given).
func cbmcHasStandardChecks(bin string) bool {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return false
	}
	major, _ := strconv.Atoi(strings.SplitN(strings.TrimSpace(string(out)), ".", 2)[0])
	return major >= 6
}

// cbmcVerdict: VERIFICATION SUCCESSFUL is TRUE (CBMC unwinds every loop
// completely unless given a bound, so a successful run is a proof), FAILED
// is FALSE, anything else UNKNOWN.
func cbmcVerdict(exit int, stdout, stderr string) (string, string) {
	switch {
	case strings.Contains(stdout, "VERIFICATION SUCCESSFUL"):
		return VerdictTrue, "cbmc: VERIFICATION SUCCESSFUL"
	case strings.Contains(stdout, "VERIFICATION FAILED"):
		return VerdictFalse, "cbmc: VERIFICATION FAILED"
	}
	return VerdictUnknown, fmt.Sprintf("cbmc: no verdict (exit %d): %s", exit, lastLine(stderr+"\n"+stdout))
}

var nondetRE = regexp.MustCompile(`__VERIFIER_nondet_([A-Za-z0-9_]+)`)

// nondetTypes are the return types of the SV-COMP nondet functions the
// Eva stub defines.
var nondetTypes = map[string]string{
	"bool": "_Bool", "char": "char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
	"int": "int", "uint": "unsigned int", "unsigned": "unsigned int", "long": "long", "ulong": "unsigned long",
	"longlong": "long long", "ulonglong": "unsigned long long", "float": "float", "double": "double",
	"pointer": "void *", "int128": "__int128", "uint128": "unsigned __int128", "size_t": "unsigned long",
	"u32": "unsigned int", "u16": "unsigned short", "u8": "unsigned char", "pchar": "char *",
}

// evaStub returns the SV-COMP stub file for Eva: each __VERIFIER_nondet_T
// the sources call but do not define returns the value of a volatile
// object of its type (Eva reads any value of the type there).
func evaStub(src string) string {
	var b strings.Builder
	b.WriteString("/* reverify bench: SV-COMP stubs for Frama-C's Eva (nondet values are volatile reads). */\n")
	seen := map[string]bool{}
	var names []string
	for _, m := range nondetRE.FindAllStringSubmatch(src, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			names = append(names, m[1])
		}
	}
	sort.Strings(names)
	for _, n := range names {
		ty, ok := nondetTypes[n]
		if !ok || regexp.MustCompile(`__VERIFIER_nondet_`+n+`\s*\([^;{)]*\)\s*\{`).MatchString(src) {
			continue // unknown type: Eva's default specification (any value); or defined by the task
		}
		fmt.Fprintf(&b, "volatile %s __reverify_nondet_%s;\n%s __VERIFIER_nondet_%s(void) { return __reverify_nondet_%s; }\n", ty, n, ty, n, n)
	}
	return b.String()
}

func evaCommand(bin string, prec int, t *Task, tmp string, n int) ([]string, func(), error) {
	var src strings.Builder
	for _, in := range t.Inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			return nil, nil, err
		}
		src.Write(data)
	}
	stub := filepath.Join(tmp, fmt.Sprintf("eva-stub-%d-%d.c", os.Getpid(), n))
	if err := os.WriteFile(stub, []byte(evaStub(src.String())), 0o644); err != nil {
		return nil, nil, err
	}
	machdep := "x86_64"
	if t.DataModel == cfa.ILP32 {
		machdep = "x86_32"
	}
	argv := []string{bin, "-eva", "-eva-precision", strconv.Itoa(prec), "-machdep", machdep, stub}
	return append(argv, t.Inputs...), func() { os.Remove(stub) }, nil
}

var evaReachedRE = regexp.MustCompile(`Values at end of function (reach_error|__VERIFIER_error):|using specification for function (reach_error|__VERIFIER_error)\b`)

// evaVerdict: TRUE when Eva finished and never analysed a call of
// reach_error (or __VERIFIER_error); UNKNOWN otherwise, also when Eva
// reported a user error (such as recursion without a specification,
// where its result is incomplete), degenerated, or found an alarm whose
// status is invalid (a path it cut for certain). Eva never refutes.
func evaVerdict(exit int, stdout, stderr string) (string, string) {
	all := stdout + "\n" + stderr
	switch {
	case strings.Contains(all, "Recursive call to"):
		return VerdictUnknown, "frama-c: Eva needs specifications for recursive functions"
	case exit != 0 || !strings.Contains(all, "ANALYSIS SUMMARY"):
		return VerdictUnknown, fmt.Sprintf("frama-c: no result (exit %d): %s", exit, lastLine(all))
	case strings.Contains(all, "User Error"):
		return VerdictUnknown, "frama-c: user error: " + firstLineAfter(all, "User Error")
	case strings.Contains(all, "degenerat"):
		return VerdictUnknown, "frama-c: Eva degenerated"
	case evaReachedRE.MatchString(all):
		return VerdictUnknown, "Eva cannot prove reach_error unreachable"
	case strings.Contains(all, "status invalid"):
		return VerdictUnknown, "Eva found an alarm with status invalid"
	}
	return VerdictTrue, "Eva: reach_error unreachable"
}

func firstLineAfter(s, marker string) string {
	i := strings.Index(s, marker)
	rest := strings.TrimSpace(s[i+len(marker):])
	rest = strings.TrimPrefix(rest, ":")
	lines := strings.SplitN(strings.TrimSpace(rest), "\n", 2)
	return strings.TrimSpace(lines[0])
}
