#!/usr/bin/env bash
# Prints the body of a GitHub release: the section of CHANGELOG.md for the
# tag's version, without its heading and link references. First checks
# that the tag agrees with the repository: the default version in
# cmd/reverify/version.go and the image tag action.yml runs must both be
# the tag. Exits 1 with the reason on stderr when they disagree or the
# section is missing or empty. The release workflow
# (.github/workflows/release.yml) runs it before building anything.
#
#   scripts/release-notes.sh v1.0.0 > notes.md
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:?usage: scripts/release-notes.sh vMAJOR.MINOR.PATCH}
v=${tag#v}
fail() {
	echo "release-notes: $*" >&2
	exit 1
}
[[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "tag $tag is not vMAJOR.MINOR.PATCH"
src=$(sed -n 's/^var version = "\(.*\)"$/\1/p' cmd/reverify/version.go)
[ "$src" = "$v" ] || fail "tag $tag, but cmd/reverify/version.go's default version is ${src:-missing}"
img=$(sed -n 's|^ *image: *docker://ghcr\.io/reverify/reverify:\(.*\)$|\1|p' action.yml)
[ "$img" = "$tag" ] || fail "tag $tag, but action.yml runs image tag ${img:-missing}"
notes=$(awk -v head="## [$v]" '
	/^## \[/ { if (on) exit; if (index($0, head) == 1) { on = 1; next } }
	/^\[[^]]*\]: / { next }
	on { print }
' CHANGELOG.md | sed -e '/./,$!d')
[ -n "$notes" ] || fail "CHANGELOG.md has no section \"## [$v]\" (or it is empty)"
printf '%s\n' "$notes"
