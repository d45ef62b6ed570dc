package bench

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ExpandTasks turns command-line arguments into task definition paths
// (absolute, cleaned, without duplicates, in argument order): a .yml file
// stands for itself, a directory for every .yml below it (sorted), and
// @LIST for the paths in the file LIST, one per line (blank lines and
// lines starting with # skipped; relative paths are relative to LIST's
// directory; each may again be a directory or a glob). A leading ~/
// stands for home. A missing path, a list or glob naming nothing, or a
// file that is not .yml is an error naming it.
func ExpandTasks(args []string, home string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	var expand func(arg, base string) error
	expand = func(arg, base string) error {
		if strings.HasPrefix(arg, "@") {
			list := tilde(arg[1:], home)
			if !filepath.IsAbs(list) {
				list = filepath.Join(base, list)
			}
			f, err := os.Open(list)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			n := 0
			for line := 1; sc.Scan(); line++ {
				s := strings.TrimSpace(sc.Text())
				if s == "" || strings.HasPrefix(s, "#") {
					continue
				}
				if err := expand(s, filepath.Dir(list)); err != nil {
					return fmt.Errorf("%s:%d: %v", list, line, err)
				}
				n++
			}
			if err := sc.Err(); err != nil {
				return fmt.Errorf("%s: %v", list, err)
			}
			if n == 0 {
				return fmt.Errorf("%s: no tasks listed", list)
			}
			return nil
		}
		p := tilde(arg, home)
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		p = filepath.Clean(p)
		if strings.ContainsAny(filepath.Base(p), "*?[") {
			m, err := filepath.Glob(p)
			if err != nil {
				return err
			}
			if len(m) == 0 {
				return fmt.Errorf("%s: no file matches", arg)
			}
			sort.Strings(m)
			for _, x := range m {
				if err := expand(x, base); err != nil {
					return err
				}
			}
			return nil
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !st.IsDir() {
			if !isYAML(p) {
				return fmt.Errorf("%s: not a task definition (.yml)", arg)
			}
			add(p)
			return nil
		}
		var found []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && isYAML(q) {
				found = append(found, q)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(found) == 0 {
			return fmt.Errorf("%s: no .yml task definitions below", arg)
		}
		sort.Strings(found)
		for _, q := range found {
			add(q)
		}
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for _, a := range args {
		if err := expand(a, wd); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func isYAML(p string) bool { return strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml") }

func tilde(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}
