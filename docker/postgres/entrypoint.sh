#!/bin/bash
# Makes the cluster at the first start (its superuser POSTGRES_USER with POSTGRES_PASSWORD, a database
# POSTGRES_DB), then runs PostgreSQL in the foreground, listening on every address of the container.
set -euo pipefail
if [[ -n ${POSTGRES_PASSWORD_FILE:-} ]]; then
  POSTGRES_PASSWORD=$(<"$POSTGRES_PASSWORD_FILE")
fi
user=${POSTGRES_USER:-postgres}
if [[ ! -s $PGDATA/PG_VERSION ]]; then
  [[ -n ${POSTGRES_PASSWORD:-} ]] || { echo 'postgres: set POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE)' >&2; exit 2; }
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C >/dev/null
  rm -f "$pwfile"
  printf '%s\n' "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  printf '%s\n' 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [[ -n ${POSTGRES_DB:-} && $POSTGRES_DB != postgres ]]; then # initdb made only postgres
    postgres --single -D "$PGDATA" -E postgres <<<"CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$user\";" >/dev/null
  fi
  echo "postgres: made the cluster in $PGDATA (user $user${POSTGRES_DB:+, database $POSTGRES_DB})"
fi
exec postgres -D "$PGDATA" "$@"
