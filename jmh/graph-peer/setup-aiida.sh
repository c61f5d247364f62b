#!/usr/bin/env bash
# Sets up aiida-core 2.9.4 as the peer of Cairn's graph comparison, once; later calls only check.
#
#   jmh/graph-peer/setup-aiida.sh        # prints nothing on stdout; progress on stderr
#
# What it leaves (all under $CAIRN_PEERS, default /tmp/cairn-peers):
#   aiida-venv/          virtualenv with aiida-core==2.9.4 from PyPI
#   aiida-graph-home/    AIIDA_PATH: one profile, "cairn-graph", storage core.psql_dos, no message broker
#   aiida-graph-repo/    the profile's file repository (the benchmark writes no files into it)
# and on the PostgreSQL server at $PGHOST:$PGPORT (default 127.0.0.1:5432):
#   role aiida (password aiidapw, CREATEDB), created through the postgres superuser when missing;
#   database aiida_graph_template: the profile's schema and default user, never touched after setup;
#   database aiida_graph: what the profile uses. aiida_graph_bench.py recreates it from the template
#   before each run, so every run starts from the same empty graph.
set -euo pipefail

peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
home=$peers/aiida-graph-home
repo=$peers/aiida-graph-repo
profile=cairn-graph
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
role=aiida password=aiidapw db=aiida_graph template=aiida_graph_template
version=2.9.4
stamp=$home/.cairn-graph-ready
export AIIDA_PATH=$home AIIDA_WARN_v3=0

say() { echo "setup-aiida: $*" >&2; }

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/aiida-peer.sh"

pg_isready -q -h "$host" -p "$port" || { say "PostgreSQL is not answering at $host:$port"; exit 1; }

# --- 1. the virtualenv, 2. the role
ensure_aiida_venv
ensure_aiida_role

# --- 3. the profile and its template database (made once)
ensure_brokerless_profile Graph
