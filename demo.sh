#!/usr/bin/env bash
# Cairn's demo, from a fresh clone: picks a JDK >= 21, builds, runs the object store on a real
# folder (by default this checkout; the container goes to /tmp/cairn-demo/container), then the
# provenance graph on PostgreSQL (database cairn_demo, made afresh). PostgreSQL comes from
# CAIRN_DB_URL (a JDBC URL of a role that may create databases) or, without it, from
# .ci/services, which installs and starts it on Debian (as root). Then the engine: a worker on
# RabbitMQ (CAIRN_AMQP_URI, else .ci/services) runs the examples plugin's work chains. The demos
# live in examples/ (dev.cairn.examples.demo) and run from its jar with everything in it,
# examples/target/demos.jar.
#   ./demo.sh [FOLDER_TO_STORE] [CONTAINER_FOLDER]
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
  for d in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    v=$("$d/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p')
    if [ "${v:-0}" -ge 21 ]; then export JAVA_HOME=${d%/}; break; fi
  done
fi
[ -n "${JAVA_HOME:-}" ] || { echo "Cairn needs a JDK >= 21 (e.g. Temurin 25) under /usr/lib/jvm or in JAVA_HOME" >&2; exit 1; }
./mvnw -q -B -ntp -pl examples -am package -DskipTests
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp examples/target/demos.jar)

echo "### the object store"
"${java[@]}" dev.cairn.examples.demo.ObjectStoreDemo "${1:-$PWD}" "${2:-/tmp/cairn-demo/container}"

echo "### the provenance graph"
if [ -z "${CAIRN_DB_URL:-}" ]; then
  [ -n "${CAIRN_TEST_DB_URL:-}" ] || source .ci/services
  CAIRN_DB_URL=$CAIRN_TEST_DB_URL
fi
"${java[@]}" dev.cairn.examples.demo.GraphDemo "$CAIRN_DB_URL" /tmp/cairn-demo/graph-objects

echo "### the engine"
if [ -z "${CAIRN_AMQP_URI:-}" ]; then
  [ -n "${CAIRN_TEST_AMQP_URI:-}" ] || source .ci/services
  CAIRN_AMQP_URI=$CAIRN_TEST_AMQP_URI
fi
"${java[@]}" dev.cairn.examples.demo.EngineDemo "$CAIRN_DB_URL" "$CAIRN_AMQP_URI"
