#!/usr/bin/env bash
# Runs Cairn's provenance graph and aiida-core 2.9.4 on the same data, in one run, and prints
#   phase cairn_seconds peer_seconds speedup
# for store_single, store_files, store_process, store_bulk, project_all, count_longer, project_filtered,
# value_filter, contains, descendants_50 and descendants_each (plus build_trees when both sides report
# it), then checks that both sides returned the counts the workload expects. See jmh/graph-peer/ for the
# peer's side.
#
#   jmh/compare-graph.sh [--n N] [--single M] [--trees T] [--phases P,...] [--peer-only] [--no-warmup] [--skip-build]
#
# --n N        structures stored in bulk and queried (default 100000)
# --single M   structures and files stored one transaction each, and M/4 processes (default 1000)
# --trees T    trees of B=4, D=4 for the descendant queries (default 500; 50 roots are asked about)
# --phases P   only these phases, comma-separated (e.g. store_single,store_files,store_process: a few
#              minutes); the attribute queries bring store_bulk along, the descendant queries build_trees
# --peer-only  run only aiida-core (no JDK, no build) and print `phase peer_seconds result_count`
# --no-warmup  time Cairn's stores from a cold JVM (by default it first stores 3,300 structures of a
#              label of its own, untimed, as a running server is warm)
# --skip-build use jmh/target/benchmarks.jar as it is
# Work files go to $CAIRN_COMPARE_GRAPH_DIR (default /tmp/cairn-compare-graph); the workload there is
# reused when its parameters match. Cairn gets a fresh database cairn_compare_graph (role cairn) each run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
peer_dir=$here/graph-peer
work=${CAIRN_COMPARE_GRAPH_DIR:-/tmp/cairn-compare-graph}
peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
cairn_user=${CAIRN_DB_USER:-cairn} cairn_password=${CAIRN_DB_PASSWORD:-cairn} cairn_db=cairn_compare_graph

n=100000 single=1000 trees=500 peer_only=0 build=1 warmup_flag="" phases=""
while [ $# -gt 0 ]; do
  case "$1" in
    --n) n=$2; shift 2 ;;
    --single) single=$2; shift 2 ;;
    --trees) trees=$2; shift 2 ;;
    --phases) phases=$2; shift 2 ;;
    --peer-only) peer_only=1; shift ;;
    --no-warmup) warmup_flag=--no-warmup; shift ;;
    --skip-build) build=0; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for v in "$n" "$single" "$trees"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "--n, --single and --trees take a positive whole number, got '$v'" >&2; exit 2; }
done
[[ -z "$phases" || "$phases" =~ ^[a-z_0-9]+(,[a-z_0-9]+)*$ ]] || { echo "--phases takes names separated by commas, got '$phases'" >&2; exit 2; }
# the queries read the bulk structures, the descendant queries the trees: both sides store them first
case ",$phases," in *,project_all,*|*,count_longer,*|*,project_filtered,*|*,value_filter,*|*,contains,*) phases+=,store_bulk ;; esac
case ",$phases," in *,descendants_50,*|*,descendants_each,*) phases+=,build_trees ;; esac

step_start=$SECONDS
step() { echo "[$((SECONDS - step_start)) s] $*" >&2; }

# --- JDK and the benchmark jar (not needed for the peer alone)
if [ "$peer_only" = 0 ]; then
  if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
    JAVA_HOME=$(ls -d /usr/lib/jvm/*/ 2>/dev/null | while read -r d; do
      v=$("$d/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p'); [ "${v:-0}" -ge 21 ] && echo "$v ${d%/}"; done |
      sort -n | tail -1 | cut -d' ' -f2)
    [ -n "$JAVA_HOME" ] || { echo "needs a JDK >= 21 under /usr/lib/jvm" >&2; exit 1; }
    export JAVA_HOME
  fi
  jar="$root/jmh/target/benchmarks.jar"
  if [ "$build" = 1 ] || [ ! -f "$jar" ]; then
    step "building $jar"
    (cd "$root" && ./mvnw -q -B -ntp -pl storage,jmh -am package -DskipTests) >&2
  fi
  runner=dev.cairn.jmh.graph.GraphComparison
  if ! "$JAVA_HOME/bin/jar" tf "$jar" | grep -x "${runner//.//}.class" >/dev/null; then
    echo "$jar has no $runner: Cairn's side is not built (use --peer-only to run aiida-core alone)" >&2
    exit 1
  fi
fi

# --- the peer
step "setting up aiida-core"
"$peer_dir/setup-aiida.sh"
python=$venv/bin/python

# --- the workload
workload=$work/workload-n$n-s$single-t$trees
mkdir -p "$work"
step "workload $workload"
"$python" "$peer_dir/gen_graph_workload.py" "$workload" --n "$n" --single "$single" --trees "$trees" --reuse >/dev/null

# --- aiida-core
peer_out=$work/peer.txt cairn_out=$work/cairn.txt
rm -f "$peer_out" "$cairn_out"
step "running aiida-core (details in $work/peer.json, progress in $work/peer.log)"
AIIDA_PATH=$peers/aiida-graph-home AIIDA_WARN_v3=0 \
  "$python" "$peer_dir/aiida_graph_bench.py" "$workload" --json "$work/peer.json" ${phases:+--phases "$phases"} \
  > "$peer_out" 2> "$work/peer.log" \
  || { tail -20 "$work/peer.log" >&2; echo "aiida-core's run failed (log: $work/peer.log)" >&2; exit 1; }

# --- Cairn
if [ "$peer_only" = 0 ]; then
  step "running Cairn (fresh database $cairn_db)"
  PGPASSWORD=$cairn_password PGOPTIONS='-c client_min_messages=warning' \
    psql -X -q -v ON_ERROR_STOP=1 -h "$host" -p "$port" -U "$cairn_user" -d postgres \
    -c "DROP DATABASE IF EXISTS $cairn_db" -c "CREATE DATABASE $cairn_db"
  jdbc_url="jdbc:postgresql://$host:$port/$cairn_db?user=$cairn_user&password=$cairn_password"
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED ${CAIRN_JAVA_OPTS:--XX:+UseParallelGC} -cp "$jar" \
    "$runner" "$workload" "$jdbc_url" $phases $warmup_flag > "$cairn_out"
fi
step "done"

"$python" "$peer_dir/join_results.py" "$workload/workload.json" "$peer_out" "$( [ "$peer_only" = 1 ] || echo "$cairn_out")" \
  ${phases:+--phases "$phases"}
