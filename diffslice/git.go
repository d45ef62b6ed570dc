package diffslice

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// git runs the git command in repo and returns its standard output. Its
// environment pins what could change the output format (no pager, no
// external diff, no localisation).
func git(repo string, stdin io.Reader, args ...string) ([]byte, error) {
	full := append([]string{"-C", repo, "-c", "core.quotePath=false", "-c", "diff.noprefix=false"}, args...)
	cmd := exec.Command("git", full...)
	cmd.Env = append(cmd.Environ(), "GIT_PAGER=cat", "LC_ALL=C", "GIT_EXTERNAL_DIFF=", "GIT_CONFIG_NOSYSTEM=1")
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		// git diff --no-index exits with 1 when the trees differ.
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && len(args) > 0 && args[0] == "diff" {
			return stdout.Bytes(), nil
		}
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}

// resolveCommit returns the full commit hash of rev.
func resolveCommit(repo, rev string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", fmt.Errorf("reading revision %s needs the git command: %v", rev, err)
	}
	out, err := git(repo, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%s: not a commit in %s", rev, repo)
	}
	return strings.TrimSpace(string(out)), nil
}

// treeEntry is a blob of a commit's tree.
type treeEntry struct {
	mode, sha, path string
}

// lsTree lists the blobs of commit (recursively, regular files only;
// symbolic links and submodules are skipped).
func lsTree(repo, commit string) ([]treeEntry, error) {
	out, err := git(repo, nil, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	var entries []treeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
			continue
		}
		entries = append(entries, treeEntry{mode: f[0], sha: f[2], path: string(p)})
	}
	return entries, nil
}

// catBlobs reads the contents of blobs with one git cat-file --batch,
// by hash.
func catBlobs(repo string, shas []string) (map[string][]byte, error) {
	data, err := catObjects(repo, shas)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for i, s := range shas {
		out[s] = data[i]
	}
	return out, nil
}

// catObjects reads objects named by any git object names ("HASH",
// "COMMIT:path") with one git cat-file --batch, in order.
func catObjects(repo string, names []string) ([][]byte, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, s := range names {
		in.WriteString(s + "\n")
	}
	data, err := git(repo, &in, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(bytes.NewReader(data))
	out := make([][]byte, 0, len(names))
	for range names {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: short output")
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(header))
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
		}
		buf := make([]byte, n+1) // content and the trailing newline
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, fmt.Errorf("git cat-file: short output")
		}
		out = append(out, buf[:n])
	}
	return out, nil
}

// Hunk is one region of a line diff (git diff -U0): OldCount lines at
// OldStart in the base file became NewCount lines at NewStart in the
// head file. A count of 0 is a pure insertion or deletion; its start is
// the line before the gap, as git prints it.
type Hunk struct {
	OldFile, NewFile   string // "" for an added or deleted file
	OldStart, OldCount int
	NewStart, NewCount int
}

func (h Hunk) String() string {
	name := h.NewFile
	if name == "" {
		name = h.OldFile
	}
	return fmt.Sprintf("%s @@ -%d,%d +%d,%d @@", name, h.OldStart, h.OldCount, h.NewStart, h.NewCount)
}

// touchesOld reports whether the hunk touches lines [from, to] of the
// base file (a pure insertion touches them when it lies strictly inside).
func (h Hunk) touchesOld(from, to int) bool {
	if h.OldCount == 0 {
		return h.OldStart >= from && h.OldStart < to
	}
	return h.OldStart <= to && h.OldStart+h.OldCount-1 >= from
}

// touchesNew reports whether the hunk touches lines [from, to] of the
// head file (a pure deletion touches them when it lies strictly inside).
func (h Hunk) touchesNew(from, to int) bool {
	if h.NewCount == 0 {
		return h.NewStart >= from && h.NewStart < to
	}
	return h.NewStart <= to && h.NewStart+h.NewCount-1 >= from
}

// parseDiff parses the output of git diff -U0 with the a/ and b/
// prefixes. strip is removed from the front of paths (for --no-index
// diffs between two directories).
func parseDiff(out []byte, stripOld, stripNew string) ([]Hunk, error) {
	var hunks []Hunk
	var oldFile, newFile string
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "diff "):
			oldFile, newFile = "", ""
		case strings.HasPrefix(line, "--- "):
			oldFile = diffPath(line[4:], "a/", stripOld)
		case strings.HasPrefix(line, "+++ "):
			newFile = diffPath(line[4:], "b/", stripNew)
		case strings.HasPrefix(line, "@@ "):
			h := Hunk{OldFile: oldFile, NewFile: newFile}
			var err error
			parts := strings.Fields(line)
			if len(parts) < 3 {
				return nil, fmt.Errorf("git diff: bad hunk header %q", line)
			}
			if h.OldStart, h.OldCount, err = hunkRange(parts[1], "-"); err != nil {
				return nil, fmt.Errorf("git diff: bad hunk header %q", line)
			}
			if h.NewStart, h.NewCount, err = hunkRange(parts[2], "+"); err != nil {
				return nil, fmt.Errorf("git diff: bad hunk header %q", line)
			}
			hunks = append(hunks, h)
		}
	}
	return hunks, nil
}

// diffPath turns a ---/+++ path into a repository-relative one ("" for
// /dev/null).
func diffPath(s, prefix, strip string) string {
	s = strings.TrimRight(s, "\t")
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	s = strings.TrimPrefix(s, prefix)
	if strip != "" {
		s = strings.TrimPrefix(strings.TrimPrefix(s, strings.TrimPrefix(strip, "/")), "/")
	}
	return s
}

// hunkRange parses "-12,3" or "+7" (count 1).
func hunkRange(s, sign string) (start, count int, err error) {
	s, ok := strings.CutPrefix(s, sign)
	if !ok {
		return 0, 0, fmt.Errorf("bad range")
	}
	a, b, has := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if has {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	return start, count, nil
}

// HasCommit reports whether the repository at repo holds commit sha.
func HasCommit(repo, sha string) bool {
	_, err := git(repo, nil, "cat-file", "-e", sha+"^{commit}")
	return err == nil
}

// MarkSafeDirectory adds dir to git's safe.directory list in the global
// configuration ($HOME/.gitconfig, or GIT_CONFIG_GLOBAL), unless it is
// there already (or "*" is). Inside the Action's container git runs as
// root on a workspace the runner's user owns, and refuses such a
// repository without it ("detected dubious ownership"). The error is
// git's.
func MarkSafeDirectory(dir string) error {
	cur, err := git(".", nil, "config", "--global", "--get-all", "safe.directory")
	if err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(cur)), "\n") {
			if l == dir || l == "*" {
				return nil
			}
		}
	}
	// A missing key exits 1 with no output; anything else will show in
	// the next command too.
	_, err = git(".", nil, "config", "--global", "--add", "safe.directory", dir)
	return err
}

// EnsureCommits makes sure the repository at repo holds the base and
// head commits (full SHAs; equal for a push), fetching the missing ones
// from origin: first by SHA with --depth=1 (what actions/checkout's
// default shallow clone needs; GitHub serves any reachable commit by
// SHA), then, if that fails, the whole history (--unshallow on a shallow
// clone). diffslice reads both revisions from git objects and diffs
// their trees, so one commit each suffices. It returns what it fetched,
// one line each for the log. Its errors say which commit is missing and
// what helps: a base commit that origin no longer has was force-pushed
// away (the pull request must be updated so that GitHub records the new
// base), while a fetch that fails is a checkout problem (fetch-depth: 0,
// credentials). An empty SHA is skipped.
func EnsureCommits(repo, base, head string) ([]string, error) {
	var did []string
	type commit struct{ role, sha string }
	list := []commit{{"base commit", base}, {"head commit", head}}
	if base == head {
		list = []commit{{"commit", head}}
	}
	for _, c := range list {
		sha := c.sha
		if sha == "" || HasCommit(repo, sha) {
			continue
		}
		if _, err := git(repo, nil, "fetch", "--no-tags", "--no-recurse-submodules", "--depth=1", "origin", sha); err == nil && HasCommit(repo, sha) {
			did = append(did, "fetched "+shortSHA(sha)+" (depth 1)")
			continue
		}
		args, how := []string{"fetch", "--no-tags", "--no-recurse-submodules", "origin"}, "all of origin"
		if shallow, _ := git(repo, nil, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(shallow)) == "true" {
			args, how = []string{"fetch", "--no-tags", "--no-recurse-submodules", "--unshallow", "origin"}, "--unshallow"
		}
		if _, err := git(repo, nil, args...); err != nil {
			return did, fmt.Errorf("the %s %s is not in the checkout and fetching from origin failed (%v); check that actions/checkout ran with fetch-depth: 0 and that the token may read the repository", c.role, shortSHA(sha), err)
		}
		if !HasCommit(repo, sha) {
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

// shortSHA is the first 12 hexadecimal digits of a commit hash.
func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
