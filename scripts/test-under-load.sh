#!/usr/bin/env bash
# `npm test` N times in a row (default 5) with two busy processes beside it, as on a developer's 2-core
# machine with other work running: the tests must not depend on how fast the machine is. Stops at the
# first failing run. Usage: bash scripts/test-under-load.sh [runs]
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
busy=()
for _ in 1 2; do
	node -e 'for (;;) {}' &
	busy+=("$!")
done
# Stop the busy processes we started (by PID) however this script ends.
trap 'kill "${busy[@]}" 2>/dev/null' EXIT
for i in $(seq 1 "$runs"); do
	start=$(date +%s)
	if npm test; then
		echo "== under load: run $i of $runs passed in $(($(date +%s) - start)) s"
	else
		echo "== under load: run $i of $runs FAILED after $(($(date +%s) - start)) s"
		exit 1
	fi
done
echo "== under load: $runs of $runs runs passed"
