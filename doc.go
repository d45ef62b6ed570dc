// Package reverify holds no code: it documents the module and, in its
// test, enforces the package policy of doc/DESIGN.md ("Layering"): every
// package has a layer and imports point downward, imports between peers
// of a layer are listed with their reasons, third-party libraries are
// confined to one package each (modernc.org/cc to engine/frontend, go-z3
// to engine/smt/z3, go-github and go-githubactions to report/github,
// gonum.org/v1/plot to report/bench), engine/... runs no processes, uses
// no network and reads no environment, and cmd/reverify imports facades
// only; today's exceptions are listed in layers_test.go.
package reverify
