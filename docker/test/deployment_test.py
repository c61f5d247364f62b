#!/usr/bin/env python3
"""The deployment test: docker/compose.yaml built and run for real (podman + docker-compose), then faults.

Run by .ci/run through docker/test/run, which sets up podman and docker-compose first (.ci/containers). Steps:
  1. build the images (server, PostgreSQL, RabbitMQ) and measure them;
  2. bring the deployment up with one worker; run each of the examples' work chains once to learn the nodes
     and links one run makes, then a batch of each;
  3. submit a batch of work chains, scale the workers 1 -> 3, SIGKILL one worker container mid-run: every
     process finishes, exactly once (node and link counts exact);
  4. upgrade: work chains left waiting mid-outline, the workers drained, every image rebuilt and every container
     replaced (migrating once first): they finish afterwards, exactly once;
  5. back up the running deployment (cairn storage backup's endpoint), restore it into a second deployment:
     node, link and object counts equal.
Prints the figures; exits non-zero on the first check that fails, saying which.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPOSE_FILE = os.path.join(ROOT, "docker", "compose.yaml")
PROJECT = os.environ.get("CAIRN_TEST_PROJECT", "cairn-ci")
RESTORED = PROJECT + "-restored"

figures = {}
started = time.monotonic()


def log(message):
    print(f"[{time.monotonic() - started:7.1f} s] {message}", flush=True)


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)
    log("ok: " + message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Deployment:
    """One compose project: its containers, its API on a port of its own."""

    def __init__(self, project, port):
        self.project = project
        self.port = port
        self.token = None
        self.env = dict(os.environ, CAIRN_PORT=str(port))

    def compose(self, *args, capture=False, check_exit=True, env=None):
        command = ["docker-compose", "-f", COMPOSE_FILE, "-p", self.project, *args]
        result = subprocess.run(
            command,
            env=env or self.env,
            cwd=ROOT,
            text=True,
            stdout=subprocess.PIPE if capture else None,
            stderr=subprocess.STDOUT if capture else None,
        )
        if check_exit and result.returncode != 0:
            raise Failed(f"{' '.join(command)} exited {result.returncode}" + (f":\n{result.stdout}" if capture else ""))
        return result.stdout if capture else result.returncode

    def containers(self, service):
        return self.compose("ps", "-q", service, capture=True).split()

    def request(self, method, path, body=None, timeout=60):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as answer:
                text = answer.read().decode()
        except urllib.error.HTTPError as e:
            raise Failed(f"{method} {path}: {e.code} {e.read().decode()[:500]}") from None
        if not text.strip():
            return None
        if text.lstrip().startswith("{") and "\n{" in text.strip():
            return [json.loads(line) for line in text.splitlines() if line.strip()]  # NDJSON
        return json.loads(text)

    def wait_ready(self, timeout=300):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{self.port}/actuator/health/readiness", timeout=5
                ) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(1)
        raise Failed(f"the API of {self.project} was not ready within {timeout} s")

    def read_token(self):
        self.token = self.compose("exec", "-T", "api", "cat", "/var/lib/cairn/admin-token", capture=True).strip()
        check(self.token.startswith("cairn_"), f"the first start of {self.project} made an admin token")

    def storage(self):
        return self.request("GET", "/api/v1/storage")

    def counts(self):
        info = self.storage()
        return {"nodes": info["nodes"], "links": info["links"]}

    def submit(self, launches):
        uuids = []
        for i in range(0, len(launches), 500):
            answer = self.request("POST", "/api/v1/processes/batch", {"launches": launches[i : i + 500]})
            uuids += [p["uuid"] for p in answer["processes"]]
        return uuids

    def states(self, uuids):
        """The state of each process, by uuid."""
        states = {}
        for uuid in uuids:
            states[uuid] = self.request("GET", f"/api/v1/processes/{uuid}")
        return states

    def unfinished(self, uuids):
        left = []
        for uuid in uuids:
            p = self.request("GET", f"/api/v1/processes/{uuid}")
            if p["state"] not in ("finished", "excepted", "killed"):
                left.append(uuid)
        return left

    def wait_finished(self, uuids, timeout):
        deadline = time.monotonic() + timeout
        left = list(uuids)
        while left and time.monotonic() < deadline:
            left = self.unfinished(left)
            if left:
                time.sleep(2)
        if left:
            raise Failed(f"{len(left)} of {len(uuids)} processes did not end within {timeout} s (e.g. {left[0]})")
        bad = [p for p in self.states(uuids).values() if p["state"] != "finished" or p.get("exitStatus", 0) != 0]
        check(not bad, f"all {len(uuids)} processes finished with exit status 0" + (f"; not: {bad[:3]}" if bad else ""))


def compose_env(extra=None):
    env = dict(os.environ)
    env.setdefault("CAIRN_IMAGE", "localhost/cairn-ci/server:test")
    env.setdefault("CAIRN_POSTGRES_IMAGE", "localhost/cairn-ci/postgres:test")
    env.setdefault("CAIRN_RABBITMQ_IMAGE", "localhost/cairn-ci/rabbitmq:test")
    if os.environ.get("CAIRN_CI_JDK_IMAGE"):
        env["CAIRN_BUILD_IMAGE"] = os.environ["CAIRN_CI_JDK_IMAGE"]
    if os.environ.get("CAIRN_CI_BASE_IMAGE"):
        env["CAIRN_BASE_IMAGE"] = os.environ["CAIRN_CI_BASE_IMAGE"]
    env.update(extra or {})
    return env


def image_size(image):
    out = subprocess.run(["podman", "image", "inspect", "--format", "{{.Size}}", image], capture_output=True, text=True)
    return int(out.stdout.strip()) if out.returncode == 0 else None


def build(deployment, version):
    t = time.monotonic()
    deployment.compose("build", "--build-arg", f"CAIRN_VERSION={version}", env=dict(deployment.env, CAIRN_VERSION=version))
    return time.monotonic() - t


WORK_CHAINS = {
    "add_multiply": ({"entry_point": "arithmetic.add_multiply", "inputs": {"x": 2, "y": 3, "z": 4}}, "result", 20),
    "sum_series": ({"entry_point": "examples.sum_series", "inputs": {"n": 30}}, "total", 930),
}

# five children a round: six rounds, so that an upgrade finds most of them waiting between two
SUM_SERIES_BATCH5 = {"entry_point": "examples.sum_series", "inputs": {"n": 30, "batch": 5}}


def calcjob_launch():
    return {
        "entry_point": "arithmetic.add_calcjob_workchain",
        "inputs": {"code": "bash@localhost", "x": 4, "y": 5},
    }


def learn(deployment, launch):
    """Runs one launch alone and returns the nodes and links it made."""
    before = deployment.counts()
    uuids = deployment.submit([launch])
    deployment.wait_finished(uuids, 120)
    after = deployment.counts()
    return {k: after[k] - before[k] for k in before}


def expect(deployment, before, made, what):
    after = deployment.counts()
    check(
        after == {k: before[k] + made[k] for k in before},
        f"{what}: nodes {after['nodes'] - before['nodes']} (expected {made['nodes']}),"
        f" links {after['links'] - before['links']} (expected {made['links']})",
    )
    return after


def times(per_run, n):
    return {k: v * n for k, v in per_run.items()}


def add(*parts):
    total = {"nodes": 0, "links": 0}
    for p in parts:
        for k in total:
            total[k] += p[k]
    return total


def main():
    for tool in ("podman", "docker-compose"):
        if not shutil.which(tool):
            raise Failed(f"{tool} is not on PATH: source .ci/containers first (it installs and configures it)")
    env = compose_env()
    a = Deployment(PROJECT, free_port())
    a.env = dict(env, CAIRN_PORT=str(a.port))
    b = Deployment(RESTORED, free_port())
    b.env = dict(env, CAIRN_PORT=str(b.port))
    for d in (a, b):
        d.compose("down", "-v", "--remove-orphans", "-t", "5", capture=True, check_exit=False)

    log("building the images")
    figures["build seconds"] = round(build(a, "ci-1"), 1)
    for name in ("CAIRN_IMAGE", "CAIRN_POSTGRES_IMAGE", "CAIRN_RABBITMQ_IMAGE"):
        figures[f"size of {env[name]} (MB)"] = round((image_size(env[name]) or 0) / 1e6, 1)
    log(f"built in {figures['build seconds']} s: " + json.dumps(figures))
    server_size = image_size(env["CAIRN_IMAGE"])
    check(server_size is not None, "the server image was built")

    log("up with one worker")
    t = time.monotonic()
    a.compose("up", "-d", "--scale", "worker=1")
    a.wait_ready()
    figures["up seconds (to the API's readiness)"] = round(time.monotonic() - t, 1)
    a.read_token()
    health = a.request("GET", "/actuator/health/readiness")
    check(
        all(health["components"][c]["status"] == "UP" for c in ("database", "broker", "objectStore")),
        "readiness reports the database, the broker and the object store, each UP",
    )
    migrate_logs = a.compose("logs", "--no-color", "migrate", capture=True)
    check("migrations applied" in migrate_logs or "migration applied" in migrate_logs, "the one-shot migrate ran")

    a.request(
        "POST",
        "/api/v1/computers",
        {
            "label": "localhost",
            "hostname": "localhost",
            "transportType": "core.local",
            "schedulerType": "core.direct",
            "settings": {"workdir": "/var/lib/cairn/work"},
        },
    )
    a.request(
        "POST",
        "/api/v1/codes",
        {"label": "bash", "computer": "localhost", "executable": "/bin/bash", "defaultCalcJobPlugin": "arithmetic.add"},
    )

    per_run = {name: learn(a, launch) for name, (launch, _, _) in WORK_CHAINS.items()}
    per_run["add_calcjob_workchain"] = learn(a, calcjob_launch())
    per_run["sum_series_batch5"] = learn(a, SUM_SERIES_BATCH5)
    log("one run of each makes: " + json.dumps(per_run))

    # one worker: every kind, calculation jobs included (their work directory is the worker's own)
    before = a.counts()
    launches = [WORK_CHAINS["add_multiply"][0]] * 20 + [WORK_CHAINS["sum_series"][0]] * 10 + [calcjob_launch()] * 5
    uuids = a.submit(launches)
    a.wait_finished(uuids, 600)
    expect(a, before, add(times(per_run["add_multiply"], 20), times(per_run["sum_series"], 10),
                          times(per_run["add_calcjob_workchain"], 5)), "35 work chains on one worker")

    # scale 1 -> 3 mid-run, then SIGKILL one worker container mid-run
    n = 120
    before = a.counts()
    uuids = a.submit([WORK_CHAINS["sum_series"][0]] * n)
    a.compose("up", "-d", "--no-recreate", "--scale", "worker=3", "worker")
    workers = a.containers("worker")
    check(len(workers) == 3, f"scaled to 3 workers ({len(workers)} running)")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        done = n - len(a.unfinished(uuids))
        if done >= n // 4:
            break
        time.sleep(1)
    victim = workers[-1]
    left_at_kill = len(a.unfinished(uuids))
    subprocess.run(["podman", "kill", "--signal", "KILL", victim], check=True, capture_output=True)
    log(f"SIGKILL to worker {victim[:12]} with {left_at_kill} of {n} work chains unfinished")
    check(0 < left_at_kill < n, "the kill came mid-run")
    t = time.monotonic()
    a.wait_finished(uuids, 900)
    figures["kill: seconds from the kill to all finished"] = round(time.monotonic() - t, 1)
    after = expect(a, before, times(per_run["sum_series"], n), f"{n} sum_series with a worker killed: each exactly once")
    figures["counts after the kill run"] = after

    upgrade(a, per_run)
    backup_and_restore(a, b)
    log("figures: " + json.dumps(figures, indent=1))


def processes_in_middle(a, uuids):
    """How many of the work chains wait with some but not all children done."""
    waiting = 0
    for uuid in uuids:
        p = a.request("GET", f"/api/v1/processes/{uuid}")
        if p["state"] == "waiting":
            waiting += 1
    return waiting


def upgrade(a, per_run):
    log("upgrade: work chains mid-outline, drain, migrate once, every container replaced")
    n = 60
    before = a.counts()
    uuids = a.submit([SUM_SERIES_BATCH5] * n)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and processes_in_middle(a, uuids) < n // 2:
        time.sleep(0.5)
    old = {s: set(a.containers(s)) for s in ("api", "worker", "postgres", "rabbitmq")}
    t = time.monotonic()
    a.compose("stop", "-t", "40", "worker")  # drain: running steps finish, the rest stays queued
    waiting = processes_in_middle(a, uuids)
    check(waiting > 0, f"{waiting} of {n} work chains wait mid-outline with the workers drained")
    figures["upgrade: build seconds"] = round(build(a, "ci-2"), 1)
    a.compose("run", "--rm", "migrate")  # once, before anything of the new version starts
    a.compose("up", "-d", "--force-recreate", "--scale", "worker=3")
    a.wait_ready()
    figures["upgrade: seconds from the drain to the API ready"] = round(time.monotonic() - t, 1)
    new = {s: set(a.containers(s)) for s in old}
    check(all(not (old[s] & new[s]) for s in old), "every container was replaced")
    labels = subprocess.run(
        ["podman", "inspect", "--format", "{{index .Config.Labels \"org.opencontainers.image.version\"}}", *new["worker"], *new["api"]],
        capture_output=True, text=True, check=True).stdout.split()
    check(set(labels) == {"ci-2"}, f"the API and the workers run the freshly built image (versions {sorted(set(labels))})")
    a.wait_finished(uuids, 900)
    expect(a, before, times(per_run["sum_series_batch5"], n), f"{n} work chains across the upgrade: each exactly once")


def backup_and_restore(a, b):
    log("backup of the running deployment, restored into a second one")
    source = a.storage()
    lines = a.request("POST", "/api/v1/storage/backups", {"destination": "/var/lib/cairn/backups"}, timeout=600)
    done = lines[-1] if isinstance(lines, list) else lines
    check("path" in done, f"the backup was written: {done.get('path')} ({done.get('rows')} rows)")
    b.compose("up", "-d", "secrets", "postgres", "rabbitmq")
    volume = f"{a.project}_api"  # compose names a project's volumes so
    t = time.monotonic()
    b.compose(
        "run", "--rm", "--no-deps", "-v", f"{volume}:/restore:ro", "api",
        "--cairn.restore-from=/restore/backups/last",
    )
    figures["restore seconds"] = round(time.monotonic() - t, 1)
    b.compose("up", "-d", "--scale", "worker=1")
    b.wait_ready()
    b.token = a.token  # the tokens came with the database
    restored = b.storage()
    for key in ("nodes", "links"):
        check(restored[key] == source[key], f"restored {key}: {restored[key]} (source {source[key]})")
    objects = lambda info: info["objects"].get("objects", info["objects"])
    check(objects(restored) == objects(source), f"restored objects: {objects(restored)} (source {objects(source)})")
    figures["restored"] = {"nodes": restored["nodes"], "links": restored["links"], "objects": objects(restored)}


if __name__ == "__main__":
    code = 0
    try:
        main()
        print("deployment test: 1 passed, 0 failed")
    except Failed as e:
        print(f"deployment test FAILED: {e}", file=sys.stderr)
        code = 1
    finally:
        if os.environ.get("CAIRN_TEST_KEEP") != "1":
            for project in (PROJECT, RESTORED):
                subprocess.run(
                    ["docker-compose", "-f", COMPOSE_FILE, "-p", project, "down", "-v", "-t", "5"],
                    cwd=ROOT, env=compose_env(), capture_output=True)
    sys.exit(code)
