package main

import (
	"fmt"

	"github.com/reverify/reverify/clangir"
	"github.com/reverify/reverify/engine"
)

// loadProgram translates the input files into one program: LLVM IR
// files (.ll, .bc) through the LLVM front end; C files through the
// built-in front end, or with --frontend clang compiled by clang and
// translated from their IR (positions are the C lines, from the debug
// information).
func loadProgram(cfg engine.SourceOptions, files ...string) (*engine.Program, error) {
	ir := 0
	for _, f := range files {
		if engine.IsIR(f) {
			ir++
		}
	}
	switch {
	case ir > 0 && ir < len(files):
		return nil, fmt.Errorf("LLVM IR files (.ll, .bc) and C files cannot be verified together: compile the C files to IR, or pass --frontend clang with the C files only")
	case ir > 0:
		name, text, err := clangir.ReadIR(files...)
		if err != nil {
			return nil, err
		}
		return engine.LoadIR(cfg, name, text)
	}
	switch cfg.Frontend {
	case "", "cc":
		return engine.Load(cfg, files...)
	case "clang":
		text, err := clangir.CompileC(engine.ClangOptions{DataModel: cfg.DataModel, IncludeDirs: cfg.IncludeDirs, Defines: cfg.Defines}, files...)
		if err != nil {
			return nil, err
		}
		return engine.LoadIR(cfg, files[0], text, files...)
	}
	return nil, fmt.Errorf("unknown front end %q (want cc or clang)", cfg.Frontend)
}
