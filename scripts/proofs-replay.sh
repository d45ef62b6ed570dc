#!/usr/bin/env bash
# proofs-replay.sh: replay a sequence of commits of a repository with CBMC
# proofs as pull requests would meet them: each commit is checked out at one
# path and `reverify proofs --cache` runs over its proofs, the cache carried
# from commit to commit; the first commit starts from an empty cache. Prints
# one line per commit: commit, wall seconds, and the summary lines of
# `reverify proofs` (properties decided; from the cache; proofs re-verified).
# With COLD=1 every commit starts from an empty cache (the full runs to
# compare with). Not run by CI: it needs the repository's git directory.
#
#   scripts/proofs-replay.sh GITDIR PROOFS_SUBDIR REGEXP OUTDIR COMMIT... \
#       [-- reverify proofs flags]
#
# Example (doc/perf/2026-12-01-proofs-replay.md):
#   scripts/proofs-replay.sh ~/mlkem-native.git proofs/cbmc '^mlk_(barrett_reduce|…)$' \
#       /tmp/replay 070028c9 b53c5c56 … -- --checks assertions --proof-timeout 30s
set -euo pipefail
git_dir=$1 sub=$2 re=$3 out=$4
shift 4
commits=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do commits+=("$1"); shift; done
[ $# -gt 0 ] && shift
flags=("$@")
rv=${REVERIFY:-reverify}
tree=$out/tree cache=$out/cache
mkdir -p "$out"
rm -rf "$cache"
for c in "${commits[@]}"; do
	[ "${COLD:-0}" = 1 ] && rm -rf "$cache"
	rm -rf "$tree" && mkdir -p "$tree"
	git --git-dir="$git_dir" archive "$c" | tar -x -C "$tree"
	start=$(date +%s.%N)
	"$rv" proofs "$tree/$sub" --run "$re" --cache "$cache" "${flags[@]}" >"$out/$c.txt" 2>&1 || true
	end=$(date +%s.%N)
	printf '%s %.1f %s\n' "$c" "$(echo "$end - $start" | bc)" \
		"$(grep -E '^(properties decided|from the cache)' "$out/$c.txt" | tr '\n' ' ')" | tee -a "$out/times.txt"
done
