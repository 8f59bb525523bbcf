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
#   SLOW_HOST=own SLOW_LANE=slow SLOW_CPUS=1 FAST_CPUS=0 scripts/slow-and-fast.sh
#                                                  # the slow tables isolated, as a cluster would
#
# FAST_IN_FLIGHT (default 4) is how many fast tables play at once. The fast bots think 0, so at
# 4 they keep whatever cores they run on busy, and any other work there (the slow tables')
# shows as lost throughput and a longer tail; at 1 the fast side leaves room, and the
# latency is one table's hop, the issue's "at low load".
#
# SLOW_THINK sets the slow bots' think time (default 1s; `arena load --think`, e.g.
# uniform:0.5s-1.5s): a fixed one keeps the tables, all started together, deciding in step.
#
# SLOW_SCHED=idle runs the slow tables' processes (the generator, and the bot-host and referee
# of SLOW_HOST and SLOW_LANE) under SCHED_IDLE (chrt --idle): they then take only CPU that
# nothing else wants.
#
# SLOW_HOST=own gives the slow bots a bot-host of their own, as a cluster would put a large
# population of slow bots on bot-hosts of their own machines.
#
# SLOW_LANE=NAME queues the slow tables on job lane NAME (`arena load --lane`), played by a
# referee of their own (`arena table-referee --lane NAME`); the fast tables stay on the default
# lane and its referee.
#
# BACKGROUND_FROM_MS=5000 starts the referee with `--background-from-ms 5000`: the slow tables
# (a 5 s decision limit) play on its background threads at idle priority, the fast ones (1 s) on its
# runtime. BACKGROUND_CPUS=1 (with it) keeps those threads to CPU 1 (`--background-cpus`).
#
# SLOW_CPUS and FAST_CPUS (taskset CPU lists, e.g. 1 and 0) pin the slow tables' processes and
# the rest (the fast bots' generator, bot-host and referee, the matchmaker) apart: one core
# standing for the slow tables' machines, the other for the fast ones'. Redis is not pinned.
#
# Needs Redis on 127.0.0.1:6379 (REDIS_URL overrides; keys under a fresh prefix, deleted at the
# end) and free ports 26252…26262. State the load average printed with the figures.
set -euo pipefail
SLOW_TABLES=${SLOW_TABLES:-5000}
SLOW_BOTS=${SLOW_BOTS:-1700}
FAST_TABLES=${FAST_TABLES:-600}
FAST_IN_FLIGHT=${FAST_IN_FLIGHT:-4}
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

SLOW=()
case "${SLOW_SCHED:-}" in
  "") ;;
  idle) SLOW=(chrt --idle 0) ;;
  *) echo "SLOW_SCHED is idle or unset, not ${SLOW_SCHED}" >&2; exit 2 ;;
esac
FAST=()
if [ -n "${SLOW_CPUS:-}" ]; then SLOW=(taskset -c "$SLOW_CPUS" "${SLOW[@]}"); fi
if [ -n "${FAST_CPUS:-}" ]; then FAST=(taskset -c "$FAST_CPUS"); fi

"${FAST[@]}" "$ARENA" bot-host "${STORE[@]}" "${CLUSTER[@]}" --listen 127.0.0.1:26252 --seat-listen 127.0.0.1:26255 >/dev/null 2>&1 &
PIDS+=($!)
WATCH=(--watch "bot-host=$!")
SEAT_PORTS=http://127.0.0.1:26255
SLOW_BOT_HOST=http://127.0.0.1:26252
case "${SLOW_HOST:-}" in
  "") ;;
  own)
    "${SLOW[@]}" "$ARENA" bot-host "${STORE[@]}" "${CLUSTER[@]}" --listen 127.0.0.1:26256 --seat-listen 127.0.0.1:26257 >/dev/null 2>&1 &
    PIDS+=($!)
    WATCH+=(--watch "slow-bot-host=$!")
    SLOW_BOT_HOST=http://127.0.0.1:26256
    SEAT_PORTS+=,http://127.0.0.1:26257
    wait_port 26256
    ;;
  *) echo "SLOW_HOST is own or unset, not ${SLOW_HOST}" >&2; exit 2 ;;
esac
"${FAST[@]}" "$ARENA" table-referee "${STORE[@]}" "${AUTH[@]}" "${CLUSTER[@]}" --id slow-fast-r1 \
  --listen 127.0.0.1:26261 --bot-host "$SEAT_PORTS" --max-tables 6000 \
  ${BACKGROUND_FROM_MS:+--background-from-ms "$BACKGROUND_FROM_MS"} \
  ${BACKGROUND_CPUS:+--background-cpus "$BACKGROUND_CPUS"} >/dev/null 2>&1 &
PIDS+=($!)
WATCH+=(--watch "referee=$!")
SLOW_REFEREE=http://127.0.0.1:26261
if [ -n "${SLOW_LANE:-}" ]; then
  "${SLOW[@]}" "$ARENA" table-referee "${STORE[@]}" "${AUTH[@]}" "${CLUSTER[@]}" --id slow-fast-r2 \
    --listen 127.0.0.1:26262 --bot-host "$SEAT_PORTS" --max-tables 6000 --lane "$SLOW_LANE" >/dev/null 2>&1 &
  PIDS+=($!)
  WATCH+=(--watch "slow-referee=$!")
  SLOW_REFEREE=http://127.0.0.1:26262
  wait_port 26262
fi
"${FAST[@]}" "$ARENA" matchmaker "${STORE[@]}" "${AUTH[@]}" --listen 127.0.0.1:26254 >/dev/null 2>&1 &
PIDS+=($!)
for p in 26252 26254 26261; do wait_port $p; done
LOAD=("$ARENA" load --matchmaker http://127.0.0.1:26254)
FAST_LOAD=("${FAST[@]}" "${LOAD[@]}" --referee http://127.0.0.1:26261 --bot-host http://127.0.0.1:26252
  --bots 30 --prefix fast --tables "$FAST_TABLES" --in-flight "$FAST_IN_FLIGHT")
echo "== fast bots alone; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"${FAST_LOAD[@]}" "${WATCH[@]}"
SLOW_SECS=${SLOW_SECS:-$((RAMP_SECS + 120))}
echo "== $SLOW_TABLES slow tables ($SLOW_BOTS bots thinking ${SLOW_THINK:-1s}) for $SLOW_SECS s${SLOW_SCHED:+, under SCHED_$SLOW_SCHED}${SLOW_HOST:+, on a bot-host of their own}${SLOW_LANE:+, on lane $SLOW_LANE}${SLOW_CPUS:+, on CPUs $SLOW_CPUS}" >&2
"${SLOW[@]}" "${LOAD[@]}" --referee "$SLOW_REFEREE" --bot-host "$SLOW_BOT_HOST" --lane "${SLOW_LANE:-}" \
  --bots "$SLOW_BOTS" --prefix slow --capacity 10 --think "${SLOW_THINK:-1s}" --decision-ms 5000 \
  --in-flight "$SLOW_TABLES" --duration "$SLOW_SECS" "${WATCH[@]}" &
SLOW_RUN=$!
sleep "$RAMP_SECS"
echo "== fast bots beside the slow tables; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"${FAST_LOAD[@]}" "${WATCH[@]}"
wait "$SLOW_RUN"
