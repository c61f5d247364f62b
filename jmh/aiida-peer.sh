# shellcheck shell=bash
# What the aiida-core peer set-ups share (graph-peer/setup-aiida.sh, engine-peer/setup-aiida-engine.sh):
# psql as the profile's role and as the server's superuser, the virtualenv with aiida-core, and the role.
# Sourced after the caller set host, port, role, password, venv and version and defined say().

# psql as the aiida role over TCP (what the profile uses); -X ignores any ~/.psqlrc
as_role() { PGPASSWORD=$password PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 -h "$host" -p "$port" -U "$role" "$@"; }

# psql as the server's superuser, for the one thing the aiida role cannot do itself: exist
as_superuser() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -c "psql -X -q -v ON_ERROR_STOP=1 -p $port $(printf '%q ' "$@")"
  elif command -v sudo >/dev/null && sudo -n -u postgres true 2>/dev/null; then
    sudo -n -u postgres psql -X -q -v ON_ERROR_STOP=1 -p "$port" "$@"
  else
    say "role $role is missing and there is no way to reach the postgres superuser (run as root, or create it:"
    say "  CREATE ROLE $role LOGIN CREATEDB PASSWORD '$password')"
    return 1
  fi
}

# the virtualenv with aiida-core==$version, installed from PyPI when missing or of another version
ensure_aiida_venv() {
  if ! "$venv/bin/python" -c "import aiida, sys; sys.exit(aiida.__version__ != '$version')" 2>/dev/null; then
    say "installing aiida-core==$version into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "aiida-core==$version" >&2
  fi
}

# the PostgreSQL role, created (or given its password back) through the superuser when it cannot log in
ensure_aiida_role() {
  if ! as_role -d postgres -tAc 'SELECT 1' >/dev/null 2>&1; then
    say "creating PostgreSQL role $role"
    as_superuser -d postgres -c "DO \$\$BEGIN
      IF EXISTS (SELECT FROM pg_roles WHERE rolname = '$role') THEN
        ALTER ROLE $role LOGIN CREATEDB PASSWORD '$password';
      ELSE
        CREATE ROLE $role LOGIN CREATEDB PASSWORD '$password';
      END IF; END\$\$;"
  fi
}

# the broker-less profile $profile on database $db with its template $template (the initialised schema
# and default user, no nodes), made once; returns at once when the stamp, both databases, the repository
# and the profile are there. $1: the bench user's first name (its email is <first name>-bench@example.com)
ensure_brokerless_profile() {
  local name=$1 have_dbs
  have_dbs=$(as_role -d postgres -tAc "SELECT count(*) FROM pg_database WHERE datname IN ('$db', '$template')")
  # the stamp names the databases: a run with another CAIRN_BENCH_DB made the profile point at its own
  if [ "$(cat "$stamp" 2>/dev/null)" = "$version $profile $db $template" ] && [ "$have_dbs" = 2 ] && [ -d "$repo" ] \
     && "$venv/bin/python" - "$home/.aiida/config.json" "$profile" <<'PY' 2>/dev/null
import json, sys
config = json.load(open(sys.argv[1]))
sys.exit(sys.argv[2] not in config.get('profiles', {}))
PY
  then
    return 0
  fi
  say "creating profile $profile (database $db on $host:$port, no broker)"
  rm -rf "$home" "$repo" "$stamp"
  mkdir -p "$home"
  as_role -d postgres -c "DROP DATABASE IF EXISTS $template" -c "DROP DATABASE IF EXISTS $db" \
    -c "CREATE DATABASE $db OWNER $role ENCODING 'UTF8' TEMPLATE template0"
  "$venv/bin/verdi" profile setup core.psql_dos -n -p "$profile" --set-as-default \
    --email "$(echo "$name" | tr '[:upper:]' '[:lower:]')-bench@example.com" --first-name "$name" \
    --last-name Bench --institution Cairn --broker none \
    --database-hostname "$host" --database-port "$port" --database-username "$role" --database-password "$password" \
    --database-name "$db" --repository-uri "file://$repo" >&2
  as_role -d postgres -c "CREATE DATABASE $template OWNER $role TEMPLATE $db"
  echo "$version $profile $db $template" > "$stamp"
  say "ready"
}
