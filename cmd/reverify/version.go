package main

import (
	"fmt"
	"io"
)

// version is reverify's release version, "MAJOR.MINOR.PATCH" without a
// leading v. It is printed by `reverify version` (and --version), written
// into results.json ("engine") and every witness, and is part of every
// slice hash and cache key, so a new release re-verifies what an older
// one cached.
//
// The value here is the single source in the repository: the newest
// version of CHANGELOG.md and the image tag of action.yml
// (docker://ghcr.io/reverify/reverify:vVERSION) must equal it
// (TestVersionsAgree). A build may replace it without editing the file:
//
//	go build -ldflags "-X main.version=1.2.3" ./cmd/reverify
//
// as scripts/install.sh does when REVERIFY_VERSION is set (the release
// workflow passes the pushed tag without its v).
var version = "1.0.0"

// runVersion prints "reverify VERSION" and exits 0; it takes no
// arguments (2 when given some).
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "reverify version: unexpected arguments %q\n", args)
		return 2
	}
	fmt.Fprintln(stdout, "reverify", version)
	return 0
}
