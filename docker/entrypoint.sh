#!/bin/bash
# The entry point of Cairn's server image, and the command the systemd units run (/opt/cairn/bin/cairn-server).
#   (no argument, or --cairn.x=y settings)  the server, its roles from CAIRN_ROLES: api, worker, or api,worker
#   migrate                                   bring the database schema up to date and exit (nothing else starts)
#   health                                    exit 0 when the server's readiness is UP (the image's HEALTHCHECK)
# Settings come from the environment (CAIRN_DATABASE_URL, CAIRN_BROKER_URI, ...); a secret may come from a file
# instead: CAIRN_X_FILE=/run/secrets/x sets CAIRN_X to the file's content (its last newline dropped).
set -euo pipefail

fail() {
  printf 'cairn: %s\n' "$*" >&2
  exit 2
}

if [[ ${1:-} == health ]]; then
  # GET /actuator/health/readiness over bash's /dev/tcp, as the image has no curl
  exec 3<>"/dev/tcp/127.0.0.1/${CAIRN_PORT:-8080}" 2>/dev/null || exit 1
  printf 'GET /actuator/health/readiness HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
  IFS=' ' read -r _ status _ <&3 || exit 1
  [[ $status == 200 ]]
  exit
fi

# CAIRN_SECURITY_TOKEN_FILE is a setting of its own (where the first start writes the admin token)
for name in $(compgen -e); do
  [[ $name == CAIRN_*_FILE && $name != CAIRN_SECURITY_TOKEN_FILE ]] || continue
  target=${name%_FILE}
  [[ -z ${!target:-} ]] || fail "both $target and $name are set; give one"
  [[ -r ${!name} ]] || fail "$name: cannot read ${!name}"
  value=$(<"${!name}")
  export "$target=$value"
  unset "$name"
done

roles=${CAIRN_ROLES:-api,worker}
[[ $roles == both ]] && roles=api,worker
IFS=, read -r -a given <<<"$roles"
for role in "${given[@]}"; do
  [[ $role == api || $role == worker ]] || fail "CAIRN_ROLES: '$role' is not a role; the roles are api and worker (CAIRN_ROLES=api,worker for both)"
done
export CAIRN_ROLES=$roles

# the image has no PostgreSQL of its own (the embedded mode's binaries are left out), and a service needs one
# its hosts share: say so before Java starts
if [[ -z ${CAIRN_DATABASE_URL:-} && " $* " != *" --cairn.database.url="* ]]; then
  fail "CAIRN_DATABASE_URL is not set: the server started so uses an external PostgreSQL (jdbc:postgresql://host:5432/cairn)"
fi

if [[ ${1:-} == migrate ]]; then
  shift
  set -- --cairn.migrate-only=true "$@"
fi

# shellcheck disable=SC2086 # JAVA_OPTS holds several options
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" ${JAVA_OPTS:-} -jar "${CAIRN_SERVER_JAR:-/opt/cairn/cairn-server.jar}" "$@"
