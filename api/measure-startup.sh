#!/usr/bin/env bash
# Start-up to ready of the embedded server: the time from launching the JVM to
# /actuator/health/readiness answering UP, polled every 20 ms. Each round makes a first start (an
# empty data directory: zonky's binaries unpacked, initdb, the schema migrated, the admin token
# made) and then a warm start on the same data directory; the server is stopped with SIGTERM after
# each. Prints every start, then min / median / max of each kind.
#
#   api/measure-startup.sh [ROUNDS] [JAVA OPTIONS...]     e.g. api/measure-startup.sh 5 -XX:AOTCache=app.aot
#
# Environment: JAVA (default $JAVA_HOME/bin/java), JAR (default api/target/cairn-server.jar),
# PORT (default 18480), DATA (the data directory, default a fresh one under /tmp).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rounds=${1:-5}
shift || true
java=${JAVA:-${JAVA_HOME:?set JAVA_HOME or JAVA}/bin/java}
jar=${JAR:-api/target/cairn-server.jar}
port=${PORT:-18480}
data=${DATA:-$(mktemp -d /tmp/cairn-startup.XXXXXX)}
[[ -f $jar ]] || { echo "no $jar: build it with ./mvnw -pl api -am package -DskipTests" >&2; exit 1; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Starts the server on $data, prints the milliseconds to ready, stops it.
one_start() {
  local log=$data.log t0 pid
  t0=$(now_ms)
  "$java" "$@" -jar "$jar" --cairn.data-dir="$data" --server.port="$port" >"$log" 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/actuator/health/readiness" 2>/dev/null | grep -q '"UP"'; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "the server exited before it was ready; its log: $log" >&2
      exit 1
    fi
    sleep 0.02
  done
  echo $(($(now_ms) - t0))
  kill -TERM "$pid"
  wait "$pid" || true
}

stats() { # label, values...
  local label=$1
  shift
  printf '%s\n' "$@" | sort -n | awk -v label="$label" '
    { v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%-6s n=%d  min %.2f s  median %.2f s  max %.2f s\n", label, NR, v[1] / 1000, m / 1000, v[NR] / 1000 }'
}

first=() warm=()
for ((i = 1; i <= rounds; i++)); do
  rm -rf "$data"
  mkdir -p "$data"
  f=$(one_start "$@")
  w=$(one_start "$@")
  first+=("$f") warm+=("$w")
  printf 'round %d: first %5d ms, warm %5d ms\n' "$i" "$f" "$w"
done
rm -rf "$data" "$data.log"
echo "$("$java" -version 2>&1 | head -n 1); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
stats first "${first[@]}"
stats warm "${warm[@]}"
