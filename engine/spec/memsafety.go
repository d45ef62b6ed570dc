package spec

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Memory-safety property IDs: SV-COMP's valid-memsafety.prp (valid-free,
// valid-deref and valid-memtrack, checked together: the first violation
// on a path decides) and valid-memcleanup.prp.
const (
	MemSafetyID  = "valid-memsafety"
	MemCleanupID = "valid-memcleanup"
)

// MemSafetySubs are the subproperties of valid-memsafety.
var MemSafetySubs = []string{"valid-deref", "valid-free", "valid-memtrack"}

// MemoryProperty returns the whole-program memory-safety property
// checking subs (a subset of valid-deref, valid-free, valid-memtrack,
// valid-memcleanup) from entry: ID valid-memsafety, or valid-memcleanup
// when that is the only one.
func MemoryProperty(entry string, subs []string) *Property {
	subs = append([]string(nil), subs...)
	sort.Strings(subs)
	id := MemSafetyID
	if len(subs) == 1 && subs[0] == MemCleanupID {
		id = MemCleanupID
	}
	return &Property{ID: id, Func: entry, Expr: "G " + strings.Join(subs, " && G "), Reachable: true, Memory: subs}
}

var memPrpRE = regexp.MustCompile(`^CHECK\(\s*init\((\w+)\(\)\)\s*,\s*LTL\(\s*G\s+(valid-free|valid-deref|valid-memtrack|valid-memcleanup)\s*\)\s*\)$`)

// ParsePRPAll parses an SV-COMP property file holding unreach-call or
// memory-safety properties (valid-memsafety.prp, valid-memcleanup.prp):
// the entry function and the memory subproperties (nil for
// unreach-call). Mixing both kinds, other properties or several entry
// functions are errors quoting the line.
func ParsePRPAll(text string) (entry string, memory []string, err error) {
	unreach := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		var e string
		if m := memPrpRE.FindStringSubmatch(line); m != nil {
			e = m[1]
			memory = append(memory, m[2])
		} else if m := prpRE.FindStringSubmatch(line); m != nil {
			e = m[1]
			unreach = true
		} else {
			return "", nil, fmt.Errorf("unsupported property %q (supported: unreach-call, valid-free, valid-deref, valid-memtrack, valid-memcleanup)", line)
		}
		if entry != "" && e != entry {
			return "", nil, fmt.Errorf("property file names two entry functions, %s and %s", entry, e)
		}
		entry = e
	}
	if entry == "" {
		return "", nil, fmt.Errorf("property file holds no property")
	}
	if unreach && len(memory) > 0 {
		return "", nil, fmt.Errorf("property file mixes unreach-call with memory safety")
	}
	sort.Strings(memory)
	return entry, memory, nil
}
