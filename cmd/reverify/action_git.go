package main

import (
	"fmt"
	"os/exec"
	"strings"
)

// gitOut runs git in repo and returns its trimmed standard output, or an
// error quoting its standard error.
func gitOut(repo string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = msg[i+1:] // git's last line says what failed
		}
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, msg)
	}
	return strings.TrimSpace(string(out)), nil
}

// markSafeDirectory adds dir to git's safe.directory list in the global
// configuration ($HOME/.gitconfig, or GIT_CONFIG_GLOBAL), unless it is
// there already (or "*" is). Inside the Action's container git runs as
// root on a workspace the runner's user owns, and refuses such a
// repository without it ("detected dubious ownership").
func markSafeDirectory(dir string) error {
	cur, err := gitOut(".", "config", "--global", "--get-all", "safe.directory")
	if err == nil {
		for _, l := range strings.Split(cur, "\n") {
			if l == dir || l == "*" {
				return nil
			}
		}
	}
	// A missing key exits 1 with no output; anything else will show in
	// the next command too.
	_, err = gitOut(".", "config", "--global", "--add", "safe.directory", dir)
	return err
}

// hasCommit reports whether the repository holds commit sha.
func hasCommit(repo, sha string) bool {
	_, err := gitOut(repo, "cat-file", "-e", sha+"^{commit}")
	return err == nil
}

// ensureCommits makes sure the repository holds the base and head
// commits of the event (equal for a push), fetching the missing ones
// from origin: first by SHA with --depth=1 (what actions/checkout's
// default shallow clone needs; GitHub serves any reachable commit by
// SHA), then, if that fails, the whole history (--unshallow on a shallow
// clone). diffslice reads both revisions from git objects and diffs their
// trees, so one commit each suffices. It returns what it fetched, for
// the log. Its errors say which commit is missing and what helps: a base
// commit that origin no longer has was force-pushed away (the pull
// request must be updated so that GitHub records the new base), while a
// fetch that fails is a checkout problem (fetch-depth: 0, credentials).
func ensureCommits(repo, base, head string) ([]string, error) {
	var did []string
	type commit struct{ role, sha string }
	list := []commit{{"base commit", base}, {"head commit", head}}
	if base == head {
		list = []commit{{"commit", head}}
	}
	for _, c := range list {
		sha := c.sha
		if sha == "" || hasCommit(repo, sha) {
			continue
		}
		if _, err := gitOut(repo, "fetch", "--no-tags", "--no-recurse-submodules", "--depth=1", "origin", sha); err == nil && hasCommit(repo, sha) {
			did = append(did, "fetched "+shortSHA(sha)+" (depth 1)")
			continue
		}
		args, how := []string{"fetch", "--no-tags", "--no-recurse-submodules", "origin"}, "all of origin"
		if shallow, _ := gitOut(repo, "rev-parse", "--is-shallow-repository"); shallow == "true" {
			args, how = []string{"fetch", "--no-tags", "--no-recurse-submodules", "--unshallow", "origin"}, "--unshallow"
		}
		if _, err := gitOut(repo, args...); err != nil {
			return did, fmt.Errorf("the %s %s is not in the checkout and fetching from origin failed (%v); check that actions/checkout ran with fetch-depth: 0 and that the token may read the repository", c.role, shortSHA(sha), err)
		}
		if !hasCommit(repo, sha) {
			switch c.role {
			case "base commit":
				return did, fmt.Errorf("the pull request's base commit %s is not on origin: the base branch was force-pushed (or the commit deleted) after the pull request was last updated; push to the pull request or rebase it onto its base branch so that GitHub records the new base, then re-run", shortSHA(sha))
			case "head commit":
				return did, fmt.Errorf("the pull request's head commit %s is not on origin: it was force-pushed away since this run started; the run for the new head verifies it", shortSHA(sha))
			}
			return did, fmt.Errorf("commit %s is not on origin (force-pushed away?); re-run on the branch's current commit", shortSHA(sha))
		}
		did = append(did, "fetched "+shortSHA(sha)+" ("+how+")")
	}
	return did, nil
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
