#!/usr/bin/env bash
# Compares two reverify binaries on CBMC starter-kit proofs, both at once
# (the same load): properties decided and CPU time (user + system) of
# each whole `reverify proofs` run, as in doc/proofs.md ("Measurements").
#
#   scripts/proofs-bench.sh OLD NEW PROOFS_DIR OUT_DIR [proofs flags...]
#
# e.g. scripts/proofs-bench.sh /tmp/main-reverify bin/reverify \
#        coreHTTP/test/cbmc/proofs /tmp/bench --timeout 10s --proof-timeout 30s
set -euo pipefail
old=$1 new=$2 dir=$3 out=$4
shift 4
mkdir -p "$out"
for b in old new; do
	bin=$old
	[ "$b" = new ] && bin=$new
	/usr/bin/time -f "cpu %U %S wall %e" "$bin" proofs --config default "$@" "$dir" >"$out/$b.log" 2>&1 &
done
wait || true
for b in old new; do
	decided=$(grep '^properties decided' "$out/$b.log" | cut -d';' -f1)
	cpu=$(awk '/^cpu /{print $2 + $3}' "$out/$b.log")
	echo "$b: $decided, CPU ${cpu}s"
done
