#!/usr/bin/env bash
# Exports and imports the same graph with Cairn and aiida-core 2.9.4, in one run, and prints
#   phase cairn_seconds peer_seconds speedup
# for export (everything, to a file), import (into an empty installation), reimport (the same file into
# that installation again: nothing new) and import_aiida (aiida-core's own archive of the graph: into an
# empty Cairn, against aiida-core's import of it), then checks that every archive and installation holds
# the workload's nodes, links and objects. See jmh/archive-peer/ for the workload and the peer's side.
#
#   jmh/compare-archive.sh [--n N] [--trees T] [--cairn-only] [--skip-build] [--keep]
#
# --n N         structures, the graph comparison's (default 100000)
# --trees T     trees of B=4, D=4 (426 nodes, 85 calcs with a file each; default N/200)
# --cairn-only  no aiida-core: Cairn's load, export, import and reimport, printed as
#               `phase cairn_seconds nodes nodes_per_s old_gen_peak_mb` (the scale runs: --n 1000000)
# --skip-build  use jmh/target/benchmarks.jar as it is
# --keep        keep Cairn's databases, object stores and archive (dropped at the end by default)
# Cairn's JVM runs with ${CAIRN_JAVA_OPTS:--Xmx256m -XX:+UseParallelGC}. Work files go to
# $CAIRN_COMPARE_ARCHIVE_DIR (default /tmp/cairn-compare-archive); the workload there is reused when its
# parameters match. Cairn gets fresh databases cairn_compare_archive_{src,dst,from_aiida} (role cairn,
# which .ci/services lets set session_replication_role: the imports skip the per-row foreign-key checks),
# aiida-core fresh copies of its two profiles' databases and repositories (archive-peer/setup-aiida.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
peer_dir=$here/archive-peer
work=${CAIRN_COMPARE_ARCHIVE_DIR:-/tmp/cairn-compare-archive}
peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
cairn_user=${CAIRN_DB_USER:-cairn} cairn_password=${CAIRN_DB_PASSWORD:-cairn}

n=100000 trees="" cairn_only=0 build=1 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --n) n=$2; shift 2 ;;
    --trees) trees=$2; shift 2 ;;
    --cairn-only) cairn_only=1; shift ;;
    --skip-build) build=0; shift ;;
    --keep) keep=--keep; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$trees" ] || trees=$(( n / 200 > 0 ? n / 200 : 1 ))
for v in "$n" "$trees"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "--n and --trees take a positive whole number, got '$v'" >&2; exit 2; }
done

source "$here/bench-env.sh"
use_jdk21
pg_isready -q -h "$host" -p "$port" || { echo "PostgreSQL is not answering at $host:$port (source .ci/services)" >&2; exit 1; }

# --- the benchmark jar
jar="$root/jmh/target/benchmarks.jar"
if [ "$build" = 1 ] || [ ! -f "$jar" ]; then
  step "building $jar"
  (cd "$root" && ./mvnw -q -B -ntp -pl storage,jmh -am package -DskipTests) >&2
fi
runner=dev.cairn.jmh.archive.ArchiveComparison
if ! "$JAVA_HOME/bin/jar" tf "$jar" | grep -x "${runner//.//}.class" >/dev/null; then
  echo "$jar has no $runner: Cairn's side is not built" >&2
  exit 1
fi

# --- the peer (its venv's Python writes the workload too; the generator needs the standard library only)
python=python3
if [ "$cairn_only" = 0 ]; then
  step "setting up aiida-core"
  "$peer_dir/setup-aiida.sh"
  python=$venv/bin/python
fi

# --- the workload
workload=$work/workload-n$n-t$trees
mkdir -p "$work"
step "workload $workload"
"$python" "$peer_dir/gen_archive_workload.py" "$workload" --n "$n" --trees "$trees" --reuse >&2

cairn_out=$work/cairn.txt peer_out=$work/peer.txt aiida_archive=$work/graph.aiida
rm -f "$cairn_out" "$peer_out"

# --- aiida-core: load into one profile and export it, import into the other, twice
if [ "$cairn_only" = 0 ]; then
  bench() {  # bench SIDE PHASE PATH: one phase in a fresh Python process, as verdi would run it
    AIIDA_PATH=$peers/aiida-archive-$1-home AIIDA_WARN_v3=0 \
      "$python" "$peer_dir/aiida_archive_bench.py" "$2" "$3" >> "$peer_out" 2>> "$work/peer.log" \
      || { tail -20 "$work/peer.log" >&2; echo "aiida-core's $2 failed (log: $work/peer.log)" >&2; exit 1; }
  }
  : > "$work/peer.log"
  step "aiida-core: loading the graph (progress in $work/peer.log)"
  bench src load "$workload"
  step "aiida-core: export"
  bench src export "$aiida_archive"
  step "aiida-core: import"
  bench dst import "$aiida_archive"
  step "aiida-core: reimport"
  bench dst reimport "$aiida_archive"
fi

# --- Cairn
step "Cairn: load, export, import, reimport$([ "$cairn_only" = 0 ] && echo ", import_aiida") (progress in $work/cairn.log)"
admin_url="jdbc:postgresql://$host:$port/postgres?user=$cairn_user&password=$cairn_password"
phases=export,import,reimport aiida_args=()
if [ "$cairn_only" = 0 ]; then
  phases=$phases,import_aiida aiida_args=(--aiida-archive "$aiida_archive")
fi
# shellcheck disable=SC2086  # CAIRN_JAVA_OPTS holds several options
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED ${CAIRN_JAVA_OPTS:--Xmx256m -XX:+UseParallelGC} -cp "$jar" \
  "$runner" "$workload" "$work/cairn" "$admin_url" --phases "$phases" "${aiida_args[@]}" $keep \
  > "$cairn_out" 2> "$work/cairn.log" \
  || { grep -v '^WARNING' "$work/cairn.log" | tail -20 >&2; echo "Cairn's run failed (log: $work/cairn.log)" >&2; exit 1; }
grep -E '^[a-z_]+: ' "$work/cairn.log" >&2 || true
if grep -q 'import step foreign-key checks kept' "$work/cairn.log"; then
  echo "note: role $cairn_user may not set session_replication_role, so Cairn's imports kept PostgreSQL's" \
    "per-row foreign-key checks (docs/reference/settings.md, \"The PostgreSQL role\"; .ci/services grants it)" >&2
fi
step "done (load average $(cut -d' ' -f1-3 /proc/loadavg))"

if [ "$cairn_only" = 1 ]; then
  "$python" "$peer_dir/join_results.py" "$workload/workload.json" "$cairn_out"
else
  "$python" "$peer_dir/join_results.py" "$workload/workload.json" "$cairn_out" "$peer_out"
fi
