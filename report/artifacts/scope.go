package artifacts

import (
	"bytes"
	"path/filepath"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/report/scopegraph"
)

// writeScope writes the property's scope call graph next to its pixel
// tree: dir/scopegraph.svg (arc diagram) and dir/scopegraph.txt, and
// records the SVG's path in the scope (results.json scope.picture).
// Nothing without a scope (engine.Config.Scope).
func writeScope(dir string, r *engine.Result) error {
	if r.Scope == nil || r.Scope.Graph == nil {
		return nil
	}
	svg := filepath.Join(dir, "scopegraph.svg")
	if err := writeWith(svg, func(b *bytes.Buffer) error { return scopegraph.SVG(b, r.Scope) }); err != nil {
		return err
	}
	r.Scope.Picture = svg
	return writeWith(filepath.Join(dir, "scopegraph.txt"), func(b *bytes.Buffer) error { return scopegraph.Text(b, r.Scope) })
}

// WriteScopes writes out/scopes.svg, the arc diagram of all decided
// properties' scopes on one function axis (seed 004, Figure 5), when at
// least one of rs has a scope. Errors are the file's.
func WriteScopes(out string, rs []*engine.Result) error {
	var all scopegraph.Scopes
	for _, r := range rs {
		if r.Scope != nil {
			all = append(all, r.Scope)
		}
	}
	if len(all) == 0 {
		return nil
	}
	return writeWith(filepath.Join(out, "scopes.svg"), func(b *bytes.Buffer) error { return scopegraph.SVG(b, all...) })
}
