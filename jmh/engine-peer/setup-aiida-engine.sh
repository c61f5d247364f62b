#!/usr/bin/env bash
# Sets up aiida-core 2.9.4 with its daemon as the peer of Cairn's engine comparison, once; later calls
# only check.
#
#   jmh/engine-peer/setup-aiida-engine.sh        # prints nothing on stdout; progress on stderr
#
# What it leaves (all under $CAIRN_PEERS, default /tmp/cairn-peers):
#   aiida-venv/           virtualenv with aiida-core==2.9.4 from PyPI (shared with jmh/graph-peer/)
#   aiida-engine-home/    AIIDA_PATH: one profile, "cairn-engine", storage core.psql_dos, broker
#                         core.rabbitmq; daemon.worker_process_slots 1000, warnings.rabbitmq_version
#                         False, caching off; the daemon's log is in .aiida/daemon/log/ there
#   aiida-engine-repo/    the profile's file repository (calcfunctions store their source file there)
# on the PostgreSQL server at $PGHOST:$PGPORT (default 127.0.0.1:5432):
#   role aiida (password aiidapw, CREATEDB), created through the postgres superuser when missing;
#   database aiida_engine_template: the profile's schema and default user, never touched after setup;
#   database aiida_engine: what the profile uses. aiida_engine_bench.py recreates it from the template
#   before each run (daemon stopped), so every run starts with no processes at all.
# and on the RabbitMQ server (AMQP $AIIDA_ENGINE_AMQP_HOST:5672, management API on port 15672, user
# cairn/cairn as .ci/services creates it): the virtual host aiida-engine, user cairn allowed everything
# there. aiida_engine_bench.py deletes and recreates it before each run as well.
#
# RabbitMQ must be up (`source .ci/services`). Its consumer_timeout (30 min by default) must exceed the
# longest run: aiida-core acknowledges a task only when its process terminates.
set -euo pipefail

peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
home=$peers/aiida-engine-home
repo=$peers/aiida-engine-repo
profile=cairn-engine
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
role=aiida password=aiidapw db=aiida_engine template=aiida_engine_template
amqp_host=${AIIDA_ENGINE_AMQP_HOST:-127.0.0.1} amqp_port=${AIIDA_ENGINE_AMQP_PORT:-5672}
amqp_user=${AIIDA_ENGINE_AMQP_USER:-cairn} amqp_password=${AIIDA_ENGINE_AMQP_PASSWORD:-cairn}
management=${AIIDA_ENGINE_AMQP_MANAGEMENT:-http://$amqp_host:15672}
vhost=aiida-engine
version=2.9.4
stamp=$home/.cairn-engine-ready
export AIIDA_PATH=$home AIIDA_WARN_v3=0

say() { echo "setup-aiida-engine: $*" >&2; }

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/aiida-peer.sh"

# the RabbitMQ management API as $amqp_user: rabbit METHOD PATH [JSON]; prints the HTTP status
rabbit() {
  curl -sS -o /dev/null -w '%{http_code}' --max-time 20 -u "$amqp_user:$amqp_password" -X "$1" \
    -H 'content-type: application/json' ${3:+--data "$3"} "$management/api/$2"
}

pg_isready -q -h "$host" -p "$port" || { say "PostgreSQL is not answering at $host:$port (source .ci/services)"; exit 1; }
[ "$(rabbit GET overview)" = 200 ] \
  || { say "the RabbitMQ management API does not answer at $management as $amqp_user (source .ci/services)"; exit 1; }

# --- 1. the virtualenv, 2. the role
ensure_aiida_venv
ensure_aiida_role

# --- 3. the virtual host (the benchmark recreates it before each run; here it only has to exist)
if [ "$(rabbit GET "permissions/$vhost/$amqp_user")" != 200 ]; then
  say "creating RabbitMQ virtual host $vhost for user $amqp_user"
  status=$(rabbit PUT "vhosts/$vhost")
  case "$status" in 201|204) ;; *) say "creating vhost $vhost: HTTP $status"; exit 1 ;; esac
  status=$(rabbit PUT "permissions/$vhost/$amqp_user" '{"configure":".*","write":".*","read":".*"}')
  case "$status" in 201|204) ;; *) say "permissions on $vhost: HTTP $status"; exit 1 ;; esac
fi

# --- 4. the profile and its template database; quick exit when both are there
have_dbs=$(as_role -d postgres -tAc "SELECT count(*) FROM pg_database WHERE datname IN ('$db', '$template')")
if [ -f "$stamp" ] && [ "$have_dbs" = 2 ] && [ -d "$repo" ] \
   && "$venv/bin/python" - "$home/.aiida/config.json" "$profile" <<'PY' 2>/dev/null
import json, sys
config = json.load(open(sys.argv[1]))
profile = config.get('profiles', {})[sys.argv[2]]
sys.exit(profile['process_control']['backend'] != 'core.rabbitmq')
PY
then
  exit 0
fi

say "creating profile $profile (database $db on $host:$port, broker vhost $vhost on $amqp_host:$amqp_port)"
if [ -f "$home/.aiida/config.json" ]; then
  # a daemon of a half-made earlier profile would keep the database open
  "$venv/bin/verdi" -p "$profile" daemon stop >/dev/null 2>&1 || true
fi
rm -rf "$home" "$repo" "$stamp"
mkdir -p "$home"
as_role -d postgres -c "DROP DATABASE IF EXISTS $template" -c "DROP DATABASE IF EXISTS $db" \
  -c "CREATE DATABASE $db OWNER $role ENCODING 'UTF8' TEMPLATE template0"
# verdi profile setup of 2.9.4 has no --broker-* options (it probes guest@localhost); the broker is
# configured right after, and configure-broker -n refuses parameters it cannot connect with
"$venv/bin/verdi" profile setup core.psql_dos -n -p "$profile" --set-as-default \
  --email engine-bench@example.com --first-name Engine --last-name Bench --institution Cairn --broker none \
  --database-hostname "$host" --database-port "$port" --database-username "$role" --database-password "$password" \
  --database-name "$db" --repository-uri "file://$repo" >&2
"$venv/bin/verdi" profile configure-broker core.rabbitmq -n "$profile" --broker-protocol amqp \
  --broker-username "$amqp_user" --broker-password "$amqp_password" --broker-host "$amqp_host" \
  --broker-port "$amqp_port" --broker-virtual-host "$vhost" >&2
"$venv/bin/verdi" -p "$profile" config set daemon.worker_process_slots 1000 >&2
"$venv/bin/verdi" -p "$profile" config set warnings.rabbitmq_version False >&2
"$venv/bin/verdi" -p "$profile" config set caching.default_enabled False >&2
# the template: the initialised schema with the default user, and no nodes
as_role -d postgres -c "CREATE DATABASE $template OWNER $role TEMPLATE $db"
echo "$version $profile $db $template $vhost" > "$stamp"
say "ready"
