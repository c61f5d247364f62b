#!/usr/bin/env bash
# Measures the server as clients see it (dev.cairn.jmh.server.EventStreamLoad): a batch submit of N work
# chains; N event streams each following one process plus W following everything, all open while a worker
# runs the N work chains (every state change must reach every stream that asked for it, once; the delay
# is the time a client read the event minus the time the step wrote the change); R more batches of N timed
# on the idle server; C concurrent clients reading processes for T seconds. Once with Tomcat's platform
# request threads and once with virtual threads (spring.threads.virtual.enabled), on a fresh database and
# vhost each time. --phases throughput measures processes per hour through REST instead: a worker (the
# server jar, role worker, --slots slots) runs N work chains that one client submits in batches of 100 (as the
# engine comparison does), then N/10 single launches time one request each; and
# the engine's own figure is measured right after in the same conditions (jmh/compare-engine.sh --workload
# functions --workers 1 --cairn-only, a WorkerMain JVM with the same slots); it prints both and their ratio.
# --one-jvm runs the server as it runs by default, roles api and worker in one JVM (--slots slots), and
# starts no worker of its own (throughput phase only).
#
#   jmh/server-load.sh [--n 1000] [--watchers 50] [--batches 5] [--clients 200] [--seconds 10]
#                      [--threads "platform virtual"] [--rounds 1] [--phases streams,batches,concurrency]
#                      [--slots 4] [--port 18480] [--throughput-n 2000] [--one-jvm] [--skip-build]
#
# --rounds R runs the thread modes R times, alternating (platform, virtual, platform, ...), so that a
# machine whose load changes meets both alike; --phases open,batches,concurrency measures without a
# worker (the streams are opened and closed, the batches are not run).
# The server runs with the role api alone (cairn-server.jar --cairn.roles=api), so the batch waits in the
# queue while the streams open; the worker is a second JVM of the same jar with the role worker, started
# by the load program once every stream is open. Results: $CAIRN_SERVER_LOAD_DIR (default
# /tmp/cairn-server-load)/load-<round>-<threads>.json, with the servers' and the program's logs beside it.
# Needs PostgreSQL and RabbitMQ (source .ci/services); takes minutes per thread mode.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=${CAIRN_SERVER_LOAD_DIR:-/tmp/cairn-server-load}
host=${PGHOST:-127.0.0.1} pgport=${PGPORT:-5432}
db_user=${CAIRN_DB_USER:-cairn} db_password=${CAIRN_DB_PASSWORD:-cairn} db=cairn_server_load
amqp_host=${CAIRN_AMQP_HOST:-127.0.0.1} amqp_port=${CAIRN_AMQP_PORT:-5672}
amqp_user=${CAIRN_AMQP_USER:-cairn} amqp_password=${CAIRN_AMQP_PASSWORD:-cairn}
management=${CAIRN_AMQP_MANAGEMENT:-http://$amqp_host:15672}
vhost=cairn-server-load

n=1000 watchers=50 batches=5 clients=200 seconds=10 modes="platform virtual" slots=4 port=18480 build=1
rounds=1 phases=streams,batches,concurrency throughput_n=2000 one_jvm=0
while [ $# -gt 0 ]; do
  case "$1" in
    --n) n=$2; shift 2 ;;
    --watchers) watchers=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --threads) modes=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --phases) phases=$2; shift 2 ;;
    --slots) slots=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --throughput-n) throughput_n=$2; shift 2 ;;
    --one-jvm) one_jvm=1; shift ;;
    --skip-build) build=0; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for m in $modes; do
  case "$m" in platform|virtual) ;; *) echo "--threads takes platform and/or virtual, not '$m'" >&2; exit 2 ;; esac
done

# shellcheck source=jmh/bench-env.sh
source "$here/bench-env.sh"

require_services "$host" "$pgport"

use_jdk21
java=$JAVA_HOME/bin/java
server_jar=$root/api/target/cairn-server.jar
bench_jar=$root/jmh/target/benchmarks.jar
if [ "$build" = 1 ] || [ ! -f "$server_jar" ] || [ ! -f "$bench_jar" ]; then
  step "building the server jar and the benchmarks (JDK $JAVA_HOME)"
  (cd "$root" && ./mvnw -q -B -ntp -pl api,jmh -am package -DskipTests) >&2
fi

mkdir -p "$work"
server_pid=""
# the server ends by the signal, so wait returns 143, which must not become the script's exit code (set -e)
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && { wait "$server_pid" 2>/dev/null || true; }; true; }
trap cleanup EXIT

runs=""
for _ in $(seq 1 "$rounds"); do runs+=" $modes"; done
round=0
for mode in $runs; do
  round=$((round + 1))
  virtual=false; [ "$mode" = virtual ] && virtual=true
  step "$mode threads: fresh database $db and vhost $vhost"
  PGPASSWORD=$db_password PGOPTIONS='-c client_min_messages=warning' \
    psql -X -q -v ON_ERROR_STOP=1 -h "$host" -p "$pgport" -U "$db_user" -d postgres \
    -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db OWNER $db_user"
  status=$(rabbit DELETE "vhosts/$vhost"); case "$status" in 204|404) ;; *) echo "deleting vhost: HTTP $status" >&2; exit 1 ;; esac
  status=$(rabbit PUT "vhosts/$vhost"); case "$status" in 201|204) ;; *) echo "creating vhost: HTTP $status" >&2; exit 1 ;; esac
  status=$(rabbit PUT "permissions/$vhost/$amqp_user" '{"configure":".*","write":".*","read":".*"}')
  case "$status" in 201|204) ;; *) echo "permissions on vhost: HTTP $status" >&2; exit 1 ;; esac
  data=$work/$mode
  rm -rf "$data" "$data-worker"
  common=(--cairn.database.url="jdbc:postgresql://$host:$pgport/$db?user=$db_user&password=$db_password"
          --cairn.broker.uri="amqp://$amqp_user:$amqp_password@$amqp_host:$amqp_port/$vhost"
          --cairn.store.path="$data/objects")
  # CAIRN_JAVA_OPTS (unset: none) goes to both server JVMs, e.g. CAIRN_JAVA_OPTS='-Xmx1g'
  # shellcheck disable=SC2086
  roles=api; [ "$one_jvm" = 1 ] && roles=api,worker
  "$java" ${CAIRN_JAVA_OPTS:-} -jar "$server_jar" --cairn.roles=$roles --cairn.worker.slots="$slots" "${common[@]}" --cairn.data-dir="$data" \
    --server.port="$port" --spring.threads.virtual.enabled=$virtual > "$work/api-$mode.log" 2>&1 &
  server_pid=$!
  step "$mode threads: api server (pid $server_pid) starting on port $port (log $work/api-$mode.log)"
  for _ in $(seq 1 240); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/api/v1/server" && break
    kill -0 "$server_pid" 2>/dev/null || { tail -30 "$work/api-$mode.log" >&2; echo "the server stopped" >&2; exit 1; }
    sleep 0.5
  done
  curl -sf -o /dev/null "http://127.0.0.1:$port/api/v1/server" || { echo "the server did not answer in 120 s" >&2; exit 1; }
  worker="$java ${CAIRN_JAVA_OPTS:-} -jar $server_jar --cairn.roles=worker"
  for arg in "${common[@]}"; do worker+=" '$arg'"; done   # the database URL has an '&'
  worker+=" --cairn.data-dir=$data-worker"
  worker+=" --server.port=0 --cairn.worker.slots=$slots"
  [ "$one_jvm" = 1 ] && worker=""
  step "$mode threads: the load (log $work/load-$round-$mode.log)"
  "$java" -cp "$bench_jar" dev.cairn.jmh.server.EventStreamLoad --url "http://127.0.0.1:$port" \
    --token-file "$data/admin-token" ${worker:+--worker-command "$worker"} --n "$n" --watchers "$watchers" \
    --batches "$batches" --clients "$clients" --seconds "$seconds" --phases "$phases" --throughput-n "$throughput_n" \
    > "$work/load-$round-$mode.json" 2> >(tee "$work/load-$round-$mode.log" >&2)
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
  step "$mode threads: $(cat "$work/load-$round-$mode.json")"
  if [[ ,$phases, == *,throughput,* ]]; then
    step "the engine's own figure, right after: jmh/compare-engine.sh --workload functions --workers 1 --n $throughput_n --slots $slots --cairn-only --skip-build"
    "$here/compare-engine.sh" --workload functions --workers 1 --n "$throughput_n" --latency-samples 1 --slots "$slots" \
      --cairn-only --skip-build > "$work/engine-$round-$mode.txt" 2> "$work/engine-$round-$mode.log"
    rest=$(sed -n 's/.*"throughput_processes_per_hour":\([0-9]*\).*/\1/p' "$work/load-$round-$mode.json")
    engine=$(awk '$1 == 1 { print $2 }' "$work/engine-$round-$mode.txt")
    echo "throughput_processes_per_hour rest=$rest engine=$engine rest/engine=$(awk -v a="$rest" -v b="$engine" 'BEGIN { printf "%.2f", a / b }')"
  fi
done
