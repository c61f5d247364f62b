#!/usr/bin/env bash
# Sets up aiida-core 2.9.4 with its REST API as the peer of Cairn's API comparison, once; later calls only check.
#
#   jmh/api-peer/setup-aiida-api.sh        # prints nothing on stdout; progress on stderr
#
# What it leaves (all under $CAIRN_PEERS, default /tmp/cairn-peers):
#   aiida-venv/        virtualenv with aiida-core==2.9.4 (shared with the other comparisons), here also
#                      with its `rest` extra (Flask, Flask-RESTful, ...) and gunicorn, from PyPI
#   aiida-api-home/    AIIDA_PATH: one profile, "cairn-api", storage core.psql_dos, no message broker
#   aiida-api-repo/    the profile's file repository (a disk-objectstore container)
# and on the PostgreSQL server at $PGHOST:$PGPORT (default 127.0.0.1:5432):
#   role aiida (password aiidapw, CREATEDB), created through the postgres superuser when missing;
#   database aiida_api_template: the profile's schema and default user, never touched after setup;
#   database aiida_api: what the profile uses; load_aiida.py recreates it from the template.
set -euo pipefail

peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
home=$peers/aiida-api-home
repo=$peers/aiida-api-repo
profile=cairn-api
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
role=aiida password=aiidapw db=aiida_api template=aiida_api_template
version=2.9.4
stamp=$home/.cairn-api-ready
export AIIDA_PATH=$home AIIDA_WARN_v3=0

say() { echo "setup-aiida-api: $*" >&2; }

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/aiida-peer.sh"

pg_isready -q -h "$host" -p "$port" || { say "PostgreSQL is not answering at $host:$port"; exit 1; }

# --- 1. the virtualenv with the REST API's extra and a WSGI server, 2. the role
ensure_aiida_venv
if ! "$venv/bin/python" -c 'import flask_restful, gunicorn, aiida.restapi.run_api' 2>/dev/null; then
  say "installing aiida-core[rest]==$version and gunicorn into $venv"
  "$venv/bin/pip" install -q "aiida-core[rest]==$version" gunicorn >&2
fi
ensure_aiida_role

# --- 3. the profile and its template database (made once)
ensure_brokerless_profile Api
