package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// actionImage is the image action.yml runs, without its tag: the
// release workflow pushes ghcr.io/${{ github.repository }}, and the
// module path names the repository.
const actionImage = "docker://ghcr.io/reverify/reverify"

// TestVersion: `reverify version` and `reverify --version` print
// "reverify VERSION" and exit 0; extra arguments are a usage error.
func TestVersion(t *testing.T) {
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`).MatchString(version) {
		t.Errorf("version %q is not MAJOR.MINOR.PATCH", version)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 || stdout.String() != "reverify "+version+"\n" {
			t.Errorf("reverify %s: exit %d, stdout %q, stderr %q", args[0], code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version", "x"}, &stdout, &stderr); code != 2 {
		t.Errorf("reverify version x: exit %d, want 2", code)
	}
}

// TestVersionsAgree: the newest version of CHANGELOG.md, the default
// version (cmd/reverify/version.go) and the image tag action.yml runs are
// the same, the workflows of the README and doc/action.md use the
// Action's major tag of that version, and scripts/release-notes.sh (the
// release workflow's first step) accepts the tag and prints the version's
// section. Bumping one of them and not the others fails here.
func TestVersionsAgree(t *testing.T) {
	root := filepath.Join("..", "..")
	changelog := readFile(t, filepath.Join(root, "CHANGELOG.md"))
	m := regexp.MustCompile(`(?m)^## \[([0-9]+\.[0-9]+\.[0-9]+)\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$`).FindStringSubmatch(changelog)
	if m == nil {
		t.Fatal(`CHANGELOG.md has no released version ("## [X.Y.Z] - YYYY-MM-DD")`)
	}
	if m[1] != version {
		t.Errorf("CHANGELOG.md's newest version is %s, cmd/reverify/version.go says %s", m[1], version)
	}
	if !strings.Contains(changelog, "\n["+version+"]: ") {
		t.Errorf("CHANGELOG.md has no link reference [%s]", version)
	}
	if img := readActionYAML(t).Runs.Image; img != actionImage+":v"+version {
		t.Errorf("action.yml runs image %q, want %s:v%s", img, actionImage, version)
	}
	major := "v" + strings.SplitN(version, ".", 2)[0]
	usesRE := regexp.MustCompile(`uses: reverify/reverify@(v[0-9][0-9A-Za-z.]*)`)
	for _, doc := range []string{"README.md", filepath.Join("doc", "action.md"), "CHANGELOG.md"} {
		uses := usesRE.FindAllStringSubmatch(readFile(t, filepath.Join(root, doc)), -1)
		if len(uses) == 0 && doc != "CHANGELOG.md" {
			t.Errorf("%s names no `uses: reverify/reverify@TAG`", doc)
		}
		for _, u := range uses {
			if u[1] != major {
				t.Errorf("%s: uses reverify/reverify@%s, want @%s (the major tag of %s)", doc, u[1], major, version)
			}
		}
	}
	// workflows that run the image as a job container name its tag
	imageRE := regexp.MustCompile(regexp.QuoteMeta(actionImage[len("docker://"):]) + `:(v[0-9][0-9A-Za-z.]*)`)
	for _, doc := range []string{"README.md", filepath.Join("doc", "action.md"), filepath.Join("doc", "proofs.md")} {
		for _, u := range imageRE.FindAllStringSubmatch(readFile(t, filepath.Join(root, doc)), -1) {
			if u[1] != "v"+version {
				t.Errorf("%s: runs the image %s, want v%s", doc, u[0], version)
			}
		}
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash: scripts/release-notes.sh not run")
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "release-notes.sh"), "v"+version)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/release-notes.sh v%s: %v\n%s", version, err, stderr.String())
	}
	notes := stdout.String()
	if !strings.HasPrefix(notes, changelogSection(changelog, version)) || strings.Contains(notes, "## [") {
		t.Errorf("scripts/release-notes.sh v%s printed\n%s\nwant the section of %s in CHANGELOG.md", version, notes, version)
	}
	cmd = exec.Command("bash", filepath.Join(root, "scripts", "release-notes.sh"), "v0.0.0")
	if err := cmd.Run(); err == nil {
		t.Errorf("scripts/release-notes.sh v0.0.0 succeeded; want a failure (not the version of the repository)")
	}
}

// changelogSection returns the first non-empty line of the section of v
// in the changelog text ("" when there is none).
func changelogSection(changelog, v string) string {
	_, after, ok := strings.Cut(changelog, "\n## ["+v+"]")
	if !ok {
		return ""
	}
	for _, line := range strings.Split(after, "\n")[1:] {
		if strings.TrimSpace(line) != "" {
			return line
		}
	}
	return ""
}
