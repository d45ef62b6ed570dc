// Package reverify holds no code: it documents the module and, in its
// test, enforces the package layering of DESIGN.md (imports point downward
// only; only engine/frontend imports modernc.org/cc, only engine/smt/z3
// imports go-z3, only report/github imports go-github and go-githubactions).
package reverify
