#!/usr/bin/env bash
# Runs Cairn's REST API and aiida-core 2.9.4's REST API on the same data, with the same load generator
# (wrk), and prints
#   endpoint connections cairn_rps peer_rps speedup cairn_p99_ms peer_p99_ms
# for node (one node with its attributes), page (20 structures, newest first), links (the incoming links
# of a calculation), query (a query builder POST with an attribute filter), file_1k and file_10m (a file
# download), statistics, and descendants (of a tree's root), each at 1 and 16 connections, then Cairn's
# download speed and its server's peak heap. See jmh/api-peer/ for the peer's side.
#
#   jmh/compare-api.sh [--n N] [--trees T] [--seconds S] [--warmup W] [--connections "1 16"]
#                      [--endpoints LIST] [--reuse-data] [--skip-build]
#
# --n N            structures loaded (default 20000; the graph comparison's workload, gen_graph_workload.py)
# --trees T        provenance trees of B=4, D=4, 426 nodes each (default 100)
# --seconds S      seconds each wrk run lasts (default 10)
# --warmup W       seconds of load on each endpoint before it is measured, untimed (default 3); Cairn's
#                  server also gets W seconds of every endpoint before the first is measured
# --connections L  connection counts (default "1 16"); wrk uses one thread up to 1 connection, 2 above
# --endpoints LIST comma-separated subset of node,page,links,query,file_1k,file_10m,statistics,descendants
# --reuse-data     keep both databases as the last run loaded them when its parameters were these
# --skip-build     use api/target/cairn-server.jar and jmh/target/benchmarks.jar as they are
#
# Loading: aiida-core by jmh/api-peer/load_aiida.py into the profile of jmh/api-peer/setup-aiida-api.sh
# (bulk_insert, as the graph comparison stores; two SinglefileData by the ORM); Cairn by
# dev.cairn.jmh.graph.GraphComparison (its store_bulk and build_trees phases, the storage API) into a fresh
# database cairn_compare_api, the files by the server's upload endpoint. Servers: Cairn's jar with
# -Xmx512m (role api, external PostgreSQL and RabbitMQ, vhost cairn-compare-api); aiida-core's REST API
# as its WSGI app (aiida.restapi.run_api.configure_api, jmh/api-peer/aiida_wsgi.py) under gunicorn with
# one sync worker per core. Each endpoint's first answer is checked against the workload on both sides
# (check_answer.py), and every answer under load must be a 2xx holding an expected string (request.lua);
# the script fails otherwise. Raw results: $CAIRN_COMPARE_API_DIR (default /tmp/cairn-compare-api):
# results.jsonl (one line per side, endpoint and connection count, with the load average), the servers'
# logs, Cairn's GC log. Needs PostgreSQL, RabbitMQ (source .ci/services) and wrk (apt-get install wrk).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
peer_dir=$here/api-peer
work=${CAIRN_COMPARE_API_DIR:-/tmp/cairn-compare-api}
peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
host=${PGHOST:-127.0.0.1} pgport=${PGPORT:-5432}
db_user=${CAIRN_DB_USER:-cairn} db_password=${CAIRN_DB_PASSWORD:-cairn} db=cairn_compare_api
amqp_host=${CAIRN_AMQP_HOST:-127.0.0.1} amqp_port=${CAIRN_AMQP_PORT:-5672}
amqp_user=${CAIRN_AMQP_USER:-cairn} amqp_password=${CAIRN_AMQP_PASSWORD:-cairn}
management=${CAIRN_AMQP_MANAGEMENT:-http://$amqp_host:15672}
vhost=cairn-compare-api
cairn_port=${CAIRN_COMPARE_API_PORT:-18490} peer_port=${CAIRN_COMPARE_API_PEER_PORT:-18491}
all_endpoints=node,page,links,query,file_1k,file_10m,statistics,descendants
query_cell_above=11.9   # attributes.cell.0.0 above this: about 1 % of the structures

n=20000 trees=100 seconds=10 warmup=3 connections="1 16" endpoints=$all_endpoints reuse=0 build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --n) n=$2; shift 2 ;;
    --trees) trees=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --endpoints) endpoints=$2; shift 2 ;;
    --reuse-data) reuse=1; shift ;;
    --skip-build) build=0; shift ;;
    -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for v in "$n" "$trees" "$seconds" $connections; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "--n, --trees, --seconds and --connections take positive whole numbers, got '$v'" >&2; exit 2; }
done
[[ "$warmup" =~ ^[0-9]+$ ]] || { echo "--warmup takes a whole number of seconds, got '$warmup'" >&2; exit 2; }
for e in ${endpoints//,/ }; do
  [[ ",$all_endpoints," == *",$e,"* ]] || { echo "unknown endpoint '$e'; endpoints: $all_endpoints" >&2; exit 2; }
done

# shellcheck source=jmh/bench-env.sh
source "$here/bench-env.sh"
cairn_psql() {
  PGPASSWORD=$db_password PGOPTIONS='-c client_min_messages=warning' \
    psql -X -q -v ON_ERROR_STOP=1 -h "$host" -p "$pgport" -U "$db_user" "$@"
}

command -v wrk >/dev/null || { echo "needs wrk (Debian: apt-get install -y wrk)" >&2; exit 1; }
require_services "$host" "$pgport"

# --- JDK and the jars
use_jdk21
java=$JAVA_HOME/bin/java
server_jar=$root/api/target/cairn-server.jar
bench_jar=$root/jmh/target/benchmarks.jar
if [ "$build" = 1 ] || [ ! -f "$server_jar" ] || [ ! -f "$bench_jar" ]; then
  step "building the server jar and the benchmarks (JDK $JAVA_HOME)"
  (cd "$root" && ./mvnw -q -B -ntp -pl api,jmh -am package -DskipTests) >&2
fi

# --- the peer, the workload, the files
step "setting up aiida-core and its REST API"
"$peer_dir/setup-aiida-api.sh"
python=$venv/bin/python
export AIIDA_PATH=$peers/aiida-api-home AIIDA_WARN_v3=0
mkdir -p "$work"
workload=$work/workload-n$n-t$trees
step "workload $workload"
"$python" "$here/graph-peer/gen_graph_workload.py" "$workload" --n "$n" --single 1 --trees "$trees" --reuse >/dev/null
files=$work/files
mkdir -p "$files"
# small.bin: 1 KiB of text; big.bin: 10 MiB that do not compress (as most result files of that size)
"$python" - "$files" <<'PY'
import os, random, sys
d = sys.argv[1]
line = b'cairn-api-small 0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ\n'
small = (line * 20)[:1024]
big = random.Random(20261124).randbytes(10 * 1024 * 1024)
for name, data in (('small.bin', small), ('big.bin', big)):
    path = os.path.join(d, name)
    if not os.path.exists(path) or open(path, 'rb').read() != data:
        open(path, 'wb').write(data)
PY
structure_index=$(( n / 2 ))

# --- expectations, from the workload alone
expect=$work/expect.json
"$python" - "$workload" "$files" "$structure_index" "$query_cell_above" > "$work/expect-workload.json" <<'PY'
import hashlib, json, os, sys
workload, files, index, above = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
count = 0
with open(os.path.join(workload, 'structures.jsonl')) as f:
    for i, line in enumerate(f):
        s = json.loads(line)
        count += s['cell'][0][0] > above
        if i == index:
            structure = s
w = json.load(open(os.path.join(workload, 'workload.json')))
t = json.load(open(os.path.join(workload, 'trees.json')))
out = {'structure': structure, 'structure_type': w['structure_node_type'], 'query_count': count,
       'descendants': t['descendants_per_root'], 'nodes': w['structures'] + t['nodes'] + 2}
for name in ('small', 'big'):
    data = open(os.path.join(files, name + '.bin'), 'rb').read()
    out[name + '_size'] = len(data)
    out[name + '_sha256'] = hashlib.sha256(data).hexdigest()
print(json.dumps(out))
PY

stamp=$work/loaded
want_stamp="n=$n trees=$trees format=1"
if [ "$reuse" = 1 ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] \
   && [ -f "$work/peer-ids.json" ] && [ -d "$work/cairn-data" ]; then
  load=0
  step "reusing the data loaded by the last run ($want_stamp)"
else
  load=1
  rm -f "$stamp"
fi

server_pid="" peer_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ -n "$peer_pid" ]; then kill "$peer_pid" 2>/dev/null || true; wait "$peer_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# --- aiida-core: load, then its REST API under gunicorn
if [ "$load" = 1 ]; then
  step "loading aiida-core ($n structures, $trees trees, 2 files; log $work/peer-load.log)"
  "$python" "$peer_dir/load_aiida.py" "$workload" "$files" "$work/peer-ids.json" \
    --structure-index "$structure_index" --query-cell-above "$query_cell_above" --bodies "$work" \
    2> "$work/peer-load.log" || { tail -20 "$work/peer-load.log" >&2; echo "loading aiida-core failed" >&2; exit 1; }
fi
cores=$(nproc)
step "aiida-core's REST API: gunicorn, $cores sync workers, port $peer_port (log $work/peer-server.log)"
"$venv/bin/gunicorn" --workers "$cores" --bind "127.0.0.1:$peer_port" --chdir "$peer_dir" \
  --access-logfile /dev/null --error-logfile "$work/peer-server.log" aiida_wsgi:app > /dev/null 2>&1 &
peer_pid=$!

# --- Cairn: load through the storage API, then the server; the files through its upload
cairn_data=$work/cairn-data
if [ "$load" = 1 ]; then
  step "loading Cairn (fresh database $db; log $work/cairn-load.log)"
  cairn_psql -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db OWNER $db_user"
  rm -rf "$cairn_data"
  "$java" --enable-native-access=ALL-UNNAMED -cp "$bench_jar" dev.cairn.jmh.graph.GraphComparison "$workload" \
    "jdbc:postgresql://$host:$pgport/$db?user=$db_user&password=$db_password" store_bulk,build_trees --no-warmup \
    > "$work/cairn-load.log" 2>&1 || { tail -20 "$work/cairn-load.log" >&2; echo "loading Cairn failed" >&2; exit 1; }
  status=$(rabbit DELETE "vhosts/$vhost"); case "$status" in 204|404) ;; *) echo "deleting vhost: HTTP $status" >&2; exit 1 ;; esac
  status=$(rabbit PUT "vhosts/$vhost"); case "$status" in 201|204) ;; *) echo "creating vhost: HTTP $status" >&2; exit 1 ;; esac
  status=$(rabbit PUT "permissions/$vhost/$amqp_user" '{"configure":".*","write":".*","read":".*"}')
  case "$status" in 201|204) ;; *) echo "permissions on vhost: HTTP $status" >&2; exit 1 ;; esac
fi
gc_log=$work/cairn-gc.log
rm -f "$gc_log"
"$java" -Xmx512m "-Xlog:gc:file=$gc_log" ${CAIRN_JAVA_OPTS:-} -jar "$server_jar" --cairn.roles=api \
  --cairn.database.url="jdbc:postgresql://$host:$pgport/$db?user=$db_user&password=$db_password" \
  --cairn.broker.uri="amqp://$amqp_user:$amqp_password@$amqp_host:$amqp_port/$vhost" \
  --cairn.data-dir="$cairn_data" --server.port="$cairn_port" > "$work/cairn-server.log" 2>&1 &
server_pid=$!
step "Cairn's server (pid $server_pid, -Xmx512m) starting on port $cairn_port (log $work/cairn-server.log)"
for _ in $(seq 1 240); do
  curl -sf -o /dev/null "http://127.0.0.1:$cairn_port/api/v1/server" && curl -sf -o /dev/null "http://127.0.0.1:$peer_port/api/v4/server" && break
  kill -0 "$server_pid" 2>/dev/null || { tail -30 "$work/cairn-server.log" >&2; echo "Cairn's server stopped" >&2; exit 1; }
  kill -0 "$peer_pid" 2>/dev/null || { tail -30 "$work/peer-server.log" >&2; echo "gunicorn stopped" >&2; exit 1; }
  sleep 0.5
done
curl -sf -o /dev/null "http://127.0.0.1:$cairn_port/api/v1/server" || { echo "Cairn's server did not answer in 120 s" >&2; exit 1; }
curl -sf -o /dev/null "http://127.0.0.1:$peer_port/api/v4/server" || { echo "aiida-core's REST API did not answer in 120 s" >&2; exit 1; }
token=$(cat "$cairn_data/admin-token")
auth="Authorization: Bearer $token"
cairn=http://127.0.0.1:$cairn_port/api/v1
peer=http://127.0.0.1:$peer_port/api/v4

if [ "$load" = 1 ]; then
  step "uploading the files to Cairn"
  for name in small big; do
    curl -sf -H "$auth" -H 'Content-Type: application/octet-stream' --data-binary "@$files/$name.bin" \
      "$cairn/nodes/files?name=$name.bin" > "$work/cairn-upload-$name.json"
  done
  echo "$want_stamp" > "$stamp"
fi
# the nodes asked about, on Cairn's side: the same choices load_aiida.py makes
sql() { cairn_psql -d "$db" -tAc "$1"; }
root_index=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["chosen_root_indices"][0])' "$workload/trees.json")
root_id=$(sql "SELECT id FROM node WHERE label = 'tree-root' ORDER BY id OFFSET $root_index LIMIT 1")
"$python" - "$work/cairn-ids.json" \
  "$(sql "SELECT uuid FROM node WHERE label = 'graph-bulk' ORDER BY id OFFSET $structure_index LIMIT 1")" \
  "$(sql "SELECT n.uuid FROM link l JOIN node n ON n.id = l.output_id WHERE l.input_id = $root_id")" \
  "$(sql "SELECT uuid FROM node WHERE id = $root_id")" \
  "$work/cairn-upload-small.json" "$work/cairn-upload-big.json" <<'PY'
import json, sys
out, structure, calc, root, small, big = sys.argv[1:7]
json.dump({'structure': structure, 'calc': calc, 'root': root,
           'small': json.load(open(small))['uuid'], 'big': json.load(open(big))['uuid']}, open(out, 'w'))
PY
cat > "$work/cairn-query.json" <<EOF
{"path": [{"tag": "s", "entity": "node", "node_type": "data.core.structure.StructureData.",
  "filters": {"label": "graph-bulk", "attributes.cell.0.0": {">": $query_cell_above}}, "project": ["uuid"]}]}
EOF
cairn_root=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["root"])' "$work/cairn-ids.json")
# the peer's descendants query names the root by uuid in the body load_aiida.py wrote
uid() { "$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/$1-ids.json" "$2"; }

# endpoint -> "METHOD URL BODY MARKER" for each side (BODY and MARKER "-" for none)
declare -A cairn_req peer_req
cairn_req[node]="GET $cairn/nodes/$(uid cairn structure) - \"kinds\""
peer_req[node]="GET $peer/nodes/$(uid peer structure)?attributes=true - \"kinds\""
cairn_req[page]="GET $cairn/nodes?type=StructureData&order=-ctime&limit=20 - data.core.structure.StructureData."
peer_req[page]="GET $peer/nodes/page/1?node_type=%22data.core.structure.StructureData.%22&orderby=-ctime&perpage=20 - data.core.structure.StructureData."
cairn_req[links]="GET $cairn/nodes/$(uid cairn calc)/links/incoming - input_calc"
peer_req[links]="GET $peer/nodes/$(uid peer calc)/links/incoming - input_calc"
cairn_req[query]="POST $cairn/query?limit=1000 $work/cairn-query.json \"uuid\""
peer_req[query]="POST $peer/querybuilder $work/peer-query.json \"uuid\""
cairn_req[file_1k]="GET $cairn/nodes/$(uid cairn small)/files/small.bin - cairn-api-small"
peer_req[file_1k]="GET $peer/nodes/$(uid peer small)/repo/contents?filename=%22small.bin%22 - cairn-api-small"
cairn_req[file_10m]="GET $cairn/nodes/$(uid cairn big)/files/big.bin - -"
peer_req[file_10m]="GET $peer/nodes/$(uid peer big)/repo/contents?filename=%22big.bin%22 - -"
cairn_req[statistics]="GET $cairn/statistics - data.core.structure.StructureData."
peer_req[statistics]="GET $peer/nodes/statistics - data.core.structure.StructureData."
cairn_req[descendants]="GET $cairn/nodes/$cairn_root/descendants?limit=1000 - tree-d4"
peer_req[descendants]="POST $peer/querybuilder $work/peer-descendants.json tree-d4"

# expectations of both sides: the workload's plus the uuids each side gave the structure
"$python" - "$work/expect-workload.json" "$work/cairn-ids.json" "$work/peer-ids.json" "$work" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
for side, ids in (('cairn', sys.argv[2]), ('peer', sys.argv[3])):
    json.dump({**base, 'structure_uuid': json.load(open(ids))['structure']}, open(f'{sys.argv[4]}/expect-{side}.json', 'w'))
PY

results=$work/results.jsonl
: > "$results"
# load SIDE ENDPOINT CONNECTIONS SECONDS [record]: one wrk run; with "record", its JSON line goes to results
load_run() {
  local side=$1 endpoint=$2 c=$3 s=$4 record=${5:-}
  local spec method url body marker threads=1 out
  if [ "$side" = cairn ]; then spec=${cairn_req[$endpoint]}; else spec=${peer_req[$endpoint]}; fi
  read -r method url body marker <<< "$spec"
  [ "$c" -gt 1 ] && threads=2
  local headers=()
  [ "$side" = cairn ] && headers=(-H "$auth")
  out=$(wrk -t "$threads" -c "$c" -d "${s}s" --timeout 10s "${headers[@]}" -s "$peer_dir/request.lua" "$url" \
    -- "$method" "$body" "$marker" | tail -1)
  "$python" - "$out" "$side" "$endpoint" "$c" <<'PY' || exit 1
import json, os, sys
r = json.loads(sys.argv[1])
bad = r['non2xx'] + r['wrong_body'] + r['status_errors'] + r['socket_errors']
if bad or r['requests'] == 0:
    sys.exit(f"{sys.argv[2]} {sys.argv[3]} at {sys.argv[4]} connections: {r['requests']} requests, {r['non2xx']} not 2xx, "
             f"{r['wrong_body']} without the expected content, {r['socket_errors']} socket errors; first: {r['first_bad']}")
PY
  if [ -n "$record" ]; then
    "$python" -c 'import json, os, sys
r = json.loads(sys.argv[1])
print(json.dumps({"side": sys.argv[2], "endpoint": sys.argv[3], "connections": int(sys.argv[4]),
                  "load_average": round(os.getloadavg()[0], 2), **r}))' "$out" "$side" "$endpoint" "$c" >> "$results"
  fi
}
# settle: waits until neither server uses CPU any more (at most 120 s). A sync worker of gunicorn goes on
# with the requests it accepted after wrk closed their connections, and would load the next run.
cpu_ticks() {
  local total=0 p f
  for p in "$server_pid" "$peer_pid" $(pgrep -P "$peer_pid" 2>/dev/null); do
    [ -r "/proc/$p/stat" ] || continue
    read -ra f < "/proc/$p/stat"
    total=$((total + f[13] + f[14]))
  done
  echo "$total"
}
settle() {
  local before after
  for _ in $(seq 1 240); do
    before=$(cpu_ticks); sleep 0.5; after=$(cpu_ticks)
    [ $((after - before)) -le 2 ] && return 0
  done
  echo "the servers did not go idle in 120 s" >&2
}
# check SIDE ENDPOINT: one request by curl, its status and its content
check_answer() {
  local side=$1 endpoint=$2 spec method url body marker status
  if [ "$side" = cairn ]; then spec=${cairn_req[$endpoint]}; else spec=${peer_req[$endpoint]}; fi
  read -r method url body marker <<< "$spec"
  local args=(-sS -o "$work/answer-$side-$endpoint" -w '%{http_code}' -X "$method")
  [ "$side" = cairn ] && args+=(-H "$auth")
  [ "$body" != - ] && args+=(-H 'Content-Type: application/json' --data-binary "@$body")
  status=$(curl "${args[@]}" "$url")
  [ "$status" = 200 ] || { echo "$side $endpoint: HTTP $status from $method $url: $(head -c 300 "$work/answer-$side-$endpoint")" >&2; exit 1; }
  "$python" "$peer_dir/check_answer.py" "$side" "$endpoint" "$work/answer-$side-$endpoint" "$work/expect-$side.json" || exit 1
}

# a server runs warm (as the graph comparison assumes too): every endpoint once through Cairn before any is
# measured, so that the first one measured does not pay for compiling what the others share
if [ "$warmup" -gt 0 ]; then
  step "warming Cairn's server up: $warmup s of each endpoint"
  for endpoint in ${endpoints//,/ }; do load_run cairn "$endpoint" 16 "$warmup"; done
  settle
fi
step "load average before measuring: $(cut -d' ' -f1-3 /proc/loadavg)"
for endpoint in ${endpoints//,/ }; do
  for side in cairn peer; do
    check_answer "$side" "$endpoint"
    if [ "$warmup" -gt 0 ]; then load_run "$side" "$endpoint" 16 "$warmup"; settle; fi
    for c in $connections; do
      load_run "$side" "$endpoint" "$c" "$seconds" record
      settle
    done
  done
  step "$endpoint measured (load average $(cut -d' ' -f1 /proc/loadavg))"
done

# --- Cairn's heap: the most the server held before a collection, from its GC log
kill -0 "$server_pid" 2>/dev/null || { echo "Cairn's server died during the run (log $work/cairn-server.log)" >&2; exit 1; }
if grep -q OutOfMemoryError "$work/cairn-server.log"; then echo "Cairn's server ran out of memory" >&2; exit 1; fi
"$JAVA_HOME/bin/jcmd" "$server_pid" GC.heap_info > "$work/cairn-heap-info.txt" 2>&1 || true
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
kill "$peer_pid"; wait "$peer_pid" 2>/dev/null || true; peer_pid=""
step "done; raw results in $results"

"$python" - "$results" "$gc_log" <<'PY'
import json, re, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
by = {(r['side'], r['endpoint'], r['connections']): r for r in rows}
print('endpoint connections cairn_rps peer_rps speedup cairn_p99_ms peer_p99_ms')
for (side, endpoint, c), r in by.items():
    if side != 'cairn':
        continue
    p = by.get(('peer', endpoint, c))
    if p is None:
        continue
    print(f"{endpoint} {c} {r['rps']:.1f} {p['rps']:.1f} {r['rps'] / p['rps']:.1f} {r['p99_ms']:.2f} {p['p99_ms']:.2f}")
for (side, endpoint, c), r in by.items():
    if endpoint == 'file_10m':
        print(f"file_10m {side} {c} connections: {r['bytes'] / r['seconds'] / 1e9:.2f} GB/s")
loads = [r['load_average'] for r in rows]
print(f'load average (1 min) at the end of each run: {min(loads)} to {max(loads)}')
peak = max((int(m.group(1)) for m in re.finditer(r'(\d+)M->\d+M\(\d+M\)', open(sys.argv[2]).read())), default=0)
print(f'cairn heap: -Xmx512m, at most {peak} MiB in use before a collection (GC log)')
PY
