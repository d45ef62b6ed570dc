package main

import (
	"fmt"
	"io"

	"github.com/reverify/reverify/engine"
)

// printScope prints the property scope of a decided property (--scope) as
// one indented line under its verdict line (engine/scope, Scope.Line).
func printScope(w io.Writer, r *engine.Result) {
	if r.Scope != nil {
		fmt.Fprintf(w, "    %s\n", r.Scope.Line(8))
	}
}
