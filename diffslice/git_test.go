package diffslice

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnsureCommits fetches the base commit into a shallow clone of a
// local bare remote and marks a directory safe once, with a temporary
// global git configuration.
func TestEnsureCommits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	env := os.Environ()
	src := t.TempDir()
	gitIn(t, src, env, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(src, "a.c"), []byte("int a;\n"), 0o644)
	gitIn(t, src, env, "add", "-A")
	gitIn(t, src, env, "commit", "-q", "-m", "one")
	base := gitIn(t, src, env, "rev-parse", "HEAD")
	os.WriteFile(filepath.Join(src, "a.c"), []byte("int a = 1;\n"), 0o644)
	gitIn(t, src, env, "commit", "-q", "-a", "-m", "two")
	head := gitIn(t, src, env, "rev-parse", "HEAD")
	bare := filepath.Join(t.TempDir(), "origin.git")
	gitIn(t, src, env, "clone", "-q", "--bare", src, bare)

	for _, allowSHA := range []bool{true, false} {
		// With allowAnySHA1InWant (as on GitHub) the commit is fetched
		// by SHA; without, the clone is unshallowed.
		gitIn(t, bare, env, "config", "uploadpack.allowAnySHA1InWant", fmt.Sprint(allowSHA))
		ws := filepath.Join(t.TempDir(), "ws")
		gitIn(t, src, env, "clone", "-q", "--depth=1", "file://"+bare, ws)
		if HasCommit(ws, base) || !HasCommit(ws, head) {
			t.Fatalf("the shallow clone should hold the head only")
		}
		did, err := EnsureCommits(ws, base, head)
		if err != nil || !HasCommit(ws, base) || len(did) != 1 {
			t.Fatalf("allowAnySHA1InWant=%v: %v, %v", allowSHA, did, err)
		}
		t.Logf("allowAnySHA1InWant=%v: %s", allowSHA, did[0])
		if did, err := EnsureCommits(ws, base, head); err != nil || len(did) != 0 {
			t.Errorf("second call fetched again: %v %v", did, err)
		}
		gone := strings.Repeat("1", 40)
		if _, err := EnsureCommits(ws, gone, head); err == nil ||
			!strings.HasPrefix(err.Error(), "the pull request's base commit 111111111111 is not on origin: the base branch was force-pushed") ||
			strings.Contains(err.Error(), "fetch-depth") {
			t.Errorf("missing base commit: %v", err)
		}
		if _, err := EnsureCommits(ws, base, gone); err == nil || !strings.HasPrefix(err.Error(), "the pull request's head commit 111111111111 is not on origin") {
			t.Errorf("missing head commit: %v", err)
		}
	}

	// origin unreachable: a checkout problem, not a force-push.
	ws2 := filepath.Join(t.TempDir(), "ws")
	gitIn(t, src, env, "clone", "-q", "--depth=1", "file://"+bare, ws2)
	gitIn(t, ws2, env, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "gone.git"))
	if _, err := EnsureCommits(ws2, base, head); err == nil || !strings.HasPrefix(err.Error(), "the base commit "+base[:12]+" is not in the checkout and fetching from origin failed") {
		t.Errorf("unreachable origin: %v", err)
	}

	ws := t.TempDir()
	for i := 0; i < 2; i++ {
		if err := MarkSafeDirectory(ws); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(home, ".gitconfig"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(b)
	if strings.Count(cfg, "directory = "+ws) != 1 {
		t.Errorf("global config:\n%s", cfg)
	}
}

// gitIn runs git in dir with the environment env and a fixed author.
func gitIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
