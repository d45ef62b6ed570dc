#!/usr/bin/env bash
# Checks the evidence of every FALSE verdict on engine/testdata/verdicts
# under every configuration each file names (its `// configs:` line, else
# value and value-cegar, as engine/engine_test.go): the violation witness
# is confirmed by `reverify validate` and the reproducer (reproduce.sh)
# reaches the error (exit 77). Prints each failure and the counts.
#
#   scripts/reproducers.sh            # uses bin/reverify (build it first)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${REVERIFY:-bin/reverify}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
false_n=0 confirmed=0 reached=0
for f in engine/testdata/verdicts/*.c; do
	configs=$(sed -n 's|^// configs:||p' "$f")
	[ -n "$configs" ] || configs="value value-cegar"
	states=$(sed -n 's|^// max-states: *||p' "$f")
	for c in $configs; do
		out="$tmp/$(basename "$f" .c)-$c"
		args=("$f" --config "$c" --output "$out")
		[ -z "$states" ] || args+=(--max-states "$states")
		"$bin" check "${args[@]}" >/dev/null 2>&1
		# Each FALSE property: its directory and reason (results.json).
		python3 -c 'import json, os, sys
for p in json.load(open(sys.argv[1]))["properties"]:
    if p["verdict"] == "FALSE":
        print(os.path.dirname(p.get("witness") or p["id"]) + "\t" + p.get("reason", ""))' "$out/results.json" >"$tmp/false" || {
			echo "no results: $f $c"
			continue
		}
		while IFS=$'\t' read -r d why; do
			false_n=$((false_n + 1))
			if [ -f "$d/witness.yml" ] && "$bin" validate --witness "$d/witness.yml" "$f" >/dev/null 2>&1; then
				confirmed=$((confirmed + 1))
			else
				echo "not confirmed: $f $c $(basename "$d")"
			fi
			if [ -f "$d/reproduce.sh" ] && sh "$d/reproduce.sh" >/dev/null 2>&1 </dev/null; [ $? = 77 ]; then
				reached=$((reached + 1))
			else
				echo "not reached: $f $c $(basename "$d"): $why"
			fi
		done <"$tmp/false"
	done
done
echo "FALSE verdicts: $false_n; witnesses confirmed: $confirmed; reproducers reaching the error: $reached"
