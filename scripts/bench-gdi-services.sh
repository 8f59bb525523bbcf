#!/usr/bin/env bash
# GDI throughput through the services on Redis: one deal-library and N table-referee processes
# under a fresh key prefix; the library's Measure fans the deals out as GDI batches on the job
# stream and the referees run them. Prints the measurement's JSON (games_per_second, seconds).
#
#   cargo build --release -p arena
#   scripts/bench-gdi-services.sh 1 40000     # one referee, 40,000 one-bomb deals × ladder:70
#   scripts/bench-gdi-services.sh 2 40000     # two referees
#
# Needs Redis on 127.0.0.1:6379 (REDIS_URL overrides) and free ports 56053, 56061…
# Makes its own operator and cluster tokens in a private temporary directory.
set -euo pipefail
N=${1:?number of referees}
COUNT=${2:?number of deals}
ARENA=${ARENA:-"$(dirname "$0")/../target/release/arena"}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
PREFIX="bench-gdi-$N-$$-$(date +%s%N)"
STORE=(--redis "$REDIS_URL" --redis-prefix "$PREFIX")
export ARENA_LOG=${ARENA_LOG:-warn}
# shellcheck source=lib-cluster.sh
source "$(dirname "$0")/lib-cluster.sh"
cluster_tokens
cleanup() {
  stop_pids
  rm -rf "$SECRETS"
  delete_prefix "$PREFIX"
}
trap cleanup EXIT
"$ARENA" deal-library "${STORE[@]}" "${AUTH[@]}" --listen 127.0.0.1:56053 >/dev/null 2>&1 &
PIDS+=($!)
for i in $(seq 1 "$N"); do
  "$ARENA" table-referee "${STORE[@]}" "${AUTH[@]}" "${CLUSTER[@]}" --id "bench-r$i" --listen "127.0.0.1:$((56060 + i))" >/dev/null 2>&1 &
  PIDS+=($!)
done
# `deals measure` does not retry a refused connection: wait until the library listens.
wait_port 56053
"$ARENA" deals measure --library http://127.0.0.1:56053 --count "$COUNT" --bombs 1 \
  --panel ladder:70 --batch 200 --json | tail -1
