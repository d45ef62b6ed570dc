package diffslice

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reverify/reverify/results"
)

// findingsSchema is the version of the open-findings file format.
const findingsSchema = 1

// findingsFile is the open findings of one pull request in the cache
// (Cache.Dir/pulls/NUMBER.json).
type findingsFile struct {
	Schema      int                  `json:"schema"`
	PullRequest int                  `json:"pull_request"`
	Open        results.OpenFindings `json:"open"`
}

func (c *Cache) findingsPath(pr int) string {
	return filepath.Join(c.Dir, "pulls", fmt.Sprintf("%d.json", pr))
}

// OpenFindings returns the findings of pull request pr that no run has
// resolved (results.OpenFindings), as the last run on one of its heads
// left them (StoreOpenFindings): empty when there is none, or the file is
// unreadable or of another schema.
func (c *Cache) OpenFindings(pr int) results.OpenFindings {
	open := results.OpenFindings{}
	if c == nil || c.Dir == "" || pr <= 0 {
		return open
	}
	data, err := os.ReadFile(c.findingsPath(pr))
	if err != nil {
		return open
	}
	var f findingsFile
	if json.Unmarshal(data, &f) != nil || f.Schema != findingsSchema || f.PullRequest != pr || f.Open == nil {
		return open
	}
	return f.Open
}

// StoreOpenFindings writes the open findings of pull request pr
// (atomically, as Put does); an empty set removes the file.
func (c *Cache) StoreOpenFindings(pr int, open results.OpenFindings) error {
	if c == nil || c.Dir == "" || pr <= 0 {
		return nil
	}
	path := c.findingsPath(pr)
	if len(open) == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // property IDs read as written: "f:x<=10"
	enc.SetIndent("", "  ")
	if err := enc.Encode(findingsFile{Schema: findingsSchema, PullRequest: pr, Open: open}); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

// writeAtomic writes data to path through a temporary file in its
// directory and a rename.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
