package diffslice

import (
	"strings"
	"testing"
)

// contractFiles: a function with a contract and a caller that uses it.
var contractFiles = map[string]string{
	"bump.c": `void bump(int *p)
__CPROVER_requires(__CPROVER_is_fresh(p, sizeof(int)))
__CPROVER_requires(*p < 1000 && *p > -1000)
__CPROVER_assigns(*p)
__CPROVER_ensures(*p == __CPROVER_old(*p) + 1)
{
  *p = *p + 1;
}

int use_bump(void)
{
  int v = 7;
  bump(&v);
  __CPROVER_assert(v == 8, "bump adds one");
  return v;
}
`,
}

// TestContractModular: a caller's property depends on its callee's
// contract, not its body. A change of bump's body re-verifies only its
// contract's check (the ensures clause, the assigns check of the changed
// write); a change of its contract re-verifies the check, the requires
// clauses at the calls, and the caller's assertion that uses it.
func TestContractModular(t *testing.T) {
	affected := func(head map[string]string) []string {
		r := newRepo(t)
		b := r.commit("base", contractFiles)
		h := r.commit("head", head)
		p := NewPlan(load(t, r.dir, b), load(t, r.dir, h), &Cache{Dir: t.TempDir()}, Options{EngineVersion: testVersion, Config: "value"})
		var out []string
		for _, d := range p.Decisions {
			why := strings.Join(d.Reasons, "; ")
			if d.Reverify && !strings.HasPrefix(why, "no cached verdict") {
				out = append(out, d.Property.ID)
			}
		}
		return out
	}
	body := affected(edit(t, contractFiles, "bump.c", "  *p = *p + 1;", "  *p += 1;"))
	if got := strings.Join(body, " "); got != "__reverify_check_bump:ensuresclauseofbump:*p==__CPROVER_old(*p)+1 bump:assignsclauseofbump:*p+=1isassignable" {
		t.Errorf("a body change re-verifies %v, want bump's ensures and its assigns check", body)
	}
	clause := affected(edit(t, contractFiles, "bump.c", "__CPROVER_ensures(*p == __CPROVER_old(*p) + 1)", "__CPROVER_ensures(*p >= __CPROVER_old(*p) + 1)"))
	joined := " " + strings.Join(clause, " ") + " "
	for _, want := range []string{"use_bump:bumpaddsone", "__reverify_check_bump:ensuresclauseofbump:*p>=__CPROVER_old(*p)+1", "__reverify_use_bump:requiresclauseofbump:*p<1000"} {
		if !strings.Contains(joined, " "+want+" ") {
			t.Errorf("a contract change re-verifies %v, which misses %s", clause, want)
		}
	}
}
