#!/usr/bin/env bash
# The scale curve of Cairn's workers on hosts of their own: throughput against the number of worker
# hosts (4, 3, 2, 1; 4 slots each) for three workloads, with the cores the workers, PostgreSQL and
# RabbitMQ kept busy meanwhile. The hosts are network namespaces on a bridge with PostgreSQL, RabbitMQ
# and the object store's folder on a host of their own (src/test/java/dev/cairn/e2e/hosts, the
# many-hosts tests' harness); the measurement is the class ScaleCurve there, which prints lines
# `ScaleCurve: …` and a Markdown table, copied to $out.
#
#   jmh/scale-hosts.sh
#
# Workloads (see ScaleCurve): naps (calculations that wait 0.6-1.4 s holding their slot; the ideal is
# slots ÷ 1 s), spin (calculations of ~20 ms of CPU each), add_multiply chains (the examples' work chain
# of two calcfunctions: the engine's own cost, the database's included). Each workload: workers start on
# all 4 hosts, a warm-up batch, then a batch on 4, 3, 2 and 1 hosts, a worker stopped each time.
# Throughput is counted between the first and the last eighth of each batch's processes.
#
# Needs root (network namespaces) and what .ci/hosts installs (iproute2, socat, postgresql-15,
# rabbitmq-server, openssh-server); run it on a machine left to it: the figures are cores and rates.
# Time: about 6 minutes after the build.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${CAIRN_SCALE_HOSTS_OUT:-/tmp/cairn-scale-hosts.txt}
(($# == 0)) || { echo "usage: jmh/scale-hosts.sh" >&2; exit 2; }
[[ $EUID -eq 0 ]] || { echo "scale-hosts.sh needs root: its hosts are network namespaces" >&2; exit 1; }

cd "$root"
# shellcheck source=../.ci/hosts
source .ci/hosts
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
# builds the server jar and the tests with what they need; runs ScaleCurve alone (no other test runs)
./mvnw -B -ntp -Phosts -pl src/test -am verify -Dit.test=ScaleCurve -Dtest=none \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false | tee "$out.log"
grep -E '^ScaleCurve: |^\|' "$out.log" > "$out"
echo "figures: $out (at $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d))"
