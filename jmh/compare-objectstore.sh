#!/usr/bin/env bash
# Runs Cairn's object store and disk-objectstore 1.5.0 on the same workload, in one run, and prints
#   phase cairn_seconds peer_seconds speedup
# for every phase both ran. See jmh/README.md.
#
#   jmh/compare-objectstore.sh [--workload FILE | --objects N [--min-size B] [--max-size B] [--duplicates F]
#                              [--log-uniform]] [--phases p1,p2,...] [--runs R] [--no-pack-sync] [--skip-build]
#                              [--fractions F1,F2,...] [--reps R] [--s3] [--no-peer]
#
# Default workload: 100,000 objects of 0-1000 random bytes (sizes uniform, seed 42), written by
# dev.cairn.jmh.objects.WorkloadGenerator; --objects N and the options after it choose another (sizes
# uniform in [min, max], or log-uniform with --log-uniform; a fraction F of objects repeating earlier ones).
# disk-objectstore's side is jmh/objects-peer/phases.py (and subset_reads.py), in a venv of its own. --runs R
# takes the median of R runs of each side. --no-pack-sync runs Cairn without fsync of pack files, which is
# what disk-objectstore does on Linux (its pack fsync is a no-op there); by default Cairn syncs and the
# peer does not. The phase subset_reads reads random subsets (--fractions, default 0.01,0.1,0.5) of the
# keys, in one call and in ten, and a table gives each one's cost per object over the full read's (median
# of --reps repetitions, default 5; target: at most 2).
#
# --s3 runs Cairn's side a second time with its containers in a bucket of S3Proxy (a real S3 server, the
# object store's test dependency, on its filesystem-nio2 backend in $work, started here on the loopback
# address) and adds its seconds and two ratios: s3/folder and the peer's over s3. Over loopback to a server
# on the same disk, these are the cost of the protocol (requests, signing, copies through the server),
# not of a network. --no-peer leaves disk-objectstore out (its columns too): a change of Cairn's bucket
# against its folder, in a few minutes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=${CAIRN_COMPARE_DIR:-/tmp/cairn-compare}
venv=${CAIRN_PEER_VENV:-/tmp/cairn-peers/dos-venv}

workload="" objects=100000 min_size=0 max_size=1000 duplicates=0 runs=1 sync_flag="" build=1 sizes=uniform
fractions=0.01,0.1,0.5 reps=5 s3=0 peer=1
phases="loose_write,pack_all_loose,clean_storage,pack_write,pack_write_compressed,bulk_read,single_reads,chunked_read,validate,subset_reads"
while [ $# -gt 0 ]; do
  case "$1" in
    --workload) workload=$2; shift 2 ;;
    --objects) objects=$2; shift 2 ;;
    --min-size) min_size=$2; shift 2 ;;
    --max-size) max_size=$2; shift 2 ;;
    --duplicates) duplicates=$2; shift 2 ;;
    --log-uniform) sizes=log-uniform; shift ;;
    --fractions) fractions=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --phases) phases=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --no-pack-sync) sync_flag="--no-pack-sync"; shift ;;
    --skip-build) build=0; shift ;;
    --s3) s3=1; shift ;;
    --no-peer) peer=0; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

# --- JDK and the benchmark jar
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
  JAVA_HOME=$(ls -d /usr/lib/jvm/*/ 2>/dev/null | while read -r d; do
    v=$("$d/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p'); [ "${v:-0}" -ge 21 ] && echo "$v ${d%/}"; done |
    sort -n | tail -1 | cut -d' ' -f2)
  [ -n "$JAVA_HOME" ] || { echo "needs a JDK >= 21 under /usr/lib/jvm" >&2; exit 1; }
  export JAVA_HOME
fi
jar="$root/jmh/target/benchmarks.jar"
if [ "$build" = 1 ] || [ ! -f "$jar" ]; then
  (cd "$root" && ./mvnw -q -B -ntp -pl storage,jmh -am package -DskipTests) >&2
fi
# The throughput collector: a bulk read whose results are all kept (as the peer's dict keeps them) spends a
# large share of a 1M-object read in G1's evacuation pauses; ParallelGC copies the same bytes faster.
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC -cp "$jar")

# --- the peer, in a virtualenv of its own
if [ "$peer" = 1 ] && { [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import disk_objectstore' 2>/dev/null; }; then
  echo "installing disk-objectstore 1.5.0 into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q disk-objectstore==1.5.0 >&2
fi

# --- the workload
mkdir -p "$work"
if [ -z "$workload" ]; then
  workload="$work/objects_${objects}_${min_size}-${max_size}_dup${duplicates}$([ "$sizes" = uniform ] || echo "_$sizes").bin"
  [ -f "$workload" ] || "${java[@]}" dev.cairn.jmh.objects.WorkloadGenerator "$workload" "$objects" "$min_size" "$max_size" \
    "$duplicates" 42 "$sizes"
fi
[ -f "$workload" ] || { echo "no workload file $workload" >&2; exit 1; }

# --- the phases disk-objectstore runs (jmh/objects-peer/phases.py); subset_reads has a script of its own
peer_phases=""
IFS=, read -ra wanted <<< "$phases"
for p in "${wanted[@]}"; do
  case "$p" in
    loose_write|pack_all_loose|clean_storage|pack_write|pack_write_compressed|bulk_read|single_reads|chunked_read|validate)
      peer_phases="${peer_phases:+$peer_phases,}$p" ;;
    subset_reads) ;;
    *) echo "unknown phase $p" >&2; exit 2 ;;
  esac
done

# --- S3Proxy, for --s3: from the object store's test class path, on a free loopback port
s3_out="$work/cairn-s3.txt"
: > "$s3_out"
if [ "$s3" = 1 ]; then
  (cd "$root" && ./mvnw -q -B -ntp -pl objects dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$work/s3proxy.classpath") >&2
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  rm -rf "$work/s3data" && mkdir -p "$work/s3data/bench"
  cat > "$work/s3proxy.properties" <<PROPS
s3proxy.endpoint=http://127.0.0.1:$port
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=bench
s3proxy.credential=bench-secret
jclouds.provider=filesystem-nio2
jclouds.identity=bench
jclouds.credential=bench-secret
jclouds.filesystem.basedir=$work/s3data
PROPS
  "$JAVA_HOME/bin/java" -Dlogback.configurationFile="$root/objects/src/test/resources/logback-test.xml" \
    -cp "$(<"$work/s3proxy.classpath")" org.gaul.s3proxy.Main --properties "$work/s3proxy.properties" \
    > "$work/s3proxy.log" 2>&1 &
  s3proxy_pid=$!
  trap 'kill "$s3proxy_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 300); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
    sleep 0.2
  done
  export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret
fi

cairn_out="$work/cairn.txt" peer_out="$work/peer.txt"
: > "$cairn_out"; : > "$peer_out"
for ((i = 1; i <= runs; i++)); do
  echo "run $i/$runs: cairn" >&2
  "${java[@]}" dev.cairn.jmh.objects.ObjectStoreComparison "$workload" "$work/cairn-run" "$phases" $sync_flag \
    --fractions "$fractions" --reps "$reps" >> "$cairn_out"
  if [ "$s3" = 1 ]; then
    echo "run $i/$runs: cairn in a bucket of S3Proxy" >&2
    "${java[@]}" dev.cairn.jmh.objects.ObjectStoreComparison "$workload" "$work/cairn-s3-run" "$phases" $sync_flag \
      --fractions "$fractions" --reps "$reps" --s3 "http://127.0.0.1:$port" bench >> "$s3_out"
  fi
  [ "$peer" = 1 ] || continue
  if [[ ",$phases," == *",subset_reads,"* ]]; then
    echo "run $i/$runs: disk-objectstore (subset_reads)" >&2
    "$venv/bin/python" "$here/objects-peer/subset_reads.py" "$workload" --fractions "$fractions" --reps "$reps" \
      >> "$peer_out"
  fi
  [ -n "$peer_phases" ] || continue
  echo "run $i/$runs: disk-objectstore (phases $peer_phases)" >&2
  "$venv/bin/python" "$here/objects-peer/phases.py" "$workload" --phases "$peer_phases" >> "$peer_out"
done

python=$([ "$peer" = 1 ] && echo "$venv/bin/python" || echo python3)
"$python" - "$cairn_out" "$peer_out" "$phases" "$s3_out" <<'PY'
import statistics, sys
def load(path):
    """phase -> (median seconds, objects, median ratio); subset_reads lines carry the last two."""
    out = {}
    for line in open(path):
        name, secs, *rest = line.split()
        out.setdefault(name, []).append((float(secs), *map(float, rest)))
    return {k: tuple(statistics.median(col) for col in zip(*v)) for k, v in out.items()}
cairn, peer, s3 = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[4])
phases = sys.argv[3].split(",")
if not peer:
    print("phase cairn_seconds s3_seconds s3_over_folder")
    for p in phases:
        if p in cairn and p in s3 and len(cairn[p]) == 1:
            print(f"{p} {cairn[p][0]:.4f} {s3[p][0]:.4f} {s3[p][0] / cairn[p][0]:.1f}")
    sys.exit(0)
print("phase cairn_seconds peer_seconds speedup" + (" s3_seconds s3_over_folder peer_over_s3" if s3 else ""))
for p in phases:
    if p in cairn and p in peer and len(cairn[p]) == 1:
        line = f"{p} {cairn[p][0]:.4f} {peer[p][0]:.4f} {peer[p][0] / cairn[p][0]:.1f}"
        if p in s3:
            line += f" {s3[p][0]:.4f} {s3[p][0] / cairn[p][0]:.1f} {peer[p][0] / s3[p][0]:.2f}"
        print(line)
subsets = [k for k, v in cairn.items() if len(v) == 3]
if subsets:
    print()
    print("read objects cairn_us_per_object cairn_ratio peer_us_per_object peer_ratio speedup"
          "    (ratio: cost per object over the full read's, target <= 2)")
    for k in subsets:
        secs, n, ratio = cairn[k]
        line = f"{k} {n:.0f} {secs / n * 1e6:.2f} {ratio:.2f}"
        if k in peer:
            psecs, pn, pratio = peer[k]
            line += f" {psecs / pn * 1e6:.2f} {pratio:.2f} {psecs / pn / (secs / n):.1f}"
        print(line)
PY
