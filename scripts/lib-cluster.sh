# Sourced by the scripts that start arena roles on Redis (load-curves.sh, slow-and-fast.sh,
# bench-gdi-services.sh): their tokens, waiting for a port, and cleaning up after them.
#
# cluster_tokens      makes an operator and a cluster token in a private temporary directory:
#                     sets SECRETS, AUTH (--operator-token-file …), CLUSTER
#                     (--cluster-token-file …) and exports ARENA_OPERATOR_TOKEN
# wait_port PORT      waits (20 s at most) until something listens on 127.0.0.1:PORT
# stop_pids           stops every process in the PIDS array and waits for them
# delete_prefix P     deletes the keys under prefix P from REDIS_URL

cluster_tokens() {
  SECRETS=$(mktemp -d)
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$SECRETS/operator.token"
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$SECRETS/cluster.token"
  AUTH=(--operator-token-file "$SECRETS/operator.token")
  CLUSTER=(--cluster-token-file "$SECRETS/cluster.token")
  export ARENA_OPERATOR_TOKEN
  ARENA_OPERATOR_TOKEN=$(cat "$SECRETS/operator.token")
}

wait_port() {
  for _ in $(seq 1 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2
  return 1
}

PIDS=()
stop_pids() {
  if [ ${#PIDS[@]} -gt 0 ]; then
    kill "${PIDS[@]}" 2>/dev/null || true
    wait "${PIDS[@]}" 2>/dev/null || true
  fi
  PIDS=()
}

delete_prefix() {
  if [ -n "$1" ]; then
    redis-cli -u "$REDIS_URL" --scan --pattern "$1:*" | xargs -r -n 500 redis-cli -u "$REDIS_URL" del >/dev/null
  fi
}
