#!/usr/bin/env bash
# What marking removed working folders costs (RemoteWorkdirs.markRemoved, the statement run for each batch of
# folders that cleanworkdir removes), on the real schema: the migrations applied with psql to a scratch
# database, then N calculation jobs with their RemoteData spread over computers. Times the statement before
# V22 (the reference: it found its rows by computer) and today's, alternately in one run, rolled back each time.
#
#   jmh/remote-marking.sh [--jobs N] [--computers C] [--paths P] [--runs R]
#
# N jobs (default 100000), on C computers (default 1), P folders a batch (default 100), R runs a side (default 7).
# Connects as psql does (PGHOST, PGUSER, PGPASSWORD; default the CI's cairn/cairn on 127.0.0.1).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
jobs=100000 computers=1 paths=100 runs=7
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs=$2; shift 2 ;;
    --computers) computers=$2; shift 2 ;;
    --paths) paths=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for v in "$jobs" "$computers" "$paths" "$runs"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "--jobs, --computers, --paths and --runs take a positive whole number, got '$v'" >&2; exit 2; }
done
(( paths <= jobs )) || { echo "--paths ($paths) must not exceed --jobs ($jobs)" >&2; exit 2; }
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-cairn} PGPASSWORD=${PGPASSWORD:-cairn}
pg_isready -q || { echo "PostgreSQL is not answering at $PGHOST (source .ci/services)" >&2; exit 1; }
db=cairn_remote_marking
psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>&1 | grep -v "does not exist, skipping" || true
trap 'psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
for f in $(ls "$here"/../storage/src/main/resources/db/migration/V*.sql | sort -V); do
  psql -qX -1 -v ON_ERROR_STOP=1 -d "$db" -f "$f" >/dev/null  # as Flyway: one transaction a file
done

psql -qX -v ON_ERROR_STOP=1 -d "$db" >/dev/null <<SQL
INSERT INTO app_user (email) VALUES ('bench@localhost');
INSERT INTO computer (uuid, label, hostname, transport_type, scheduler_type)
SELECT gen_random_uuid(), 'c' || c, 'localhost', 'core.local', 'core.direct' FROM generate_series(1, $computers) c;
-- job j on computer 1 + j % C, its folder /scratch/<j>; its RemoteData right after it
INSERT INTO node (id, uuid, node_type, process_type, ctime, mtime, user_id, computer_id, attributes)
SELECT 2 * j + k, gen_random_uuid(),
       CASE k WHEN 0 THEN 'process.calculation.calcjob.CalcJobNode.' ELSE 'data.core.remote.RemoteData.' END,
       CASE k WHEN 0 THEN 'core.shell' END, now(), now(), 1, 1 + j % $computers,
       CASE k WHEN 0 THEN jsonb_build_object('remote_workdir', '/scratch/' || j, 'process_state', 'finished',
                                             'exit_status', 0)
              ELSE jsonb_build_object('remote_path', '/scratch/' || j) END
FROM generate_series(1, $jobs) j, generate_series(0, 1) k;
INSERT INTO link (input_id, output_id, type, label) SELECT 2 * j, 2 * j + 1, 'create', 'remote_folder'
FROM generate_series(1, $jobs) j;
ANALYZE node, link;
SQL

# the folders of one batch: P jobs of computer 1, from the middle of its jobs
folders=$(psql -qtAX -d "$db" -c "SELECT '{' || string_agg(attributes ->> 'remote_workdir', ',') || '}' FROM (
  SELECT attributes FROM node WHERE node_type = 'process.calculation.calcjob.CalcJobNode.' AND computer_id = 1
  ORDER BY id OFFSET (SELECT count(*) / 2 FROM node WHERE computer_id = 1 AND node_type LIKE 'process.%') LIMIT $paths) f")
marked='UPDATE node SET extras = extras || '"'"'{"cleaned": true}'"'"'
        WHERE node_type = '"'"'data.core.remote.RemoteData.'"'"' AND computer_id = $1 AND attributes ->> '"'"'remote_path'"'"' = ANY ($2)
        RETURNING id'
invalid='n.extras || '"'"'{"_cairn_valid_cache": false, "_cairn_invalid_cache_reason": "its work directory was cleaned"}'"'"''
job="'process.calculation.calcjob.CalcJobNode.'"
before="WITH marked AS ($marked)
  UPDATE node n SET extras = $invalid WHERE n.node_type = $job
    AND (n.id IN (SELECT l.input_id FROM link l JOIN marked m ON m.id = l.output_id WHERE l.type = 'create')
         OR (n.computer_id = \$1 AND n.attributes ->> 'remote_workdir' = ANY (\$2)))"
# today's statement, as RemoteWorkdirs.MARK writes it (keep the two alike)
after="WITH marked AS ($marked)
  UPDATE node n SET extras = $invalid WHERE n.node_type = $job
    AND n.id = ANY (ARRAY(
        SELECT l.input_id FROM link l WHERE l.output_id = ANY (ARRAY(SELECT id FROM marked)) AND l.type = 'create'
        UNION
        SELECT j.id FROM node j WHERE j.node_type = $job AND j.computer_id = \$1 AND j.attributes ->> 'remote_workdir' = ANY (\$2)))"
# before V22: without its indexes
script="PREPARE before(bigint, text[]) AS $before; PREPARE after(bigint, text[]) AS $after;"
for ((run = 1; run <= runs; run++)); do
  script+="
BEGIN; DROP INDEX node_remote_path_idx; DROP INDEX node_remote_workdir_idx; \\timing on
EXECUTE before(1, '$folders'); \\timing off
ROLLBACK; BEGIN; \\timing on
EXECUTE after(1, '$folders'); \\timing off
ROLLBACK;"
done
times=$(psql -qX -v ON_ERROR_STOP=1 -d "$db" <<<"$script" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
echo "$times" | awk -v jobs="$jobs" -v c="$computers" -v p="$paths" '
  { if (NR % 2) b[++n] = $1; else a[n] = $1 }
  function median(x, k,   s, i, j, t) { for (i = 1; i <= k; i++) s[i] = x[i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
    return k % 2 ? s[(k + 1) / 2] : (s[k / 2] + s[k / 2 + 1]) / 2 }
  END { mb = median(b, n); ma = median(a, n)
    printf "%d jobs on %d computer(s), a batch of %d folders, medians of %d: before V22 %.1f ms, now %.1f ms, %.1fx\n", jobs, c, p, n, mb, ma, mb / ma }'
