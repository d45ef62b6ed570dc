package ccparse

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
)

// fingerprint is the hex SHA-256 of token spellings joined by one space.
func fingerprint(toks []cc.Token) string {
	h := sha256.New()
	for i, t := range toks {
		if i > 0 {
			h.Write([]byte{' '})
		}
		h.Write(t.Src())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// builtinMacros are defined by the preprocessor itself, not by the program.
var builtinMacros = map[string]bool{
	"__FILE__": true, "__LINE__": true, "__DATE__": true, "__TIME__": true, "__TIMESTAMP__": true,
	"__COUNTER__": true, "__BASE_FILE__": true, "__INCLUDE_LEVEL__": true, "defined": true, "_Pragma": true,
	"__has_include": true, "__has_include_next": true, "__has_builtin": true, "__has_attribute": true,
	"__has_feature": true, "__has_extension": true, "__has_c_attribute": true, "__has_cpp_attribute": true,
}

type defKey struct {
	kind cfa.DefKind
	name string
	file string
	line int
}

// Definitions appends the definitions of u outside system headers to
// defs (those of the units before it) and returns them: functions, global
// variables, struct/union/enum tags, typedefs and macros. A definition
// already in defs (a header's, by kind, name, file and line) is not
// added again. linked gives the name the program links a function (fn)
// or a global declared by d under ("": the declared name).
func Definitions(defs []cfa.Definition, u *Unit, linked func(d *cc.Declarator, fn bool) string) []cfa.Definition {
	out := defs
	seen := map[defKey]bool{}
	for _, d := range defs {
		seen[defKey{d.Kind, d.Name, d.File, d.Line}] = true
	}
	add := func(kind cfa.DefKind, name string, toks []cc.Token) {
		if len(toks) == 0 {
			return
		}
		p0 := toks[0].Position()
		if u.Files.IsSys(p0) {
			return
		}
		start := u.Files.Pos(p0)
		end := u.Files.Pos(toks[len(toks)-1].Position())
		k := defKey{kind, name, start.File, start.Line}
		if seen[k] {
			return
		}
		seen[k] = true
		endLine := end.Line
		if end.File != start.File || endLine < start.Line {
			endLine = start.Line
		}
		out = append(out, cfa.Definition{
			Kind: kind, Name: name, File: start.File, Line: start.Line, EndLine: endLine,
			Fingerprint: fingerprint(toks),
		})
	}
	for tu := u.AST.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
		ed := tu.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			name := fd.Declarator.Name()
			if n := linked(fd.Declarator, true); n != "" {
				name = n
			}
			if fs := NodeSpan(fd.DeclarationSpecifiers); fs.OK && u.Files.IsSys(fs.First.Position()) {
				continue
			}
			typeDefs(fd.DeclarationSpecifiers, add)
			add(cfa.DefFunc, name, NodeTokens(fd))
		case cc.ExternalDeclarationDecl:
			decl := ed.Declaration
			if decl == nil || decl.Case != cc.DeclarationDecl {
				continue
			}
			if s := NodeSpan(decl); !s.OK || u.Files.IsSys(s.First.Position()) {
				continue
			}
			typeDefs(decl.DeclarationSpecifiers, add)
			var toks []cc.Token
			for l := decl.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
				id := l.InitDeclarator
				if id == nil || id.Declarator == nil {
					continue
				}
				d := id.Declarator
				if toks == nil {
					toks = NodeTokens(decl)
				}
				switch {
				case d.IsTypename():
					add(cfa.DefType, d.Name(), toks)
				case d.Type().Kind() == cc.Function:
				case d.IsExtern() && id.Initializer == nil:
				default:
					name := d.Name()
					if n := linked(d, false); n != "" {
						name = n
					}
					add(cfa.DefGlobal, name, toks)
				}
			}
		}
	}
	// Macros defined in the unit's own files.
	names := make([]string, 0, len(u.AST.Macros))
	for n := range u.AST.Macros {
		names = append(names, n)
	}
	sort.Strings(names)
	var macros []cfa.Definition
	for _, n := range names {
		m := u.AST.Macros[n]
		if m == nil || builtinMacros[n] {
			continue
		}
		p0 := m.Name.Position()
		if !p0.IsValid() || u.Files.IsSys(p0) {
			continue
		}
		start := u.Files.Pos(p0)
		k := defKey{cfa.DefMacro, n, start.File, start.Line}
		if seen[k] {
			continue
		}
		seen[k] = true
		var b strings.Builder
		b.WriteString("#define ")
		b.WriteString(n)
		if m.IsFnLike {
			b.WriteString("(")
			for i, p := range m.Params {
				if i > 0 {
					b.WriteString(",")
				}
				b.Write(p.Src())
			}
			if m.VarArg >= 0 && (len(m.Params) == 0 || string(m.Params[len(m.Params)-1].Src()) != "...") {
				if len(m.Params) > 0 {
					b.WriteString(",")
				}
				b.WriteString("...")
			}
			b.WriteString(")")
		}
		end := start.Line
		for _, tok := range m.ReplacementList() {
			b.WriteString(" ")
			b.Write(tok.Src())
			if p := tok.Position(); p.IsValid() && p.Filename == p0.Filename {
				if e := u.Files.Pos(p); e.Line > end {
					end = e.Line
				}
			}
		}
		sum := sha256.Sum256([]byte(b.String()))
		macros = append(macros, cfa.Definition{Kind: cfa.DefMacro, Name: n, File: start.File, Line: start.Line, EndLine: end,
			Fingerprint: hex.EncodeToString(sum[:])})
	}
	sort.SliceStable(macros, func(i, j int) bool {
		if macros[i].File != macros[j].File {
			return macros[i].File < macros[j].File
		}
		return macros[i].Line < macros[j].Line
	})
	return append(out, macros...)
}

// typeDefs adds the struct, union and enum definitions (with a body) that
// appear in declaration specifiers.
func typeDefs(ds *cc.DeclarationSpecifiers, add func(cfa.DefKind, string, []cc.Token)) {
	for ; ds != nil; ds = ds.DeclarationSpecifiers {
		ts := ds.TypeSpecifier
		if ts == nil {
			continue
		}
		switch ts.Case {
		case cc.TypeSpecifierStructOrUnion:
			s := ts.StructOrUnionSpecifier
			if s == nil || s.Case != cc.StructOrUnionSpecifierDef {
				continue
			}
			kw := "struct "
			if s.StructOrUnion != nil && s.StructOrUnion.Case == cc.StructOrUnionUnion {
				kw = "union "
			}
			tag := s.Token.SrcStr()
			if tag == "" {
				continue // anonymous: part of the declaration that uses it
			}
			add(cfa.DefType, kw+tag, NodeTokens(s))
		case cc.TypeSpecifierEnum:
			e := ts.EnumSpecifier
			if e == nil || e.Case != cc.EnumSpecifierDef {
				continue
			}
			name := e.Token2.SrcStr()
			if name == "" {
				if e.EnumeratorList != nil && e.EnumeratorList.Enumerator != nil {
					name = "{" + e.EnumeratorList.Enumerator.Token.SrcStr() + "…}"
				}
			}
			add(cfa.DefType, "enum "+name, NodeTokens(e))
		}
	}
}
