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
# PORT (default a free one for each start), DATA (the data directory, default a fresh one under /tmp).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rounds=${1:-5}
shift || true
java=${JAVA:-${JAVA_HOME:?set JAVA_HOME or JAVA}/bin/java}
jar=${JAR:-api/target/cairn-server.jar}
data=${DATA:-$(mktemp -d /tmp/cairn-startup.XXXXXX)}
[[ -f $jar ]] || { echo "no $jar: build it with ./mvnw -pl api -am package -DskipTests" >&2; exit 1; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# A port nothing listens on (other servers may share this machine).
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
}

# Starts the server on $data, prints the milliseconds to ready, stops it. $1: first (an empty data
# directory) or warm.
one_start() {
  local kind=$1 log=$data.log t0 pid port
  shift
  if [[ $kind == first ]]; then
    rm -rf "$data"
    mkdir -p "$data"
  fi
  port=${PORT:-$(free_port)}
  t0=$(now_ms)
  "$java" "$@" -jar "$jar" --cairn.data-dir="$data" --server.port="$port" >"$log" 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/actuator/health/readiness" 2>/dev/null | grep -q '"UP"'; do
    if ! kill -0 "$pid" 2>/dev/null; then
      if grep -q "Port $port was already in use" "$log"; then
        one_start "$kind" "$@" # taken between the check and the bind: another port, another start
        return
      fi
      echo "the server exited before it was ready; its log: $log" >&2
      exit 1
    fi
    sleep 0.02
  done
  echo $(($(now_ms) - t0))
  if ! grep -q "Tomcat started on port $port" "$log"; then
    echo "another server answered on port $port; its log: $log" >&2
    exit 1
  fi
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
  f=$(one_start first "$@")
  w=$(one_start warm "$@")
  first+=("$f") warm+=("$w")
  printf 'round %d: first %5d ms, warm %5d ms\n' "$i" "$f" "$w"
done
rm -rf "$data" "$data.log"
echo "$("$java" -version 2>&1 | head -n 1); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
stats first "${first[@]}"
stats warm "${warm[@]}"
