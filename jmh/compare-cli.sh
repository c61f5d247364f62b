#!/usr/bin/env bash
# The command line's start-up beside verdi's (aiida-core 2.9.4), on the same data: each command is
# timed as a whole process, as a person runs it, with hyperfine, and the script prints
#   command cairn_ms verdi_ms speedup
# (medians) for --help, process list, process show, node show and status.
#
#   jmh/compare-cli.sh [--n N] [--active A] [--runs R] [--skip-build]
#
# --n N        finished add_multiply work chains (three processes and four data nodes each; default 300)
# --active A   work chains still created, which `process list` shows by default (default 20)
# --runs R     timed runs of each command (default 20, after 3 untimed)
# --skip-build use api/target/cairn-server.jar and cli/target/cairn as they are
#
# Cairn: the server jar (roles api and worker, then api alone so the last A launches stay created) on
# PostgreSQL and RabbitMQ (database cairn_compare_cli, vhost cairn-compare-cli), N launches through
# POST /api/v1/processes/batch; `cairn` is the launcher the build made (cli/target/cairn/bin/cairn) with
# its AOT cache. aiida-core: its profile `cairn-cli` on database aiida_compare_cli with RabbitMQ as its
# broker (verdi's set-up finds it at 127.0.0.1:5672 with its default account), the same graph stored by its ORM (jmh/cli-peer/load_aiida.py); `verdi` from its virtualenv.
# Raw results: $CAIRN_COMPARE_CLI_DIR (default /tmp/cairn-compare-cli): hyperfine's JSON per command,
# the server's log. Needs PostgreSQL, RabbitMQ (source .ci/services) and hyperfine (apt-get install hyperfine).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=${CAIRN_COMPARE_CLI_DIR:-/tmp/cairn-compare-cli}
peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv version=2.9.4
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
role=${CAIRN_DB_USER:-cairn} password=${CAIRN_DB_PASSWORD:-cairn}
db=cairn_compare_cli peer_db=aiida_compare_cli profile=cairn-cli
amqp_host=${CAIRN_AMQP_HOST:-127.0.0.1} amqp_port=${CAIRN_AMQP_PORT:-5672}
amqp_user=${CAIRN_AMQP_USER:-cairn} amqp_password=${CAIRN_AMQP_PASSWORD:-cairn}
management=${CAIRN_AMQP_MANAGEMENT:-http://$amqp_host:15672}
vhost=cairn-compare-cli
cairn_port=${CAIRN_COMPARE_CLI_PORT:-18495}

n=300 active=20 runs=20 build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --n) n=$2; shift 2 ;;
    --active) active=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --skip-build) build=0; shift ;;
    *) echo "unknown option $1 (see the head of $0)" >&2; exit 2 ;;
  esac
done

# shellcheck source=jmh/bench-env.sh
source "$here/bench-env.sh"
say() { step "$@"; }
# shellcheck source=jmh/aiida-peer.sh
source "$here/aiida-peer.sh"
command -v hyperfine >/dev/null || { echo "needs hyperfine (Debian: apt-get install -y hyperfine)" >&2; exit 1; }
require_services "$host" "$port"
use_jdk21
java=$JAVA_HOME/bin/java
server_jar=$root/api/target/cairn-server.jar
cairn_cli=$root/cli/target/cairn/bin/cairn
if [ "$build" = 1 ] || [ ! -f "$server_jar" ] || [ ! -x "$cairn_cli" ]; then
  step "building the server jar and the command line (JDK $JAVA_HOME)"
  (cd "$root" && ./mvnw -q -B -ntp -pl api,cli -am package -DskipTests) >&2
fi
mkdir -p "$work"
server_pid=""
# the server ends by the signal, so wait returns 143, which must not become the script's exit code (set -e)
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && { wait "$server_pid" 2>/dev/null || true; }; true; }
trap cleanup EXIT

# --- Cairn: a fresh database and vhost, N work chains run, A left created
as_role -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db OWNER $role"
for method in DELETE PUT; do rabbit "$method" "vhosts/$vhost" >/dev/null; done
rabbit PUT "permissions/$vhost/$amqp_user" '{"configure":".*","write":".*","read":".*"}' >/dev/null
data=$work/cairn-data
rm -rf "$data"
start_server() { # $1: roles
  "$java" -Xmx512m -jar "$server_jar" --cairn.roles="$1" \
    --cairn.database.url="jdbc:postgresql://$host:$port/$db?user=$role&password=$password" \
    --cairn.broker.uri="amqp://$amqp_user:$amqp_password@$amqp_host:$amqp_port/$vhost" \
    --cairn.data-dir="$data" --server.port="$cairn_port" >>"$work/cairn-server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 240); do
    curl -sf -o /dev/null "http://127.0.0.1:$cairn_port/api/v1/server" && return 0
    kill -0 "$server_pid" 2>/dev/null || { tail -30 "$work/cairn-server.log" >&2; echo "Cairn's server stopped" >&2; exit 1; }
    sleep 0.5
  done
  echo "Cairn's server did not answer in 120 s" >&2; exit 1
}
stop_server() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""; }
batch() { # $1: first x, $2: count
  "$root/jmh/cli-peer/launches.sh" "$1" "$2" | curl -sf -H "Authorization: Bearer $(cat "$data/admin-token")" \
    -H 'Content-Type: application/json' --data-binary @- "http://127.0.0.1:$cairn_port/api/v1/processes/batch" >/dev/null
}
: >"$work/cairn-server.log"
step "Cairn: $n work chains run by its server"
start_server api,worker
for ((x = 0; x < n; x += 500)); do batch "$x" $((n - x < 500 ? n - x : 500)); done
for _ in $(seq 1 600); do
  live=$(curl -sf -H "Authorization: Bearer $(cat "$data/admin-token")" "http://127.0.0.1:$cairn_port/api/v1/statistics" |
    "$venv/bin/python" -c 'import json,sys; s=json.load(sys.stdin); print(sum(v for k,v in s.get("processStates",{}).items() if k in ("created","waiting","running")))' 2>/dev/null || echo 1)
  [ "$live" = 0 ] && break
  sleep 1
done
stop_server
step "Cairn: $active work chains left created (the API alone, no worker)"
start_server api
batch "$n" "$active"
export CAIRN_URL=http://127.0.0.1:$cairn_port CAIRN_TOKEN=$(cat "$data/admin-token") CAIRN_CONFIG_DIR=$work/cairn-config NO_COLOR=1
# the middle finished work chain and its result, by PK as people name them (cairn resolves a PK with one query)
pick=$("$cairn_cli" process list -a --type arithmetic.add_multiply --limit $((n + active)) --json | "$venv/bin/python" -c "
import json, sys
chains = sorted((p for p in json.load(sys.stdin) if p['state'] == 'finished' and p['caller'] is None), key=lambda p: p['ctime'])
print(chains[len(chains) // 2]['uuid'])")
cairn_process=$("$cairn_cli" node show "$pick" --json | "$venv/bin/python" -c 'import json,sys; n=json.load(sys.stdin); n=n[0] if isinstance(n, list) else n; print(n["pk"])')
result=$("$cairn_cli" process show "$pick" --json | "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["outputs"]["result"]["uuid"])')
cairn_node=$("$cairn_cli" node show "$result" --json | "$venv/bin/python" -c 'import json,sys; n=json.load(sys.stdin); n=n[0] if isinstance(n, list) else n; print(n["pk"])')
step "Cairn: process $cairn_process, node $cairn_node"

# --- aiida-core: the same graph in a profile with RabbitMQ as its broker
step "aiida-core $version: profile $profile, the same graph"
ensure_aiida_venv
ensure_aiida_role
export AIIDA_PATH=$work/aiida-home AIIDA_WARN_v3=0
rm -rf "$AIIDA_PATH" "$work/aiida-repo"
mkdir -p "$AIIDA_PATH"
as_role -d postgres -c "DROP DATABASE IF EXISTS $peer_db WITH (FORCE)" -c "CREATE DATABASE $peer_db OWNER $role"
"$venv/bin/verdi" profile setup core.psql_dos -n -p "$profile" --set-as-default --email cli-bench@example.com \
  --first-name Cli --last-name Bench --institution Cairn --broker core.rabbitmq \
  --database-hostname "$host" --database-port "$port" --database-username "$role" --database-password "$password" \
  --database-name "$peer_db" --repository-uri "file://$work/aiida-repo" >&2
pks=$("$venv/bin/python" "$here/cli-peer/load_aiida.py" "$profile" "$n" "$active")
verdi_process=$(echo "$pks" | "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["process"])')
verdi_node=$(echo "$pks" | "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["node"])')

# --- the timings
step "timing (hyperfine, $runs runs after 3)"
time_pair() { # $1: name, $2: cairn command, $3: verdi command
  hyperfine -N --warmup 3 --runs "$runs" --ignore-failure --export-json "$work/$1.json" \
    -n cairn "$2" -n verdi "$3" >"$work/$1.txt" 2>&1
  "$venv/bin/python" - "$work/$1.json" "$1" <<'PY'
import json, sys
results = {r['command']: r for r in json.load(open(sys.argv[1]))['results']}
c, v = results['cairn']['median'] * 1000, results['verdi']['median'] * 1000
print(f"{sys.argv[2]:<14} {c:8.1f} {v:9.1f} {v / c:7.1f}")
PY
}
verdi=$venv/bin/verdi
echo "command        cairn_ms  verdi_ms speedup"
time_pair help "$cairn_cli --help" "$verdi --help"
time_pair process_list "$cairn_cli process list" "$verdi process list"
time_pair process_show "$cairn_cli process show $cairn_process" "$verdi process show $verdi_process"
time_pair node_show "$cairn_cli node show $cairn_node" "$verdi node show $verdi_node"
time_pair status "$cairn_cli status" "$verdi status"
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg); raw results in $work"
