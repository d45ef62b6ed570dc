package engine

import (
	"io"

	"github.com/reverify/reverify/engine/contract"
	"github.com/reverify/reverify/engine/llvmir"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/frontend/ccparse"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/spec"
)

// The facade's access to programs and properties, for wiring code
// (cmd/reverify) that must not import the packages below the facade
// (layers_test.go, cmdFacades): the types are aliases, so a value from
// here is the engine's own, and the functions forward to the one
// implementation.

// Program is a translated C program: its control-flow automata
// (engine/cfa).
type Program = cfa.Program

// Property is one property to verify: an assertion site or an
// unreach-call specification (engine/spec).
type Property = spec.Property

// Pos is a source position: file, line and column (engine/cfa).
type Pos = cfa.Pos

// DataModel selects the sizes of long and pointers (LP64 or ILP32).
type DataModel = cfa.DataModel

// The data models.
const (
	LP64  = cfa.LP64
	ILP32 = cfa.ILP32
)

// SourceOptions are the front end's options for reading C sources: data
// model, include directories, macros and whether malloc may fail
// (frontend.Options).
type SourceOptions = frontend.Options

// ContractCheck returns the entry that checks the function fn against
// its contract (engine/contract: its requires clauses assumed, its
// ensures and assigns clauses checked), "" when fn has no contract.
func ContractCheck(prog *Program, fn string) string { return contract.CheckOf(prog, fn) }

// Malloc modes of SourceOptions.Malloc (frontend.MallocMode).
const (
	MallocAuto       = frontend.MallocAuto
	MallocMayFail    = frontend.MallocMayFail
	MallocNeverFails = frontend.MallocNeverFails
)

// HostCompiler names the host C compiler and the directory of the disk
// cache of its configuration (ccparse.HostCompiler).
type HostCompiler = ccparse.HostCompiler

// SetHostCompiler sets, for the rest of the process, the host compiler
// and cache directory that key the disk cache of the front end's
// compiler configuration (ccparse.SetHostCompiler). The engine reads no
// environment: the command line resolves $CC and the cache directory.
func SetHostCompiler(h HostCompiler) { ccparse.SetHostCompiler(h) }

// ParseDataModel parses "LP64" or "ILP32" (case-insensitive); anything
// else is an error naming the accepted values.
func ParseDataModel(s string) (DataModel, error) { return cfa.ParseDataModel(s) }

// Load translates the C files (.c, or preprocessed .i) into one program
// (frontend.Translate). Its error lists the sources' syntax and type
// errors as file:line:col: message, one per line.
func Load(opts SourceOptions, files ...string) (*Program, error) {
	return frontend.Translate(opts, files...)
}

// LoadIR translates one module of textual LLVM IR, read from the file
// name, into a program (llvmir.TranslateText: the LLVM front end of seed
// 000, section 3.4); files, when given, are the C files it was compiled
// from (Program.Files). The module's target decides the data model;
// opts.DataModel is used when it names none; opts.Malloc says whether
// malloc may fail, as for C. Errors: the IR's parse error, or one line
// per construct the mapping cannot express.
func LoadIR(opts SourceOptions, name, text string, files ...string) (*Program, error) {
	p, err := llvmir.TranslateText(llvmir.Options{DataModel: opts.DataModel, Malloc: llvmir.MallocMode(opts.Malloc), Files: files}, name, text)
	if err != nil {
		return nil, err
	}
	if len(files) > 0 {
		p.Files = append([]string(nil), files...)
	}
	return p, nil
}

// LoadIRNamed is LoadIR for IR compiled from copies of files: names
// maps the copies' absolute paths to the names positions give them
// (repository paths), and files are the names of the C sources
// (Program.Files).
func LoadIRNamed(opts SourceOptions, name, text string, names map[string]string, files ...string) (*Program, error) {
	p, err := llvmir.TranslateText(llvmir.Options{DataModel: opts.DataModel, Malloc: llvmir.MallocMode(opts.Malloc), Names: names}, name, text)
	if err != nil {
		return nil, err
	}
	p.Files = append([]string(nil), files...)
	return p, nil
}

// IsIR reports whether the file name is LLVM IR (.ll, .bc).
func IsIR(name string) bool { return llvmir.IsIR(name) }

// ClangOptions are the options of compiling C for the LLVM front end,
// and ClangArgs clang's arguments for one file (llvmir.ClangArgs).
type ClangOptions = llvmir.ClangOptions

// ClangArgs returns clang's arguments that compile src into the IR file
// out as the LLVM front end reads it (llvmir.ClangArgs).
func ClangArgs(opts ClangOptions, src, out string) []string { return llvmir.ClangArgs(opts, src, out) }

// UsesCBMC reports whether C text uses CBMC's harness dialect
// (llvmir.UsesCBMC); clang then needs ClangOptions.WithCBMCPrelude.
func UsesCBMC(text string) bool { return llvmir.UsesCBMC(text) }

// Source is an in-memory C source file (frontend.Source): a name and its
// text; names ending in ".h" are headers the others may include.
type Source = frontend.Source

// LoadSources is Load over in-memory sources (frontend.TranslateSources).
func LoadSources(opts SourceOptions, srcs []Source) (*Program, error) {
	return frontend.TranslateSources(opts, srcs)
}

// Properties lists the assertion properties of prog reachable from entry
// (spec.Properties), in source order with stable IDs.
func Properties(prog *Program, entry string) []*Property { return spec.Properties(prog, entry) }

// ReachableFuncs returns the functions entry may call, transitively
// (spec.ReachableFuncs).
func ReachableFuncs(prog *Program, entry string) map[string]bool {
	return spec.ReachableFuncs(prog, entry)
}

// UnreachCall is SV-COMP's unreach-call property of entry: no call of
// reach_error (or __VERIFIER_error) is reachable (spec.UnreachCall).
func UnreachCall(prog *Program, entry string) *Property { return spec.UnreachCall(prog, entry) }

// ParsePRP reads an SV-COMP property file (.prp) and returns the entry
// function of its unreach-call property (spec.ParsePRP); other
// properties are an error.
func ParsePRP(text string) (entry string, err error) { return spec.ParsePRP(text) }

// WriteCFA writes the control-flow automata of prog to w: the text form,
// or with dot Graphviz DOT (`reverify cfa`).
func WriteCFA(w io.Writer, prog *Program, dot bool) error {
	if dot {
		return prog.WriteDOT(w)
	}
	return prog.WriteText(w)
}

// StaticSlice is the static backward slice of one property (engine/pdg,
// the system dependence graph's slice of the property's error edges).
type StaticSlice struct {
	Edges int              // edges in the slice
	Lines map[string][]int // relevant source lines per file, ascending
}

// StaticSlices computes the static backward slice of each property of
// props on prog's system dependence graph (built once; seed 000, section
// 3.2; engine/pdg), in the order of props. It is what `reverify slice`
// prints; verification slices per property itself (Config).
func StaticSlices(prog *Program, props []*Property) []StaticSlice {
	sdg := pdg.Build(prog)
	out := make([]StaticSlice, len(props))
	for i, p := range props {
		var s *pdg.Slice
		if p.Via != nil {
			s = sdg.SliceVia(p.Via, p.ErrorEdges)
		} else {
			s = sdg.Slice(p.ErrorEdges)
		}
		out[i] = StaticSlice{Edges: len(s.Edges()), Lines: s.Lines()}
	}
	return out
}

// ParsePRPAll parses an SV-COMP property file (spec.ParsePRPAll): the
// entry function and, for valid-memsafety.prp or valid-memcleanup.prp,
// the memory-safety subproperties it names (nil for unreach-call).
func ParsePRPAll(text string) (entry string, memory []string, err error) {
	return spec.ParsePRPAll(text)
}

// MemSafetySubs are the subproperties of SV-COMP's valid-memsafety.prp
// (spec.MemSafetySubs).
var MemSafetySubs = spec.MemSafetySubs

// MemoryProperty is the whole-program memory-safety property of entry
// for the given subproperties (spec.MemoryProperty).
func MemoryProperty(entry string, subs []string) *Property { return spec.MemoryProperty(entry, subs) }

// MemoryProperties are the memory-safety properties of prog from entry
// for the given subproperties, one per access site (spec.MemorySites):
// what `--properties memory` and the Action check; Verify decides them
// together in one run.
func MemoryProperties(prog *cfa.Program, entry string, subs []string) []*Property {
	return spec.MemorySites(prog, entry, subs)
}
