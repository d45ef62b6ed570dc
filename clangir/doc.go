// Package clangir runs the LLVM tools the LLVM front end
// (engine/llvmir) reads through: clang to compile C into textual IR
// (`--frontend clang`), llvm-link to link several modules and llvm-dis
// to disassemble bitcode. The engine runs no process (doc/DESIGN.md);
// this package does, for the command line.
package clangir
