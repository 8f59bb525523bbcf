#!/usr/bin/env bash
# The "5,000 concurrent tables of slow bots" run of docs/scaling.md: one bot-host, one
# table-referee (--max-tables 6000) and a matchmaker on Redis; 30 fast bots (think 0) play
# FAST_TABLES tables alone, then again while SLOW_BOTS bots of capacity 10 thinking 1 s hold
# SLOW_TABLES tables in flight on the same referee. Each `arena load` prints tables/s and the
# decision latency p50/p99/p999; compare the fast bots' two lines.
#
#   cargo build --release -p arena
#   scripts/slow-and-fast.sh                       # 1,700 slow bots, 5,000 slow tables
#   SLOW_TABLES=1000 SLOW_BOTS=340 scripts/slow-and-fast.sh    # a quicker look
#
# SLOW_THINK sets the slow bots' think time (default 1s; `arena load --think`, e.g.
# uniform:0.5s-1.5s): a fixed one keeps the tables, all started together, deciding in step.
#
# SLOW_SCHED=idle runs the slow tables' generator under SCHED_IDLE (chrt --idle): its simulated
# bots, which in a cluster think on machines of their own, then take only CPU that nothing else
# wants, and what is left of the fast bots' slowdown is the referee's and bot-host's (and
# Redis's) work for the slow tables.
#
# Needs Redis on 127.0.0.1:6379 (REDIS_URL overrides; keys under a fresh prefix, deleted at the
# end) and free ports 26252…26261. State the load average printed with the figures.
set -euo pipefail
SLOW_TABLES=${SLOW_TABLES:-5000}
SLOW_BOTS=${SLOW_BOTS:-1700}
FAST_TABLES=${FAST_TABLES:-600}
# How long the slow tables are given to be seated before the fast bots play beside them.
RAMP_SECS=${RAMP_SECS:-45}
ARENA=${ARENA:-"$(dirname "$0")/../target/release/arena"}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export ARENA_LOG=${ARENA_LOG:-warn} ARENA_CONSOLE_LISTEN=127.0.0.1:0
# shellcheck source=lib-cluster.sh
source "$(dirname "$0")/lib-cluster.sh"
cluster_tokens
PREFIX="slow-and-fast-$$-$(date +%s%N)"
STORE=(--redis "$REDIS_URL" --redis-prefix "$PREFIX")
cleanup() {
  stop_pids
  delete_prefix "$PREFIX"
  rm -rf "$SECRETS"
}
trap cleanup EXIT
"$ARENA" bot-host "${STORE[@]}" "${CLUSTER[@]}" --listen 127.0.0.1:26252 --seat-listen 127.0.0.1:26255 >/dev/null 2>&1 &
HOST=$!
PIDS+=($HOST)
"$ARENA" table-referee "${STORE[@]}" "${AUTH[@]}" "${CLUSTER[@]}" --id slow-fast-r1 \
  --listen 127.0.0.1:26261 --bot-host http://127.0.0.1:26255 --max-tables 6000 >/dev/null 2>&1 &
REFEREE=$!
PIDS+=($REFEREE)
"$ARENA" matchmaker "${STORE[@]}" "${AUTH[@]}" --listen 127.0.0.1:26254 >/dev/null 2>&1 &
PIDS+=($!)
for p in 26252 26254 26261; do wait_port $p; done
LOAD=("$ARENA" load --bot-host http://127.0.0.1:26252 --matchmaker http://127.0.0.1:26254
  --referee http://127.0.0.1:26261)
WATCH=(--watch "bot-host=$HOST" --watch "referee=$REFEREE")
echo "== fast bots alone; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"${LOAD[@]}" --bots 30 --prefix fast --tables "$FAST_TABLES" --in-flight 4 "${WATCH[@]}"
SLOW_SECS=${SLOW_SECS:-$((RAMP_SECS + 120))}
SLOW_RUN=()
case "${SLOW_SCHED:-}" in
  "") ;;
  idle) SLOW_RUN=(chrt --idle 0) ;;
  *) echo "SLOW_SCHED is idle or unset, not ${SLOW_SCHED}" >&2; exit 2 ;;
esac
echo "== $SLOW_TABLES slow tables ($SLOW_BOTS bots thinking ${SLOW_THINK:-1s}) for $SLOW_SECS s${SLOW_SCHED:+, generator under SCHED_$SLOW_SCHED}" >&2
"${SLOW_RUN[@]}" "${LOAD[@]}" --bots "$SLOW_BOTS" --prefix slow --capacity 10 --think "${SLOW_THINK:-1s}" --decision-ms 5000 \
  --in-flight "$SLOW_TABLES" --duration "$SLOW_SECS" "${WATCH[@]}" &
SLOW=$!
sleep "$RAMP_SECS"
echo "== fast bots beside the slow tables; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"${LOAD[@]}" --bots 30 --prefix fast --tables "$FAST_TABLES" --in-flight 4 "${WATCH[@]}"
wait "$SLOW"
