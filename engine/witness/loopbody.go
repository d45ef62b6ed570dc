package witness

// BodyOpen returns the file and the offset of the opening brace of the
// body of the while or for loop at s, where a loop contract's clauses go
// (engine/contract: the declarations Rewrite makes of them start the
// body). For a keyword site the brace must follow the parentheses; for
// a Statement site (a loop whose head precedes a statement, as a
// constant loop's does when its body starts with labels: CIL's
// `while (1) { while_0_continue: ; …`) the statement must be the first
// of the body of a while or for loop, with only labels and empty
// statements before it. ok is false otherwise (do … while and goto
// loops, bodies without braces).
func (s LoopSite) BodyOpen() (file string, off int, ok bool) {
	f := s.f
	if f == nil {
		return "", 0, false
	}
	if !s.Statement {
		if s.parenHi <= s.parenLo {
			return "", 0, false
		}
		if i := f.skipSpace(s.parenHi + 1); i < len(f.code) && f.code[i] == '{' {
			return f.name, i, true
		}
		return "", 0, false
	}
	j := s.kwOff
	for {
		i := f.skipSpaceBack(j - 1)
		if i < 0 {
			return "", 0, false
		}
		switch f.code[i] {
		case '{':
			if f.loopBrace(i) {
				return f.name, i, true
			}
			return "", 0, false
		case ';': // an empty statement: after a brace, a semicolon or a label
			k := f.skipSpaceBack(i - 1)
			if k < 0 || (f.code[k] != '{' && f.code[k] != ';' && f.code[k] != ':') {
				return "", 0, false
			}
			j = i
		case ':': // a label
			word, ws := f.wordBefore(i)
			if word == "" || word == "default" || word[0] >= '0' && word[0] <= '9' {
				return "", 0, false
			}
			j = ws
		default:
			return "", 0, false
		}
	}
}

// loopBrace reports whether the brace at offset i opens the body of a
// while or for statement: `while (…) {` or `for (…) {`.
func (f *srcFile) loopBrace(i int) bool {
	k := f.skipSpaceBack(i - 1)
	if k < 0 || f.code[k] != ')' {
		return false
	}
	open, ok := f.matchBack(k)
	if !ok {
		return false
	}
	word, _ := f.wordBefore(open)
	return word == "while" || word == "for"
}
