package clangir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/llvmir"
)

// tool finds an LLVM tool (llvm-dis, llvm-link, clang): its plain name,
// else the newest versioned name Debian installs (clang-14, …). The
// error says which package provides it.
func tool(name, pkg string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	matches, _ := filepath.Glob("/usr/bin/" + name + "-[0-9]*")
	sort.Strings(matches)
	if len(matches) > 0 {
		return matches[len(matches)-1], nil
	}
	return "", fmt.Errorf("%s not found (install Debian's %s)", name, pkg)
}

// ReadIR returns the textual IR of LLVM IR files (.ll, or .bc
// disassembled by llvm-dis) as one module, and the file name its
// positions refer to: several files are linked by llvm-link first, as
// the linker would link their objects ("linked.ll").
func ReadIR(files ...string) (name, text string, err error) {
	if len(files) == 0 {
		return "", "", errors.New("no LLVM IR file")
	}
	if len(files) == 1 && filepath.Ext(files[0]) == ".ll" {
		b, err := os.ReadFile(files[0])
		if err != nil {
			return "", "", err
		}
		return files[0], string(b), nil
	}
	text, err = linkIR(files)
	if err != nil {
		return "", "", err
	}
	name = files[0]
	if len(files) > 1 {
		name = "linked.ll"
	}
	return name, text, nil
}

// linkIR returns the textual IR of the files linked into one module
// (llvm-link -S), or of the one bitcode file (llvm-dis).
func linkIR(files []string) (string, error) {
	var cmd *exec.Cmd
	if len(files) == 1 {
		dis, err := tool("llvm-dis", "llvm")
		if err != nil {
			return "", err
		}
		cmd = exec.Command(dis, "-o", "-", files[0])
	} else {
		link, err := tool("llvm-link", "llvm")
		if err != nil {
			return "", err
		}
		cmd = exec.Command(link, append([]string{"-S", "-o", "-"}, files...)...)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %s", filepath.Base(cmd.Path), firstLine(errb.String(), err))
	}
	return out.String(), nil
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return err.Error()
	}
	return strings.Join(strings.Split(s, "\n"), "; ")
}

// usesCBMC reports whether the sources, or a header in one of the
// include directories, use CBMC's harness dialect (llvmir.UsesCBMC):
// clang then reads its GNU C prelude first.
func usesCBMC(includeDirs, files []string) (bool, error) {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return false, err
		}
		if llvmir.UsesCBMC(string(b)) {
			return true, nil
		}
	}
	for _, d := range includeDirs {
		found := false
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil || found || e.IsDir() || filepath.Ext(p) != ".h" {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil && llvmir.UsesCBMC(string(b)) {
				found = true
				return filepath.SkipAll
			}
			return nil
		})
		if found {
			return true, nil
		}
	}
	return false, nil
}

// CompileC compiles the C files with clang (llvmir.ClangArgs: -O0 -g
// -Xclang -disable-O0-optnone, the IR of each function as written, with
// debug locations) and links them (llvm-link) into one module's textual
// IR: the input of `--frontend clang` (seed 000, section 3.4). Sources
// in CBMC's harness dialect (usesCBMC) are compiled with its GNU C
// prelude force-included (llvmir.ClangOptions.WithCBMCPrelude). Errors:
// clang's diagnostics (file:line:col: error: …), joined on one line.
func CompileC(opts llvmir.ClangOptions, files ...string) (string, error) {
	return CompileCIn("", opts, files...)
}

// CompileCIn is CompileC with clang run in the directory wd ("" the
// current one): files and include directories relative to wd are as
// given, so that __FILE__ and the debug information name them by those
// relative paths (a repository's files compiled in a copy of it).
func CompileCIn(wd string, opts llvmir.ClangOptions, files ...string) (string, error) {
	clang, err := tool("clang", "clang")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "reverify-clang-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	inWD := func(p string) string {
		if wd == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(wd, p)
	}
	var srcs, incs []string
	for _, f := range files {
		srcs = append(srcs, inWD(f))
	}
	for _, d := range opts.IncludeDirs {
		incs = append(incs, inWD(d))
	}
	if dialect, err := usesCBMC(incs, srcs); err != nil {
		return "", err
	} else if dialect {
		if opts, err = opts.WithCBMCPrelude(dir); err != nil {
			return "", err
		}
	}
	var lls []string
	for i, f := range files {
		ll := filepath.Join(dir, fmt.Sprintf("%d.ll", i))
		cmd := exec.Command(clang, llvmir.ClangArgs(opts, f, ll)...)
		cmd.Dir = wd
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("clang: %s", firstLine(errb.String(), err))
		}
		lls = append(lls, ll)
	}
	if len(lls) == 1 {
		b, err := os.ReadFile(lls[0])
		return string(b), err
	}
	return linkIR(lls)
}
