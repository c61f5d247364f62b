# shellcheck shell=bash
# What the comparison scripts that run Cairn beside PostgreSQL and RabbitMQ share (compare-engine.sh,
# compare-api.sh, server-load.sh). Sourced after the caller set amqp_user, amqp_password and management.

step_start=$SECONDS
# progress on stderr, with the seconds since the script started
step() { echo "[$((SECONDS - step_start)) s] $*" >&2; }

# the RabbitMQ management API as $amqp_user: rabbit METHOD PATH [JSON]; prints the HTTP status
rabbit() {
  curl -sS -o /dev/null -w '%{http_code}' --max-time 30 -u "$amqp_user:$amqp_password" -X "$1" \
    -H 'content-type: application/json' ${3:+--data "$3"} "$management/api/$2"
}

# exits naming what is missing when PostgreSQL at $1:$2 or RabbitMQ's management API does not answer
require_services() {
  pg_isready -q -h "$1" -p "$2" || { echo "PostgreSQL is not answering at $1:$2 (source .ci/services)" >&2; exit 1; }
  [ "$(rabbit GET overview)" = 200 ] \
    || { echo "the RabbitMQ management API does not answer at $management as $amqp_user (source .ci/services)" >&2; exit 1; }
}

# JAVA_HOME as given when it is a JDK >= 21, else the newest such JDK under /usr/lib/jvm; exported
use_jdk21() {
  if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
    JAVA_HOME=$(ls -d /usr/lib/jvm/*/ 2>/dev/null | while read -r d; do
      v=$("$d/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p'); [ "${v:-0}" -ge 21 ] && echo "$v ${d%/}"; done |
      sort -n | tail -1 | cut -d' ' -f2)
    [ -n "$JAVA_HOME" ] || { echo "needs a JDK >= 21 under /usr/lib/jvm" >&2; exit 1; }
  fi
  export JAVA_HOME
}
