package bench

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reverify/reverify/internal/wants"
)

// ExpandTasks turns command-line arguments into task definition paths
// (absolute, cleaned, without duplicates, in argument order): a .yml file
// stands for itself, and so does a verdict program (a .c file with `//
// want` lines or a `// memory:` directive, internal/wants); a directory
// stands for every .yml below it (sorted), or, when there is none, for
// every verdict program below it; and
// @LIST for the paths in the file LIST, one per line (blank lines and
// lines starting with # skipped; relative paths are relative to LIST's
// directory; each may again be a directory or a glob). A leading ~/
// stands for home. A missing path, a list or glob naming nothing, or a
// file that is neither .yml nor a verdict program is an error naming it.
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
			if !isYAML(p) && !isProgram(p) {
				return fmt.Errorf("%s: not a task definition (.yml) or a verdict program (.c with // want lines)", arg)
			}
			add(p)
			return nil
		}
		var found, programs []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && isYAML(q) {
				found = append(found, q)
			}
			if !d.IsDir() && len(found) == 0 && isProgram(q) {
				programs = append(programs, q)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(found) == 0 {
			found = programs
		}
		if len(found) == 0 {
			return fmt.Errorf("%s: no .yml task definitions or verdict programs below", arg)
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

// isProgram reports whether p is a verdict program: a .c file with
// expectations (wants.IsProgram).
func isProgram(p string) bool {
	if !strings.HasSuffix(p, ".c") {
		return false
	}
	src, err := os.ReadFile(p)
	return err == nil && wants.IsProgram(string(src))
}

func isYAML(p string) bool { return strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml") }

func tilde(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}
