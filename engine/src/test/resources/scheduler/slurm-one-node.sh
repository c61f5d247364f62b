#!/usr/bin/env bash
# A one-node SLURM cluster on this machine for SlurmSchedulerIT and PbsSchedulerIT (Debian or
# Ubuntu, as root).
#
#   bash slurm-one-node.sh start DIR   # installs slurmctld/slurmd/slurm-client/slurm-wlm-torque if missing, starts
#                                      # munged, slurmctld and slurmd with their state in DIR, waits
#                                      # for the node to be idle, prints SLURM_CONF=DIR/slurm.conf
#   bash slurm-one-node.sh stop DIR    # stops the slurmctld and slurmd started for DIR
#
# Own ports (16917, 16918) and files under DIR, so that it leaves any other SLURM alone. Progress
# goes to stderr, the one line for the caller to stdout.
set -euo pipefail
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

action=${1:?usage: slurm-one-node.sh start|stop DIR}
dir=${2:?usage: slurm-one-node.sh start|stop DIR}
say() { printf '[slurm] %s\n' "$*" >&2; }
die() { printf '[slurm] ERROR: %s\n' "$*" >&2; exit 1; }

stop_pid_file() {
  local file=$1
  [[ -f $file ]] || return 0
  local pid
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$file"
}

if [[ $action == stop ]]; then
  stop_pid_file "$dir/slurmd.pid"
  stop_pid_file "$dir/slurmctld.pid"
  exit 0
fi
[[ $action == start ]] || die "unknown action '$action' (start or stop)"
[[ $EUID -eq 0 ]] || die "slurmd needs root here; run the test as root"

packages=(slurmctld slurmd slurm-client slurm-wlm-torque)
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
  || ! dpkg -s slurm-wlm-torque >/dev/null 2>&1; then
  say "installing ${packages[*]} (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends "${packages[@]}" >&2 \
    || { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends "${packages[@]}" >&2; } \
    || die "could not install ${packages[*]} with apt-get"
fi

if ! munge -n >/dev/null 2>&1; then
  say "starting munged"
  [[ -f /etc/munge/munge.key ]] || die "/etc/munge/munge.key is missing (the munge package creates it)"
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
  runuser -u munge -- /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force
  for _ in $(seq 50); do munge -n >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n >/dev/null 2>&1 || die "munged does not answer"
fi

mkdir -p "$dir/state" "$dir/spool"
host=$(hostname -s)
conf=$dir/slurm.conf
# Slurm's PBS plugin gives a job PBS_JOBID, PBS_O_WORKDIR and the rest, as a site that offers the
# Torque front end (qsub, qstat) configures it; the SLURM_* variables are there as before.
printf 'optional spank_pbs.so\n' > "$dir/plugstack.conf"
cat > "$conf" <<CONF
ClusterName=cairnit
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPort=16917
SlurmdPort=16918
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
PlugStackConfig=$dir/plugstack.conf
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
InactiveLimit=0
KillWait=2
Waittime=0
NodeName=$host CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf

running() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }
# a new slurmctld starts with no jobs (-c): one that recovered the last one's state could hold a job it had
# allocated but whose launch the stop cut off, running for ever on the node by its count, in slurmd unknown
running "$dir/slurmctld.pid" || { say "starting slurmctld"; slurmctld -c -f "$conf"; }
running "$dir/slurmd.pid" || { say "starting slurmd"; slurmd -f "$conf"; }

for _ in $(seq 120); do
  state=$(sinfo --noheader --format=%t 2>/dev/null || true)
  [[ $state == idle || $state == mix || $state == alloc ]] && break
  sleep 0.5
done
[[ ${state:-} == idle || ${state:-} == mix || ${state:-} == alloc ]] \
  || die "the node is '${state:-unreachable}' after 60 s; see $dir/slurmctld.log and $dir/slurmd.log"
say "node $host is $state"
printf 'SLURM_CONF=%s\n' "$conf"
