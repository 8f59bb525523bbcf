#!/usr/bin/env bash
# The growth curves of docs/scaling.md: `arena load` against a cluster on Redis (one bot-host,
# a matchmaker for the bot registry, 1 then 2 table-referees), tables/s and decision latency
# measured at each number of connected bots in STEPS, appended as JSON lines to OUT.jsonl and
# drawn as OUT-tables.png and OUT-latency.png (`arena load plot`).
#
#   cargo build --release -p arena
#   scripts/load-curves.sh                          # 100,1000,3000,10000 bots, 2000 tables a step
#   scripts/load-curves.sh 100,1000 500             # a quicker look
#   REFEREES="1" IN_FLIGHT=32 scripts/load-curves.sh
#
# Needs Redis on 127.0.0.1:6379 (REDIS_URL overrides; keys under a fresh prefix, deleted at the
# end) and free ports 26152…26170 (below the ephemeral range, where 10,000 bots' own
# connections take their ports). Makes its own operator and cluster tokens in a private
# temporary directory. The machine's load average is printed with each run: state it with the
# figures.
set -euo pipefail
STEPS=${1:-100,1000,3000,10000}
TABLES=${2:-2000}
IN_FLIGHT=${IN_FLIGHT:-64}
REFEREES=${REFEREES:-"1 2"}
OUT=${OUT:-docs/scaling-growth}
ARENA=${ARENA:-"$(dirname "$0")/../target/release/arena"}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export ARENA_LOG=${ARENA_LOG:-warn} ARENA_CONSOLE_LISTEN=127.0.0.1:0
# shellcheck source=lib-cluster.sh
source "$(dirname "$0")/lib-cluster.sh"
cluster_tokens
PREFIX=""
stop_roles() {
  stop_pids
  delete_prefix "$PREFIX"
}
trap 'stop_roles; rm -rf "$SECRETS"' EXIT
: > "$OUT.jsonl"
for R in $REFEREES; do
  PREFIX="load-curves-$R-$$-$(date +%s%N)"
  STORE=(--redis "$REDIS_URL" --redis-prefix "$PREFIX")
  "$ARENA" bot-host "${STORE[@]}" "${CLUSTER[@]}" --listen 127.0.0.1:26152 --seat-listen 127.0.0.1:26155 >/dev/null 2>&1 &
  HOST=$!
  PIDS+=($HOST)
  WATCH=(--watch "bot-host=$HOST")
  for i in $(seq 1 "$R"); do
    "$ARENA" table-referee "${STORE[@]}" "${AUTH[@]}" "${CLUSTER[@]}" --id "load-r$i" \
      --listen "127.0.0.1:$((26160 + i))" --bot-host http://127.0.0.1:26155 --max-tables 512 >/dev/null 2>&1 &
    PIDS+=($!)
    WATCH+=(--watch "referee-$i=$!")
  done
  "$ARENA" matchmaker "${STORE[@]}" "${AUTH[@]}" --listen 127.0.0.1:26154 >/dev/null 2>&1 &
  PIDS+=($!)
  for p in 26152 26154 26161; do wait_port $p; done
  LABEL="$R referee$([ "$R" = 1 ] || echo s)"
  echo "== $LABEL; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "$ARENA" load --bot-host http://127.0.0.1:26152 --matchmaker http://127.0.0.1:26154 \
    --referee http://127.0.0.1:26161 --steps "$STEPS" --tables "$TABLES" --in-flight "$IN_FLIGHT" \
    --label "$LABEL" --results "$OUT.jsonl" "${WATCH[@]}"
  stop_roles
done
"$ARENA" load plot --results "$OUT.jsonl" --out "$OUT"
