package llvmir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// IsIR reports whether name is an LLVM IR file: textual (.ll) or
// bitcode (.bc).
func IsIR(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".ll" || ext == ".bc"
}

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

// TranslateFiles translates LLVM IR files (.ll, or .bc disassembled by
// llvm-dis) into one program; several files are linked by llvm-link
// first, as the linker would link their objects.
func TranslateFiles(opts Options, files ...string) (*cfa.Program, error) {
	if len(files) == 0 {
		return nil, errors.New("no LLVM IR file")
	}
	if len(files) == 1 && filepath.Ext(files[0]) == ".ll" {
		b, err := os.ReadFile(files[0])
		if err != nil {
			return nil, err
		}
		return TranslateText(opts, files[0], string(b))
	}
	text, err := linkIR(files)
	if err != nil {
		return nil, err
	}
	name := files[0]
	if len(files) > 1 {
		name = "linked.ll"
	}
	return TranslateText(opts, name, text)
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

// ClangOptions are the options of compiling C with clang.
type ClangOptions struct {
	DataModel   cfa.DataModel     // ILP32 compiles with -m32
	IncludeDirs []string          // -I
	Defines     map[string]string // -D name=value ("" : -D name)
}

// TranslateC compiles the C files with clang at -O0 -g -Xclang
// -disable-O0-optnone (the IR of each function as written, with debug
// locations), links them (llvm-link) and translates the IR: the
// `--frontend clang` of seed 000, section 3.4. Positions and source text
// are the C files' (debug information). Errors: clang's diagnostics
// (file:line:col: error: …), one per line.
func TranslateC(opts ClangOptions, files ...string) (*cfa.Program, error) {
	clang, err := tool("clang", "clang")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "reverify-clang-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var lls []string
	for i, f := range files {
		ll := filepath.Join(dir, fmt.Sprintf("%d.ll", i))
		args := []string{"-O0", "-g", "-Xclang", "-disable-O0-optnone", "-S", "-emit-llvm", "-w", "-fno-builtin"}
		if opts.DataModel == cfa.ILP32 {
			args = append(args, "-m32")
		}
		for _, d := range opts.IncludeDirs {
			args = append(args, "-I", d)
		}
		names := make([]string, 0, len(opts.Defines))
		for n := range opts.Defines {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if v := opts.Defines[n]; v != "" {
				args = append(args, "-D", n+"="+strings.TrimSpace(v))
			} else {
				args = append(args, "-D", n)
			}
		}
		args = append(args, "-o", ll, f)
		cmd := exec.Command(clang, args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("clang: %s", firstLine(errb.String(), err))
		}
		lls = append(lls, ll)
	}
	var text string
	if len(lls) == 1 {
		b, err := os.ReadFile(lls[0])
		if err != nil {
			return nil, err
		}
		text = string(b)
	} else if text, err = linkIR(lls); err != nil {
		return nil, err
	}
	p, err := TranslateText(Options{DataModel: opts.DataModel}, files[0], text)
	if err != nil {
		return nil, err
	}
	p.Files = append([]string(nil), files...)
	return p, nil
}
