package diffslice

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/results"
)

// testVersion is the engine version the tests write into the cache.
const testVersion = "test-1"

// gitRepo is a temporary git repository built with the git command.
type gitRepo struct {
	t   testing.TB
	dir string
}

func newRepo(t testing.TB) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// write writes files (path → content; "" deletes).
func (r *gitRepo) write(files map[string]string) {
	r.t.Helper()
	for p, c := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if c == "" {
			os.Remove(full)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit writes files and commits everything, returning the commit hash.
func (r *gitRepo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	r.write(files)
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// edit returns a copy of files with one replacement applied to one file.
func edit(t testing.TB, files map[string]string, name, old, new string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, v := range files {
		out[k] = v
	}
	if !strings.Contains(out[name], old) {
		t.Fatalf("edit: %q not in %s", old, name)
	}
	out[name] = strings.Replace(out[name], old, new, 1)
	return out
}

func load(t testing.TB, repo, rev string) *Revision {
	t.Helper()
	r, err := LoadRevision(repo, rev, SourceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testConfig is the engine configuration of the tests.
func testConfig() engine.Config {
	return engine.Config{Name: "value", Solver: z3.Factory, Timeout: 0}
}

// run makes a plan for base (may be nil) → head, verifies it, stores the
// results and returns the plan and the results.
func run(t testing.TB, base, head *Revision, cache *Cache) (*Plan, []*engine.Result) {
	t.Helper()
	cfg := testConfig()
	p := NewPlan(base, head, cache, Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)})
	res, err := p.Verify(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Store(cache, res, nil); err != nil {
		t.Fatal(err)
	}
	return p, res
}

// reverified returns the IDs of the re-verified properties.
func reverified(p *Plan) []string {
	var out []string
	for _, d := range p.Decisions {
		if d.Reverify {
			out = append(out, d.Property.ID)
		}
	}
	return out
}

func verdicts(res []*engine.Result) map[string]results.Verdict {
	m := map[string]results.Verdict{}
	for _, r := range res {
		m[r.Property.ID] = r.Verdict
	}
	return m
}
