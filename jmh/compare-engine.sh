#!/usr/bin/env bash
# Runs Cairn's engine and aiida-core 2.9.4 (daemon + RabbitMQ) on the same workload, in one run, for each
# worker count, and prints
#   workers cairn_proc_per_hour aiida_proc_per_hour speedup cairn_median_ms cairn_p99_ms aiida_median_ms aiida_p99_ms
# speedup = Cairn's processes per hour / aiida-core's (calcjobs adds cairn_cache_first_s cairn_cache_second_s
# cairn_cache_speedup cairn_cache_new_workdirs). See jmh/engine-peer/ for the peer's side.
#
#   jmh/compare-engine.sh --workload functions|calcjobs [--workers "1 2 4"] [--n N] [--latency-samples K]
#                         [--slots S] [--peer-only | --cairn-only] [--skip-build]
#
# --workload W         functions: a work chain running two calcfunctions, (x+y)*z, 3 processes per
#                      work chain (jmh/engine-peer/functions_wc.py; Cairn: arithmetic.add_multiply).
#                      calcjobs: the AiiDA 1.0 paper's engine benchmark, a work chain running a bash
#                      calculation job x+y (local transport, direct scheduler, minimum_job_poll_interval
#                      0.1 s) and then a calcfunction adding y, 3 processes per work chain
#                      (jmh/engine-peer/calcjobs_wc.py; Cairn: arithmetic.add_calcjob_workchain). Cairn
#                      also runs it with caching on and then submits the same N again: the table adds
#                      the first and second round's seconds, their ratio and the work directories the
#                      second round made (must be 0). Job work directories: $work/<side>-calcjobs-w<W>.
# --workers LIST       worker counts, each run on both systems (default "1 2 4"); aiida-core: daemon workers
# --n N                work chains of the throughput phase (default 400, so 1200 processes)
# --latency-samples K  work chains timed one at a time on the idle engine (default 20)
# --slots S            steps each Cairn worker runs at once (default 4)
# --peer-only          run only aiida-core (no JDK, no build); the Cairn columns show -
# --cairn-only         run only Cairn; the aiida columns show -
# --skip-build         use jmh/target/benchmarks.jar as it is
# Each side prints one JSON line per run (throughput: 3N processes over first submit to last termination;
# latency: submit to seen finished, median and p99); they are kept in $CAIRN_COMPARE_ENGINE_DIR (default
# /tmp/cairn-compare-engine) as <side>-w<W>.json, with <side>-w<W>.log (stderr) next to them.
# Cairn gets a fresh PostgreSQL database cairn_compare_engine (role cairn) and a fresh RabbitMQ vhost
# cairn-compare-engine before each run; aiida-core recreates its own database and vhost likewise (setup
# in jmh/engine-peer/setup-aiida-engine.sh). Needs PostgreSQL and RabbitMQ: `source .ci/services`.
# Time: aiida-core's side is the long one, some hundreds of times slower than Cairn's (docs/performance.md
# has the rates), so keep its N small (--n 100 with --peer-only: minutes per worker count) and give Cairn's
# side a larger N (--n 1000 with --cairn-only), where its start and end do not dominate.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
peer_dir=$here/engine-peer
work=${CAIRN_COMPARE_ENGINE_DIR:-/tmp/cairn-compare-engine}
peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
cairn_user=${CAIRN_DB_USER:-cairn} cairn_password=${CAIRN_DB_PASSWORD:-cairn} cairn_db=cairn_compare_engine
amqp_host=${CAIRN_AMQP_HOST:-127.0.0.1} amqp_port=${CAIRN_AMQP_PORT:-5672}
amqp_user=${CAIRN_AMQP_USER:-cairn} amqp_password=${CAIRN_AMQP_PASSWORD:-cairn}
management=${CAIRN_AMQP_MANAGEMENT:-http://$amqp_host:15672}
cairn_vhost=cairn-compare-engine

workload="" workers_list="1 2 4" n=400 samples=20 slots=4 peer=1 cairn=1 build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --workload) workload=$2; shift 2 ;;
    --workers) workers_list=$2; shift 2 ;;
    --n) n=$2; shift 2 ;;
    --latency-samples) samples=$2; shift 2 ;;
    --slots) slots=$2; shift 2 ;;
    --peer-only) cairn=0; shift ;;
    --cairn-only) peer=0; shift ;;
    --skip-build) build=0; shift ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$peer" = 1 ] || [ "$cairn" = 1 ] || { echo "--peer-only and --cairn-only exclude each other" >&2; exit 2; }
for v in "$n" "$samples" "$slots" $workers_list; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "--n, --latency-samples and --workers take positive whole numbers, got '$v'" >&2; exit 2; }
done
[ -n "${workers_list// /}" ] || { echo "--workers needs at least one worker count" >&2; exit 2; }

# --- the workload: what each side is told (calcjobs adds each run's job work directory in the loop)
case "$workload" in
  functions)
    peer_args=(--workload functions)
    cairn_args=() ;;   # EngineComparison runs the functions workload without being told
  calcjobs)
    peer_args=(--workload calcjobs)
    cairn_args=(--workload calcjobs --caching) ;;
  "") echo "--workload is required: functions or calcjobs" >&2; exit 2 ;;
  *) echo "unknown workload '$workload': functions or calcjobs" >&2; exit 2 ;;
esac

# shellcheck source=jmh/bench-env.sh
source "$here/bench-env.sh"
require_services "$host" "$port"

# --- JDK and the benchmark jar (not needed for the peer alone)
runner=dev.cairn.jmh.engine.EngineComparison
jar="$root/jmh/target/benchmarks.jar"
if [ "$cairn" = 1 ]; then
  use_jdk21
  if [ "$build" = 1 ] || [ ! -f "$jar" ]; then
    step "building $jar (JDK $JAVA_HOME)"
    (cd "$root" && ./mvnw -q -B -ntp -pl jmh -am package -DskipTests) >&2
  fi
  if ! "$JAVA_HOME/bin/jar" tf "$jar" | grep -x "${runner//.//}.class" >/dev/null; then
    echo "$jar has no $runner: Cairn's side is not built (use --peer-only to run aiida-core alone)" >&2
    exit 1
  fi
fi

# --- the peer
if [ "$peer" = 1 ]; then
  step "setting up aiida-core"
  "$peer_dir/setup-aiida-engine.sh"
fi
python=$venv/bin/python
[ -x "$python" ] || python=python3

mkdir -p "$work"
rm -f "$work"/aiida-w*.json "$work"/aiida-w*.log "$work"/aiida-w*.details.json "$work"/cairn-w*.json "$work"/cairn-w*.log
rm -rf "$work"/aiida-calcjobs-w* "$work"/cairn-calcjobs-w*

# runs one side: run_side NAME OUT_JSON LOG COMMAND...; a side that prints no result stops the comparison,
# a result with all_ok false only fails the table at the end
run_side() {
  local name=$1 out=$2 log=$3 rc=0; shift 3
  "$@" > "$out" 2> "$log" || rc=$?
  if ! grep -q '^{' "$out"; then
    tail -30 "$log" >&2
    echo "$name failed (exit $rc) without a result (log: $log)" >&2
    exit 1
  fi
  [ "$rc" = 0 ] || echo "$name exited with $rc (log: $log); its result follows in the table's checks" >&2
}

for w in $workers_list; do
  # --- aiida-core: the bench script stops its daemon, recreates its database and vhost, starts W workers
  if [ "$peer" = 1 ]; then
    step "aiida-core, $w worker(s), n=$n (progress in $work/aiida-w$w.log)"
    workdir_args=()
    [ "$workload" = calcjobs ] && workdir_args=(--workdir "$work/aiida-calcjobs-w$w")
    run_side "aiida-core ($w workers)" "$work/aiida-w$w.json" "$work/aiida-w$w.log" \
      env AIIDA_PATH="$peers/aiida-engine-home" AIIDA_WARN_v3=0 \
      "$python" "$peer_dir/aiida_engine_bench.py" "${peer_args[@]}" "${workdir_args[@]}" --workers "$w" --n "$n" \
      --latency-samples "$samples" --json "$work/aiida-w$w.details.json"
    step "aiida-core: $(cat "$work/aiida-w$w.json")"
  fi

  # --- Cairn: fresh database and vhost, then the Java main
  if [ "$cairn" = 1 ]; then
    step "Cairn, $w worker(s), n=$n (fresh database $cairn_db, vhost $cairn_vhost; log $work/cairn-w$w.log)"
    PGPASSWORD=$cairn_password PGOPTIONS='-c client_min_messages=warning' \
      psql -X -q -v ON_ERROR_STOP=1 -h "$host" -p "$port" -U "$cairn_user" -d postgres \
      -c "DROP DATABASE IF EXISTS $cairn_db WITH (FORCE)" -c "CREATE DATABASE $cairn_db OWNER $cairn_user"
    status=$(rabbit DELETE "vhosts/$cairn_vhost")
    case "$status" in 204|404) ;; *) echo "deleting vhost $cairn_vhost: HTTP $status" >&2; exit 1 ;; esac
    status=$(rabbit PUT "vhosts/$cairn_vhost")
    case "$status" in 201|204) ;; *) echo "creating vhost $cairn_vhost: HTTP $status" >&2; exit 1 ;; esac
    status=$(rabbit PUT "permissions/$cairn_vhost/$amqp_user" '{"configure":".*","write":".*","read":".*"}')
    case "$status" in 201|204) ;; *) echo "permissions on vhost $cairn_vhost: HTTP $status" >&2; exit 1 ;; esac
    db_url="jdbc:postgresql://$host:$port/$cairn_db?user=$cairn_user&password=$cairn_password"
    amqp_uri="amqp://$amqp_user:$amqp_password@$amqp_host:$amqp_port/$cairn_vhost"
    workdir_args=()
    [ "$workload" = calcjobs ] && workdir_args=(--workdir "$work/cairn-calcjobs-w$w")
    # CAIRN_JAVA_OPTS (unset: none) goes before -cp, e.g. CAIRN_JAVA_OPTS='-Xmx2g -XX:+UseParallelGC'
    # shellcheck disable=SC2086
    run_side "Cairn ($w workers)" "$work/cairn-w$w.json" "$work/cairn-w$w.log" \
      "$JAVA_HOME/bin/java" ${CAIRN_JAVA_OPTS:-} -cp "$jar" "$runner" "${cairn_args[@]}" "${workdir_args[@]}" \
      --workers "$w" --n "$n" \
      --latency-samples "$samples" --slots "$slots" --db-url "$db_url" --amqp-uri "$amqp_uri"
    step "Cairn: $(cat "$work/cairn-w$w.json")"
  fi
done
step "done"

"$python" "$peer_dir/engine_table.py" "$n" "$workers_list" "$work" "$workload"
