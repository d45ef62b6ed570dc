package llvmir

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// IsIR reports whether name is an LLVM IR file: textual (.ll) or
// bitcode (.bc).
func IsIR(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".ll" || ext == ".bc"
}

// ClangOptions are the options of compiling C with clang for this front
// end.
type ClangOptions struct {
	DataModel   cfa.DataModel     // ILP32 compiles with -m32
	IncludeDirs []string          // -I
	Defines     map[string]string // -D name=value ("": -D name)
	Include     []string          // -include: headers read before each source
}

// UsesCBMC reports whether C text uses CBMC's harness dialect: an
// identifier starting with __CPROVER_ (as the C front end decides).
func UsesCBMC(text string) bool { return strings.Contains(text, "__CPROVER_") }

// WithCBMCPrelude writes CBMC's dialect as GNU C (csem.CBMCPreludeGNU:
// its types, constants, declarations and overflow predicates) into the
// file cprover.h of dir and returns o with that file force-included,
// for sources that use the dialect (UsesCBMC). The LLVM front end
// models the declared functions by name. Errors: the file's write.
func (o ClangOptions) WithCBMCPrelude(dir string) (ClangOptions, error) {
	f := filepath.Join(dir, "cprover.h")
	if err := os.WriteFile(f, []byte(csem.CBMCPreludeGNU(o.DataModel)), 0o644); err != nil {
		return o, err
	}
	o.Include = append(append([]string(nil), o.Include...), f)
	return o, nil
}

// ClangArgs are clang's arguments (without the program name) that
// compile the C file src into the textual IR file out as this front end
// reads it: -O0 -g -Xclang -disable-O0-optnone keeps each function as
// written with its debug locations (seed 000, section 3.4, reads
// unoptimised IR), -fno-builtin keeps library calls as calls (the
// analyses model them by name), -w silences warnings.
func ClangArgs(opts ClangOptions, src, out string) []string {
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
	for _, f := range opts.Include {
		args = append(args, "-include", f)
	}
	return append(args, "-o", out, src)
}
