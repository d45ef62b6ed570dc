package cfa

// Mentions reports whether some edge of f mentions v (reads it, writes it or
// takes its address). The path encoder and the interpreter bind an entry
// parameter they cannot model (argv, a pointer or struct parameter) only
// when f never mentions it: its value then cannot influence any path.
func (f *Function) Mentions(v *Var) bool {
	for _, l := range f.Locs {
		for _, e := range l.Out {
			found := false
			ForEachExpr(e.Op, func(x Expr) {
				Walk(x, func(x Expr) bool {
					if r, ok := x.(*VarRef); ok && r.Var == v {
						found = true
					}
					return !found
				})
			})
			if found {
				return true
			}
		}
	}
	return false
}

// IsArgc reports whether v is the argc parameter of a hosted program's
// main function, `int main(int argc, char *argv[])` (or with a third
// envp parameter): its value is nonnegative (C11 5.1.2.2.1p2), which the
// path encoder and the interpreter assume of the entry's inputs. Under
// another entry function (--entry f) every integer parameter is an
// arbitrary value.
func (f *Function) IsArgc(v *Var) bool {
	return f.Name == "main" && len(f.Params) >= 2 && f.Params[0] == v && v.T.IsInteger() &&
		f.Params[1].T.Kind == Pointer
}
