#!/usr/bin/env bash
# A start-up cache for the server, for the JDK in JAVA_HOME: the JDK's AOT cache (JDK 25 and newer:
# classes loaded and linked ahead of time, with method profiles) or, on JDK 21 to 24, a dynamic CDS
# archive. Such a cache holds classes from plain jars on the class path only, not from jars nested in
# one, so the script first extracts api/target/cairn-server.jar into api/target/cairn-server/ (Spring
# Boot's jarmode tools). Then it records: it starts the server once in the embedded mode on a scratch
# data directory, waits until it has started, and stops it; the JVM writes the cache as it exits.
# Nothing happens when the cache is newer than the jar and was made by the same JDK.
#
#   api/aot-cache.sh        then run, with these paths made absolute as the recording's were:
#                           java -XX:AOTCache=api/target/cairn-server/cairn.aot -jar api/target/cairn-server/cairn-server.jar
#                           (JDK 21-24: -XX:SharedArchiveFile=api/target/cairn-server/cairn.jsa)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

java=${JAVA_HOME:?set JAVA_HOME to the JDK that will run the server}/bin/java
# absolute paths: the cache remembers the class path it was recorded with, and the server runs from
# anywhere (a relative path makes the JVM define packages twice and refuse sealed ones)
jar=$PWD/target/cairn-server.jar
dir=$PWD/target/cairn-server
stamp=$dir/cache-made-by
[[ -f $jar ]] || { echo "no $jar: build it first (./mvnw -pl api -am package -DskipTests)" >&2; exit 1; }

jdk=$("$java" -version 2>&1 | head -n 1)
major=$("$java" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')
major=${major%%[!0-9]*}
if ((major >= 25)); then
  cache=$dir/cairn.aot record=(-XX:AOTCacheOutput="$dir/cairn.aot")
else
  cache=$dir/cairn.jsa record=(-XX:ArchiveClassesAtExit="$dir/cairn.jsa")
fi

if [[ -f $cache && $cache -nt $jar && -f $stamp && $(cat "$stamp") == "$jdk" ]]; then
  exit 0
fi

echo "Recording the server's start-up cache for $jdk (once per build): a start and a stop on a scratch directory ..."
rm -rf "$dir"
"$java" -Djarmode=tools -jar "$jar" extract --destination "$dir" >/dev/null

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cairn-aot.XXXXXX")
log=$dir/recording.log
trap 'rm -rf "$scratch"' EXIT
started=$SECONDS
"$java" "${record[@]}" -jar "$dir/cairn-server.jar" --cairn.data-dir="$scratch" --server.port=0 >"$log" 2>&1 &
pid=$!
until grep -qs 'Started CairnApplication' "$log"; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "recording the start-up cache failed: the server stopped; see $log" >&2
    exit 1
  fi
  sleep 0.2
done
kill -TERM "$pid"
wait "$pid" || true # 143: stopped by SIGTERM, as asked
if [[ ! -f $cache ]]; then
  echo "recording the start-up cache failed: no $cache; see $log" >&2
  exit 1
fi
printf '%s' "$jdk" >"$stamp"
echo "start-up cache $cache recorded in $((SECONDS - started)) s"
