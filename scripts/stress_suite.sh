#!/usr/bin/env bash
# Runs CI's job (.ci/run: the README's test command with a new empty HOME)
# on fresh clones of this checkout's HEAD while a CPU hog keeps every core
# busy: one busy process per core, at the suite's own priority. A test that
# fails only here is a race to find, in the library or in the test.
#
#   scripts/stress_suite.sh            # three runs in a row, of HEAD as it is now
#   scripts/stress_suite.sh 1 main     # one run, of main
#
# Each run's log is kept in build/stress/run-N.log; the last line of the
# output says how many runs passed.
set -uo pipefail
runs="${1:-3}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$repo" rev-parse "${2:-HEAD}")"  # every run tests the same commit
logs="$repo/build/stress"
mkdir -p "$logs"
cores="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"

hogs=()
stop_hogs() {
  if [ "${#hogs[@]}" -gt 0 ]; then
    kill "${hogs[@]}" 2>/dev/null
    wait "${hogs[@]}" 2>/dev/null
  fi
  hogs=()
}
trap stop_hogs EXIT

passed=0
for run in $(seq 1 "$runs"); do
  clone="$(mktemp -d)"
  git clone --quiet "$repo" "$clone"
  git -C "$clone" checkout --quiet "$commit"
  for _ in $(seq 1 "$cores"); do
    python3 -c 'while True: pass' &
    hogs+=("$!")
  done
  start="$(date +%s)"
  if (cd "$clone" && .ci/run) >"$logs/run-$run.log" 2>&1; then
    result=passed
    passed=$((passed + 1))
  else
    result=FAILED
  fi
  stop_hogs
  summary="$(grep -E '^=+ .*(passed|failed).* =+$' "$logs/run-$run.log" | tail -n 1)"
  echo "run $run of $runs ($(git -C "$clone" rev-parse --short HEAD), $cores hogs): $result in $(( $(date +%s) - start )) s: $summary"
  grep -E '^(FAILED|ERROR) ' "$logs/run-$run.log" | head -n 20
  rm -rf "$clone"
done
echo "$passed of $runs runs passed under the CPU hog"
[ "$passed" -eq "$runs" ]
