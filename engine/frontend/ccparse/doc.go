// Package ccparse is the program as modernc.org/cc/v4 parses it, for the
// front end (engine/frontend): the cc/v4 configuration of a data model,
// asked of the host C compiler once per process and kept on disk between
// processes (Config, SetHostCompiler; ccconfig_cache.go); one
// translation unit parsed (ParseUnit, a Unit: its AST, its files and
// their line maps, its #pragma pack values), with in-memory sources
// served to the preprocessor (MemFS) and a time limit on cc/v4
// (Translate, Timeout); and what is read off the parse without
// translating it: source positions and texts, definitions and their
// fingerprints. Of engine/cfa it uses only data models, positions,
// ranges and definitions.
//
// # Positions and texts
//
// A Span is the first and last tokens of an AST node (NodeSpan, directly
// for expressions and statements, by walking the node otherwise); a
// FileSet maps cc/v4 positions of one unit back to original files and
// lines (Pos) and cuts a span's source text from the file's bytes, not
// re-printed from tokens (RangeText; a construct from a macro expansion
// carries the text of the macro invocation). In preprocessed .i files,
// gcc line markers (# 12 "foo.c" 1 3) and #line directives map physical
// lines back (linemap.go): cc/v4 sees them as ignored directives, and the
// mapping is applied to every position and to error messages (MapErrors).
// Every unit is handed to cc/v4 with a sentinel appended
// (SourceFile.CCContent: open comments and conditionals closed, then an
// empty declaration), because its parser loops on some constructs cut
// off by the end of the file ("enum").
//
// # #pragma pack
//
// cc/v4 does not read #pragma pack: the pragmas become markers it parses
// where gcc accepts them, and the pack value gcc lays each struct and
// union definition out under is replayed from their order (pack.go,
// after gcc's handle_pragma_pack; PackInfo, LayoutKey, PackUnknown).
// engine/frontend/ctypes lays the structs out with these values.
//
// # Definitions
//
// Definitions lists, outside system headers, every function, global
// variable, struct/union/enum tag definition, typedef and macro of a
// unit, with its file and lines and a fingerprint: the hex SHA-256 of its
// token stream after preprocessing, token spellings joined by one space
// (a macro's over "#define NAME(params) replacement-list").
package ccparse
