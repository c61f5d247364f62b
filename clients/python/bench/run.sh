#!/usr/bin/env bash
# The DataFrame benchmark of cairn-client against aiida-core's QueryBuilder (dataframe_bench.py), or with
# `arrays` first the benchmark of storing and reading NumPy arrays against aiida-core's ArrayData (arrays_bench.py), or
# with `functions` first that of recorded Python functions against aiida-core's calcfunction and workfunction
# (functions_bench.py), with their
# set-up: aiida-core 2.9.4's profile "cairn-client-bench" (storage core.psql_dos on the PostgreSQL at
# $PGHOST:$PGPORT, default 127.0.0.1:5432, role aiida; no broker), made once under $CAIRN_PEERS (default
# /tmp/cairn-peers), its database copied again from its empty template before each run.
#
#   source .ci/python && clients/python/bench/run.sh [--n 10000] [--shape flat|nested|wide|text|lists|mixed] [--keys K1,K2]
#                                                    [--warmup 3] [--repeats 7] [--index] [--json FILE]
#   source .ci/python && clients/python/bench/run.sh arrays [--repeats 5] [--workload one_large|medium|many_small] [--json FILE]
#   source .ci/python && clients/python/bench/run.sh functions [--repeats 5] [--workload calcfunctions|workfunctions] [--json FILE]
#
# Needs the venvs of .ci/python (CAIRN_TEST_CLIENT_PYTHON: cairn-client and pandas; CAIRN_TEST_AIIDA_PYTHON:
# aiida-core) and the server jar (./mvnw -B -ntp -q -pl api -am package -DskipTests).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
: "${CAIRN_TEST_CLIENT_PYTHON:?source .ci/python first: it makes the venvs and exports CAIRN_TEST_CLIENT_PYTHON}"
: "${CAIRN_TEST_AIIDA_PYTHON:?source .ci/python first: it makes the venvs and exports CAIRN_TEST_AIIDA_PYTHON}"

peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$(cd "$(dirname "$CAIRN_TEST_AIIDA_PYTHON")/.." && pwd)
home=$peers/aiida-client-home
repo=$peers/aiida-client-repo
profile=cairn-client-bench
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
# CAIRN_BENCH_DB (with CAIRN_PEERS) gives a run a database of its own, beside another run of the script
role=aiida password=aiidapw db=${CAIRN_BENCH_DB:-aiida_client_bench} template=${CAIRN_BENCH_DB:-aiida_client_bench}_template
version=2.9.4
stamp=$home/.cairn-client-bench-ready
export AIIDA_PATH=$home AIIDA_WARN_v3=0

say() { echo "bench: $*" >&2; }

# shellcheck source=jmh/aiida-peer.sh
source "$root/jmh/aiida-peer.sh"

pg_isready -q -h "$host" -p "$port" || { say "PostgreSQL is not answering at $host:$port"; exit 1; }
ensure_aiida_venv
ensure_aiida_role
ensure_brokerless_profile Client
as_role -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db OWNER $role TEMPLATE $template"

bench=dataframe_bench.py
case "${1:-}" in
  arrays) bench=arrays_bench.py; shift ;;
  functions) bench=functions_bench.py; shift ;;
esac
exec "$CAIRN_TEST_CLIENT_PYTHON" "$here/$bench" --aiida-python "$CAIRN_TEST_AIIDA_PYTHON" "$@"
