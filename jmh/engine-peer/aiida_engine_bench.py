"""aiida-core's side of the engine comparison: throughput and latency of a work chain of 3 processes.

  AIIDA_PATH=/tmp/cairn-peers/aiida-engine-home python aiida_engine_bench.py --workers W --n N \
      [--latency-samples K] [--workload functions|calcjobs] [--workdir DIR] [--profile cairn-engine] \
      [--timeout S] [--json FILE]

--workload names the work chain:
  functions  MulAddWorkChain of functions_wc.py: (x + y) * z by two calcfunctions in one step
             (x = i, y = 1, z = 2 + i % 7 for the i-th work chain);
  calcjobs   AddWorkChain of calcjobs_wc.py: a bash ArithmeticAddCalculation x + y on the computer
             localhost (core.local, core.direct, minimum_job_poll_interval 0.1 s), then a calcfunction
             adding y (x = i, y = 1). The computer and its code bash are stored right after the database
             is recreated; the jobs' work directories go to --workdir (default: a new folder in /tmp).

Needs the profile of setup-aiida-engine.sh. Prints exactly one JSON line on stdout:
  {"system": "aiida-core 2.9.4", "workload": W, "workers": W, "n": N, "processes": 3N, "wall_seconds": ...,
   "processes_per_hour": ..., "latency_median_ms": ..., "latency_p99_ms": ..., "all_ok": true}
progress goes to stderr, the details (per-type counts, every latency sample, load) to --json.

Each run, in this order:
  1. stops the profile's daemon, recreates its database from the template (DROP ... WITH (FORCE),
     CREATE ... TEMPLATE aiida_engine_template) and deletes and recreates its RabbitMQ virtual host, so
     no process and no task of an earlier run is left (nothing accumulates from run to run);
  2. for calcjobs, stores the computer and the code; `verdi daemon start W` with this folder on
     PYTHONPATH (the workers inherit it and import functions_wc or calcjobs_wc), then waits until the W
     workers consume from the launch queue;
  3. throughput: submits N work chains (the i-th with the inputs above) as fast as it can from this
     process, polls every 0.5 s until all 3N process nodes created since the first submit are terminated,
     then checks that every one finished with exit status 0 and every work chain's result is right.
     wall_seconds = latest mtime of those process nodes (a process node's last change is its sealing at
     termination) minus the moment the first submit call began; processes_per_hour = 3N / wall * 3600;
  4. latency, on the now idle daemon: K times, submits one work chain and reads its process_state every
     5 ms (each read is a SELECT: the ORM refreshes a stored node's attributes on access) until it is
     terminal; the sample is the time from the submit call to the read that saw it terminal (checked
     finished ok and correct). latency_median_ms is the median, latency_p99_ms the nearest-rank 99th
     percentile (the maximum for K <= 100);
  5. stops the daemon (also on failure).
The exit status is 0 only when all_ok is true; the JSON line is printed either way once step 3 ran.
"""
import argparse
import base64
import collections
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import psycopg

from aiida import __version__ as aiida_version
from aiida import load_profile, orm
from aiida.manage.configuration import get_config

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from aiida.engine import submit  # noqa: E402

TERMINAL = ('finished', 'excepted', 'killed')
PROCESSES_PER_WORKCHAIN = 3
LATENCY_POLL_S = 0.005


def log(*args):
    print('aiida-engine-bench:', *args, file=sys.stderr, flush=True)


def verdi(profile, *args, check=True):
    """Runs `verdi -p PROFILE ARGS` of this venv with this folder on PYTHONPATH; its output goes to stderr.

    The venv's bin goes first on PATH: the daemon looks `verdi` up there to start circus and its workers."""
    env = dict(os.environ)
    bin_dir = os.path.dirname(sys.executable)
    env['PATH'] = os.pathsep.join([bin_dir] + [p for p in env.get('PATH', '').split(os.pathsep) if p])
    env['PYTHONPATH'] = os.pathsep.join([HERE] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p])
    exe = os.path.join(bin_dir, 'verdi')
    return subprocess.run([exe, '-p', profile, *args], env=env, stdout=sys.stderr, stderr=sys.stderr,
                          check=check).returncode


def recreate_database(profile):
    """Drops the profile's database (closing whatever still holds it) and copies it from `<name>_template`."""
    storage = profile.storage_config
    name = storage['database_name']
    with psycopg.connect(host=storage['database_hostname'], port=storage['database_port'],
                         user=storage['database_username'], password=storage['database_password'],
                         dbname='postgres', autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{name}_template"')


class Rabbit:
    """The RabbitMQ management API, as the profile's broker user."""

    def __init__(self, profile):
        broker = profile.process_control_config
        self.vhost = broker['broker_virtual_host']
        self.user = broker['broker_username']
        self.base = os.environ.get('AIIDA_ENGINE_AMQP_MANAGEMENT', f"http://{broker['broker_host']}:15672").rstrip('/')
        token = base64.b64encode(f"{broker['broker_username']}:{broker['broker_password']}".encode()).decode()
        self.auth = f'Basic {token}'

    def call(self, method, path, body=None, ok=(200, 201, 204)):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f'{self.base}/api/{path}', data=data, method=method,
                                     headers={'authorization': self.auth, 'content-type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, text = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read()
        if status not in ok:
            raise RuntimeError(f'RabbitMQ management {method} {path}: HTTP {status} {text[:200]!r}')
        return status, (json.loads(text) if text else None)

    def recreate_vhost(self):
        v = urllib.parse.quote(self.vhost, safe='')
        self.call('DELETE', f'vhosts/{v}', ok=(204, 404))
        self.call('PUT', f'vhosts/{v}')
        self.call('PUT', f'permissions/{v}/{urllib.parse.quote(self.user, safe="")}',
                  {'configure': '.*', 'write': '.*', 'read': '.*'})

    def consumers(self, queue):
        status, body = self.call('GET', f'queues/{urllib.parse.quote(self.vhost, safe="")}/'
                                        f'{urllib.parse.quote(queue, safe="")}', ok=(200, 404))
        return body.get('consumers', 0) if status == 200 else 0


def wait_for_workers(rabbit, queue, workers, timeout=180):
    deadline = time.time() + timeout
    while True:
        n = rabbit.consumers(queue)
        if n >= workers:
            return
        if time.time() > deadline:
            raise RuntimeError(f'only {n} of {workers} daemon workers consume from {queue} after {timeout} s '
                               '(see the daemon log under $AIIDA_PATH/.aiida/daemon/log/)')
        time.sleep(0.25)


class Functions:
    """MulAddWorkChain: (x + y) * z."""

    def __init__(self):
        import functions_wc
        self.wc = functions_wc

    @staticmethod
    def inputs(i):
        return i, 1, 2 + i % 7

    def submit(self, i):
        x, y, z = self.inputs(i)
        return submit(self.wc.MulAddWorkChain, x=orm.Int(x), y=orm.Int(y), z=orm.Int(z))

    def expected(self, i):
        return self.wc.expected(*self.inputs(i))


class CalcJobs:
    """AddWorkChain: x + y by bash, + y by a calcfunction."""

    def __init__(self, workdir):
        import calcjobs_wc
        self.wc = calcjobs_wc
        self.code = calcjobs_wc.setup_localhost(workdir)

    def submit(self, i):
        return submit(self.wc.AddWorkChain, code=self.code, x=orm.Int(i), y=orm.Int(1))

    def expected(self, i):
        return self.wc.expected(i, 1)


def process_rows(since):
    return orm.QueryBuilder().append(
        orm.ProcessNode, filters={'ctime': {'>=': since}},
        project=['id', 'node_type', 'ctime', 'mtime', 'attributes.process_state', 'attributes.exit_status'],
    ).all()


def throughput(workload, n, timeout):
    expected_processes = PROCESSES_PER_WORKCHAIN * n
    t0 = time.time()
    since = datetime.datetime.fromtimestamp(t0, tz=datetime.timezone.utc)
    pks = []
    for i in range(n):
        pks.append(workload.submit(i).pk)
    submitted = time.time() - t0
    log(f'{n} work chains submitted in {submitted:.1f} s')

    last_log = time.time()
    timed_out = False
    while True:
        states = collections.Counter(s for (s,) in orm.QueryBuilder().append(
            orm.ProcessNode, filters={'ctime': {'>=': since}}, project=['attributes.process_state']).iterall())
        terminated = sum(states.get(s, 0) for s in TERMINAL)
        if terminated >= expected_processes:
            break
        if time.time() - t0 > timeout:
            log(f'TIMEOUT after {timeout} s: {dict(states)}')
            timed_out = True
            break
        if time.time() - last_log >= 10:
            log(f't={time.time() - t0:.0f} s {dict(states)}')
            last_log = time.time()
        time.sleep(0.5)
    detected = time.time() - t0

    rows = process_rows(since)
    by_type, ok_by_type = collections.Counter(), collections.Counter()
    last_mtime = 0.0
    first_ctime = math.inf
    for _pk, node_type, ctime, mtime, state, exit_status in rows:
        short = node_type.split('.')[-2]
        by_type[short] += 1
        first_ctime = min(first_ctime, ctime.timestamp() - t0)
        if state in TERMINAL:
            last_mtime = max(last_mtime, mtime.timestamp() - t0)
        if state == 'finished' and exit_status == 0:
            ok_by_type[short] += 1
    wrong = []
    for i, pk in enumerate(pks):
        node = orm.load_node(pk)
        result = node.outputs.result.value if node.is_finished_ok and 'result' in node.outputs else None
        if result != workload.expected(i):
            wrong.append(pk)
    all_ok = (not timed_out and len(rows) == expected_processes and not wrong
              and sum(ok_by_type.values()) == expected_processes)
    wall = last_mtime if not timed_out else detected
    return {
        'all_ok': all_ok,
        'wall_seconds': wall,
        'submit_phase_seconds': round(submitted, 3),
        'first_ctime_after_t0_seconds': round(first_ctime, 3),
        'detected_by_poller_seconds': round(detected, 3),
        'process_nodes': len(rows),
        'processes_by_type': dict(by_type),
        'finished_ok_by_type': dict(ok_by_type),
        'workchains_wrong_or_failed': wrong[:20],
        'timed_out': timed_out,
    }


def latency(workload, k, first_input, timeout=120):
    samples, bad = [], []
    for j in range(k):
        time.sleep(0.1)  # the daemon finishes acknowledging the previous one
        start = time.perf_counter()
        node = workload.submit(first_input + j)
        while node.process_state is None or node.process_state.value not in TERMINAL:
            if time.perf_counter() - start > timeout:
                raise RuntimeError(f'latency sample {j}: work chain {node.pk} not terminated after {timeout} s')
            time.sleep(LATENCY_POLL_S)
        samples.append((time.perf_counter() - start) * 1000)
        if not (node.is_finished_ok and node.outputs.result.value == workload.expected(first_input + j)):
            bad.append(node.pk)
    ordered = sorted(samples)
    return {
        'latency_median_ms': statistics.median(ordered),
        'latency_p99_ms': ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)],
        'latency_samples_ms': [round(s, 2) for s in samples],
        'latency_failed': bad,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--workers', type=int, required=True, help='daemon workers')
    ap.add_argument('--n', type=int, required=True, help='work chains in the throughput phase (3 processes each)')
    ap.add_argument('--latency-samples', type=int, default=20, help='work chains timed one by one (default 20)')
    ap.add_argument('--workload', choices=['functions', 'calcjobs'], default='functions',
                    help='functions: MulAddWorkChain (two calcfunctions); calcjobs: AddWorkChain (a bash job and '
                         'a calcfunction); 3 processes per work chain either way')
    ap.add_argument('--workdir', help='calcjobs: the computer\'s work directory (default: a new folder in /tmp)')
    ap.add_argument('--profile', default='cairn-engine')
    ap.add_argument('--timeout', type=float, default=3600, help='seconds the throughput phase may take')
    ap.add_argument('--json', help='write the details here')
    a = ap.parse_args()
    if a.workers < 1 or a.n < 1 or a.latency_samples < 1:
        ap.error('--workers, --n and --latency-samples must be at least 1')

    profile = get_config().get_profile(a.profile)
    if profile.process_control_backend != 'core.rabbitmq':
        ap.error(f'profile {a.profile} has no RabbitMQ broker: run setup-aiida-engine.sh')
    rabbit = Rabbit(profile)
    queue = f'aiida-{profile.uuid}.process.queue'
    load_before = os.getloadavg()
    started = datetime.datetime.now(tz=datetime.timezone.utc).isoformat(timespec='seconds')

    log(f'aiida-core {aiida_version}, profile {a.profile}: stopping the daemon, fresh database and vhost')
    verdi(a.profile, 'daemon', 'stop', check=False)
    recreate_database(profile)
    rabbit.recreate_vhost()
    load_profile(a.profile)
    if a.workload == 'calcjobs':
        workdir = a.workdir or tempfile.mkdtemp(prefix='aiida-engine-calcjobs-')
        os.makedirs(workdir, exist_ok=True)
        log(f'computer localhost (core.local, core.direct), code bash; work directories in {workdir}')
        workload = CalcJobs(workdir)
    else:
        workload = Functions()
    try:
        log(f'starting the daemon with {a.workers} worker(s)')
        verdi(a.profile, 'daemon', 'start', str(a.workers))
        wait_for_workers(rabbit, queue, a.workers)
        log(f'throughput: {a.n} work chains ({PROCESSES_PER_WORKCHAIN * a.n} processes)')
        tp = throughput(workload, a.n, a.timeout)
        log(f'throughput: {tp["wall_seconds"]:.2f} s, all ok: {tp["all_ok"]}')
        lat = {'latency_median_ms': None, 'latency_p99_ms': None, 'latency_failed': []}
        if not tp['timed_out']:
            log(f'latency: {a.latency_samples} work chains one by one')
            lat = latency(workload, a.latency_samples, a.n)
    finally:
        log('stopping the daemon')
        verdi(a.profile, 'daemon', 'stop', check=False)

    processes = PROCESSES_PER_WORKCHAIN * a.n
    all_ok = tp['all_ok'] and not lat['latency_failed']
    wall = tp['wall_seconds']
    out = {
        'system': f'aiida-core {aiida_version}',
        'workload': a.workload,
        'workers': a.workers,
        'n': a.n,
        'processes': processes,
        'wall_seconds': round(wall, 3),
        'processes_per_hour': round(processes / wall * 3600, 1) if wall > 0 else None,
        'latency_median_ms': None if lat['latency_median_ms'] is None else round(lat['latency_median_ms'], 2),
        'latency_p99_ms': None if lat['latency_p99_ms'] is None else round(lat['latency_p99_ms'], 2),
        'all_ok': all_ok,
    }
    if a.json:
        details = {**out, 'started_utc': started, **{k: v for k, v in tp.items() if k not in out},
                   **{k: v for k, v in lat.items() if k not in out},
                   'load_average_before_after': [round(load_before[0], 2), round(os.getloadavg()[0], 2)]}
        with open(a.json, 'w') as f:
            json.dump(details, f, indent=1)
    print(json.dumps(out), flush=True)
    sys.exit(0 if all_ok else 1)


if __name__ == '__main__':
    main()
