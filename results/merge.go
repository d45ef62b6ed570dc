package results

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Merge combines results.json reports of shards (disjoint
// properties) or of entry functions (a property reached from several):
// one entry per property ID, keeping the strongest verdict in the order
// FALSE, UNKNOWN, TRUE, NOT_CHECKED (an UNKNOWN keeps an earlier FALSE
// any of them knew: the finding stays open); properties sorted by file, line,
// column and ID; files united; the summary recounted; Entry the distinct
// entries joined by spaces. Reports of different engine versions,
// configurations, schemas or data models are an error.
func Merge(reports []*Report) (*Report, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("no results to merge")
	}
	if len(reports) == 1 {
		return reports[0], nil
	}
	first := reports[0]
	out := &Report{Schema: first.Schema, Engine: first.Engine, DataModel: first.DataModel, Config: first.Config,
		Summary: map[string]int{}}
	files := map[string]bool{}
	var entries []string
	byID := map[string]int{}
	for i, r := range reports {
		for _, d := range []struct{ what, a, b string }{
			{"schema", fmt.Sprint(first.Schema), fmt.Sprint(r.Schema)}, {"engine version", first.Engine, r.Engine},
			{"configuration", first.Config, r.Config}, {"data model", first.DataModel, r.DataModel},
		} {
			if d.a != d.b {
				return nil, fmt.Errorf("results %d of %d: %s %q differs from %q of the first", i+1, len(reports), d.what, d.b, d.a)
			}
		}
		for _, f := range r.Files {
			files[f] = true
		}
		for _, e := range strings.Fields(r.Entry) {
			if !slices.Contains(entries, e) {
				entries = append(entries, e)
			}
		}
		for _, p := range r.Properties {
			if k, ok := byID[p.ID]; ok {
				q := &out.Properties[k]
				earlier := q.Earlier
				if p.Earlier != nil && p.Earlier.Verdict == False {
					earlier = p.Earlier // an open finding is never merged away
				}
				if Strength(p.Verdict) < Strength(q.Verdict) {
					*q = p
				}
				if q.Verdict == Unknown && earlier != nil && (q.Earlier == nil || earlier.Verdict == False) {
					q.Earlier = earlier
				}
				continue
			}
			byID[p.ID] = len(out.Properties)
			out.Properties = append(out.Properties, p)
		}
	}
	for f := range files {
		out.Files = append(out.Files, f)
	}
	sort.Strings(out.Files)
	out.Entry = strings.Join(entries, " ")
	sort.SliceStable(out.Properties, func(i, j int) bool {
		a, b := out.Properties[i], out.Properties[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.ID < b.ID
	})
	for _, p := range out.Properties {
		out.Summary[string(p.Verdict)]++
	}
	return out, nil
}

// outputFiles are the files of an output directory that merging
// regenerates rather than copies.
var outputFiles = map[string]bool{"results.json": true, "results.sarif": true, "summary.md": true}

// MergeDirs reads DIR/results.json of each shard directory, copies the
// shards' artifacts into out (same relative paths), points the reports'
// artifact paths at the copies, and merges the reports (Merge). A
// directory without results.json is an error naming it.
func MergeDirs(dirs []string, out string) (*Report, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no shard directories given")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var reports []*Report
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, "results.json"))
		if err != nil {
			return nil, fmt.Errorf("shard %s: %v", dir, err)
		}
		var r Report
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("shard %s: results.json: %v", dir, err)
		}
		if r.Schema != SchemaVersion {
			return nil, fmt.Errorf("shard %s: results.json has schema %d, want %d", dir, r.Schema, SchemaVersion)
		}
		if !samePath(dir, out) {
			if err := copyTree(dir, out); err != nil {
				return nil, fmt.Errorf("shard %s: %v", dir, err)
			}
		}
		for i := range r.Properties {
			p := &r.Properties[i]
			for _, f := range []*string{&p.Witness, &p.Reproducer, &p.PixelTree} {
				*f = relocate(*f, dir, out)
			}
		}
		reports = append(reports, &r)
	}
	return Merge(reports)
}

func samePath(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// relocate maps an artifact path recorded by a shard (relative to that
// job's workspace) to its copy below out: the longest trailing part of
// the path that exists below dir. A path found nowhere is kept.
func relocate(path, dir, out string) string {
	if path == "" {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i := range parts {
		rel := filepath.FromSlash(strings.Join(parts[i:], "/"))
		if rel == "" || filepath.IsAbs(rel) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, rel)); err == nil && !st.IsDir() {
			return filepath.Join(out, rel)
		}
	}
	return path
}

// copyTree copies the regular files below src into dst, except the
// merged outputs (outputFiles) at the top.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || outputFiles[rel] {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		st, err := in.Stat()
		if err != nil {
			return err
		}
		o, err := os.OpenFile(filepath.Join(dst, rel), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(o, in); err != nil {
			o.Close()
			return err
		}
		return o.Close()
	})
}

// ExpandDirs expands shell-style patterns (the Action's merge input) into
// shard directories: a pattern naming a directory without results.json
// stands for its subdirectories that have one.
func ExpandDirs(patterns []string) ([]string, error) {
	var dirs []string
	for _, pat := range patterns {
		matches, err := filepath.Glob(pat)
		if err != nil {
			return nil, fmt.Errorf("bad pattern %q: %v", pat, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("%s: no such shard directory", pat)
		}
		for _, m := range matches {
			if _, err := os.Stat(filepath.Join(m, "results.json")); err == nil {
				dirs = append(dirs, m)
				continue
			}
			subs, _ := filepath.Glob(filepath.Join(m, "*", "results.json"))
			if len(subs) == 0 {
				return nil, fmt.Errorf("%s: no results.json in it or its subdirectories", m)
			}
			for _, s := range subs {
				dirs = append(dirs, filepath.Dir(s))
			}
		}
	}
	sort.Strings(dirs)
	return dirs, nil
}
