#!/usr/bin/env bash
# The body of POST /api/v1/processes/batch for compare-cli.sh: $2 add_multiply work chains with
# x = $1 .. $1+$2-1, y = 1, z = 2 (the graph jmh/cli-peer/load_aiida.py stores in aiida-core).
set -euo pipefail
first=$1 count=$2
printf '{"launches":['
for ((i = 0; i < count; i++)); do
  ((i > 0)) && printf ','
  printf '{"entry_point":"arithmetic.add_multiply","inputs":{"x":%d,"y":1,"z":2}}' $((first + i))
done
printf ']}'
