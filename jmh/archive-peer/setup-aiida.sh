#!/usr/bin/env bash
# Sets up aiida-core 2.9.4 as the peer of Cairn's archive comparison, once; later calls only check.
#
#   jmh/archive-peer/setup-aiida.sh        # prints nothing on stdout; progress on stderr
#
# Two broker-less profiles, each in an AIIDA_PATH of its own (so each phase runs in a fresh Python
# process, as `verdi archive create` and `verdi archive import` would), all under $CAIRN_PEERS
# (default /tmp/cairn-peers):
#   aiida-venv/                       virtualenv with aiida-core==2.9.4 (shared with the graph comparison)
#   aiida-archive-src-home/           profile cairn-archive-src: the graph is loaded there and exported
#   aiida-archive-dst-home/           profile cairn-archive-dst: the archives are imported there
#   aiida-archive-{src,dst}-repo/     their file repositories, and beside each a copy of it as made
#                                     (.template), which aiida_archive_bench.py puts back before a run
# and on the PostgreSQL server at $PGHOST:$PGPORT: role aiida (as the graph comparison's), databases
# aiida_archive_{src,dst} and their templates (the schema and the default user, no nodes).
set -euo pipefail

peers=${CAIRN_PEERS:-/tmp/cairn-peers}
venv=$peers/aiida-venv
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}
role=aiida password=aiidapw
version=2.9.4
export AIIDA_WARN_v3=0

say() { echo "setup-aiida: $*" >&2; }

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/aiida-peer.sh"

pg_isready -q -h "$host" -p "$port" || { say "PostgreSQL is not answering at $host:$port"; exit 1; }

ensure_aiida_venv
ensure_aiida_role

for side in src dst; do
  home=$peers/aiida-archive-$side-home
  repo=$peers/aiida-archive-$side-repo
  profile=cairn-archive-$side
  db=aiida_archive_$side template=aiida_archive_${side}_template
  stamp=$home/.cairn-archive-ready
  export AIIDA_PATH=$home
  ensure_brokerless_profile "Archive-$side"
  # the empty repository as the profile made it: its container id is the one the template database names
  if [ ! -f "$repo.template/.made-with" ] || [ "$repo.template/.made-with" -ot "$stamp" ]; then
    say "keeping the empty repository of $profile as $repo.template"
    rm -rf "$repo.template"
    cp -a "$repo" "$repo.template"
    cp "$stamp" "$repo.template/.made-with"
  fi
done
