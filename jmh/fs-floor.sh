#!/usr/bin/env bash
# The file system's own cost for loose objects, measured in C with no store around it: the floor under
# the loose_write and clean_storage phases of compare-objectstore.sh. Needs gcc.
#
#   jmh/fs-floor.sh [--objects N] [--runs R] [--dir DIR]
#
# Writes N objects (default 10000) the way a durable loose write must (create, write, fdatasync, rename,
# fsync of the shard folder), then unlinks N synced files on 1 and on 32 threads; R runs (default 3), in
# DIR (default /tmp/cairn-compare, where the comparison runs).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
objects=10000 runs=3 dir=${CAIRN_COMPARE_DIR:-/tmp/cairn-compare}
while [ $# -gt 0 ]; do
  case "$1" in
    --objects) objects=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for v in "$objects" "$runs"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "--objects and --runs take a positive whole number, got '$v'" >&2; exit 2; }
done
command -v gcc >/dev/null || { echo "needs gcc (apt-get install gcc)" >&2; exit 1; }

mkdir -p "$dir"
bin="$dir/fs_floor"
gcc -O2 -pthread -o "$bin" "$here/src/main/c/fs_floor.c"
scratch="$dir/fs-floor-scratch"
trap 'rm -rf "$scratch"' EXIT
for ((run = 1; run <= runs; run++)); do
  for args in "write $objects" "unlink $objects 1" "unlink $objects 32"; do
    rm -rf "$scratch" && mkdir -p "$scratch"
    (cd "$scratch" && "$bin" $args)
  done
done
