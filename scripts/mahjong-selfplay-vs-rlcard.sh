#!/usr/bin/env bash
# Random self-play, arena against RLCard's Mahjong environment, side by side in one run on one
# core: the two alternate ROUNDS times, so both see the same machine load, and the ratio of the
# medians is printed.
#
# Usage: scripts/mahjong-selfplay-vs-rlcard.sh [ARENA_BINARY] [ROUNDS]
#   ARENA_BINARY  default target/release/arena (build: cargo build --release -p arena)
#   ROUNDS        default 3
# Needs `pip install rlcard`. CORE (default 0) picks the core both are pinned to.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
arena="${1:-$here/../target/release/arena}"
rounds="${2:-3}"
core="${CORE:-0}"
arena_hands="${ARENA_HANDS:-50000}"
rlcard_hands="${RLCARD_HANDS:-200}"
pin=(taskset -c "$core")
command -v taskset >/dev/null || pin=()

a=()
r=()
for i in $(seq 1 "$rounds"); do
  out=$("${pin[@]}" "$arena" mahjong selfplay --games "$arena_hands" --bot random --seed "$i" --json)
  a+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["hands_per_second"])' "$out")")
  out=$("${pin[@]}" python3 "$here/mahjong-rlcard-selfplay.py" --hands "$rlcard_hands" --seed "$i" --json)
  r+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["hands_per_second"])' "$out")")
  echo "round $i: arena ${a[-1]} hands/s, RLCard ${r[-1]} hands/s" >&2
done
python3 - "${#a[@]}" "${a[@]}" "${r[@]}" <<'PY'
import statistics, sys
n = int(sys.argv[1])
a = [float(x) for x in sys.argv[2:2 + n]]
r = [float(x) for x in sys.argv[2 + n:]]
ma, mr = statistics.median(a), statistics.median(r)
print(f"arena mahjong selfplay --bot random: {ma:,.0f} hands/s (median of {n})")
print(f"RLCard Mahjong, random agents:      {mr:,.1f} hands/s (median of {n})")
print(f"ratio: {ma / mr:,.0f}x")
PY
