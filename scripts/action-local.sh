#!/usr/bin/env bash
# Runs the Action's image as a runner runs a Docker action, on a push of
# the HEAD of a local git repository: the repository mounted at
# /github/workspace (and the working directory), a push event payload, the
# GITHUB_* variables, and each input given as NAME=VALUE passed as
# --NAME=VALUE (inputs not given take their defaults, which are the flags'
# defaults of `reverify action`). No token: nothing is posted. The output
# directory (reverify-out) and the cache (.reverify/cache) are written into
# the repository; the step's outputs and job summary are printed after the
# run. Exits with the container's exit code.
#
#   docker build -t reverify:dev .
#   scripts/action-local.sh reverify:dev ~/src/myproject paths=src include-dirs=include
#
# For the bundled example, which is not a repository of its own:
#   cp -r testdata/examples/ringproto /tmp/ringproto && git -C /tmp/ringproto init -q &&
#   git -C /tmp/ringproto add -A && git -C /tmp/ringproto -c user.name=x -c user.email=x@x commit -qm x &&
#   scripts/action-local.sh reverify:dev /tmp/ringproto paths=src include-dirs=include
set -euo pipefail
image=${1:?usage: scripts/action-local.sh IMAGE REPO [NAME=VALUE...]}
repo=$(cd "${2:?usage: scripts/action-local.sh IMAGE REPO [NAME=VALUE...]}" && pwd)
shift 2
sha=$(git -C "$repo" rev-parse HEAD)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/workflow" "$tmp/file_commands"
printf '{"after": "%s", "before": "%s"}\n' "$sha" 0000000000000000000000000000000000000000 >"$tmp/workflow/event.json"
: >"$tmp/file_commands/summary"
: >"$tmp/file_commands/output"
args=()
for kv in "$@"; do
	[[ $kv == *=* ]] || { echo "action-local: $kv is not NAME=VALUE" >&2; exit 2; }
	args+=("--$kv")
done
code=0
docker run --rm --workdir /github/workspace \
	-v "$repo:/github/workspace" -v "$tmp/workflow:/github/workflow" -v "$tmp/file_commands:/github/file_commands" \
	-e GITHUB_ACTIONS=true -e CI=true -e GITHUB_EVENT_NAME=push -e GITHUB_EVENT_PATH=/github/workflow/event.json \
	-e GITHUB_WORKSPACE=/github/workspace -e GITHUB_SHA="$sha" -e GITHUB_REPOSITORY=local/"$(basename "$repo")" \
	-e GITHUB_STEP_SUMMARY=/github/file_commands/summary -e GITHUB_OUTPUT=/github/file_commands/output \
	"$image" "${args[@]}" || code=$?
echo "--- outputs"
cat "$tmp/file_commands/output"
echo "--- job summary"
cat "$tmp/file_commands/summary"
exit "$code"
