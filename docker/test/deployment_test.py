#!/usr/bin/env python3
"""The deployment test: docker/compose.yaml built and run for real (podman + docker-compose), then faults.

Run through docker/test/run, which sets up podman and docker-compose first (.ci/containers). Steps:
  1. build the images (server, PostgreSQL, RabbitMQ) and measure them; the server's, started with settings it
     cannot run with, says so in one line and exits 2;
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
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPOSE_FILE = os.path.join(ROOT, "docker", "compose.yaml")
# a name of this run's own (two runs on one machine, as CI's clean clones may be, share no container, volume or
# image tag); CAIRN_TEST_PROJECT names it
PROJECT = os.environ.get("CAIRN_TEST_PROJECT", f"cairn-ci-{os.getpid()}")
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

    def wait_ready(self, timeout=900):
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

    def top_level_sum_series(self, states):
        """How many work chains of examples.sum_series (not called by another) are in one of these states."""
        page = self.request(
            "GET", f"/api/v1/processes?type=examples.sum_series&top_level=true&state={states}&count=true&limit=1")
        return page["total"]

    def wait_consumers(self, count, timeout):
        """Waits until the broker counts `count` consumers of the task queue (the workers that took their first)."""
        deadline = time.monotonic() + timeout
        consumers = None
        while time.monotonic() < deadline:
            health = self.request("GET", "/actuator/health/readiness", timeout=30)
            consumers = health["components"]["broker"]["details"].get("consumers")
            if consumers == count:
                log(f"{count} workers consume the task queue")
                return
            time.sleep(2)
        raise Failed(f"{count} workers did not consume the task queue within {timeout} s ({consumers} did)")

    @staticmethod
    def address(container):
        """The container's address on the project's network."""
        return subprocess.run(
            ["podman", "inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", container],
            capture_output=True, text=True, check=True).stdout.strip()

    def unacknowledged(self, containers):
        """The tasks each container holds unacknowledged on its broker channels, by container id."""
        address = {self.address(c): c for c in containers}
        out = self.compose("exec", "-T", "rabbitmq", "rabbitmqctl", "-q", "list_channels", "name",
                           "messages_unacknowledged", capture=True)
        held = {c: 0 for c in containers}
        for line in out.splitlines():
            parts = line.split()  # "172.18.0.7:41234 -> 172.18.0.3:5672 (1)	4"
            if len(parts) >= 2 and parts[-1].isdigit() and parts[0].rsplit(":", 1)[0] in address:
                held[address[parts[0].rsplit(":", 1)[0]]] += int(parts[-1])
        return held

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

    def process(self, uuid):
        """A process: its state, exit status, inputs and outputs."""
        answer = self.request("GET", f"/api/v1/processes/{uuid}")
        return dict(answer["process"], inputs=answer.get("inputs", {}), outputs=answer.get("outputs", {}))

    def unfinished(self, uuids):
        return [u for u in uuids if self.process(u)["state"] not in ("finished", "excepted", "killed")]

    def wait_finished(self, uuids, timeout):
        deadline = time.monotonic() + timeout
        left = list(uuids)
        while left and time.monotonic() < deadline:
            left = self.unfinished(left)
            if left:
                time.sleep(2)
        if left:
            raise Failed(f"{len(left)} of {len(uuids)} processes did not end within {timeout} s (e.g. {left[0]})")
        bad = [p for p in map(self.process, uuids) if p["state"] != "finished" or p.get("exit_status") != 0]
        check(not bad, f"all {len(uuids)} processes finished with exit status 0" + (f"; not: {bad[:3]}" if bad else ""))


def compose_env(extra=None):
    env = dict(os.environ)
    env.setdefault("CAIRN_IMAGE", f"localhost/{PROJECT}/server:test")  # of these sources: this run's own
    env.setdefault("CAIRN_POSTGRES_IMAGE", "localhost/cairn-ci/postgres:test")  # the same for every run
    env.setdefault("CAIRN_RABBITMQ_IMAGE", "localhost/cairn-ci/rabbitmq:test")
    env.setdefault("CAIRN_BUILD_IMAGE", os.environ.get("CAIRN_CI_JDK_IMAGE", "eclipse-temurin:25-jdk"))
    env.setdefault("CAIRN_BASE_IMAGE", os.environ.get("CAIRN_CI_BASE_IMAGE", "debian:bookworm-slim"))
    env.update(extra or {})
    return env


def image_size(image):
    out = subprocess.run(["podman", "image", "inspect", "--format", "{{.Size}}", image], capture_output=True, text=True)
    return int(out.stdout.strip()) if out.returncode == 0 else None


def podman_build(tag, dockerfile, context, args):
    """podman build, in the docker format (it keeps HEALTHCHECK); returns the seconds it took."""
    command = ["podman", "build", "--format", "docker", "-f", dockerfile, "-t", tag]
    for key, value in args.items():
        command += ["--build-arg", f"{key}={value}"]
    t = time.monotonic()
    result = subprocess.run(command + [context], cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        raise Failed(f"{' '.join(command)} {context} exited {result.returncode}:\n{result.stdout[-4000:]}")
    return time.monotonic() - t


def server_context():
    """The server image's build context and its SERVER_JAR argument: with CAIRN_SERVER_JAR (a jar the Maven build
    made, CI's path), a folder holding that jar and docker/'s files; else the sources, built in the image."""
    jar = os.environ.get("CAIRN_SERVER_JAR")
    if not jar:
        return ROOT, {}
    context = os.path.join(ROOT, "target", "deployment-test", "context")
    shutil.rmtree(context, ignore_errors=True)
    os.makedirs(os.path.join(context, "docker"))
    for name in ("Dockerfile", "entrypoint.sh", "slim-jar.sh", "runtime-root.sh"):
        shutil.copy2(os.path.join(ROOT, "docker", name), os.path.join(context, "docker", name))
    shutil.copy2(jar, os.path.join(context, "cairn-server.jar"))
    return context, {"SERVER_JAR": "cairn-server.jar"}


def build_server(env, version):
    """Builds the server's image, once (every service of the compose file runs it by name)."""
    context, args = server_context()
    args.update(BUILD_IMAGE=env["CAIRN_BUILD_IMAGE"], RUNTIME_IMAGE=env["CAIRN_BASE_IMAGE"], CAIRN_VERSION=version)
    return podman_build(env["CAIRN_IMAGE"], os.path.join(ROOT, "docker", "Dockerfile"), context, args)


def bad_settings(image):
    """The image started with settings it cannot run with: each is one line naming what is wrong, exit status 2,
    before Java starts."""
    url = ["-e", "CAIRN_DATABASE_URL=jdbc:postgresql://db:5432/cairn"]
    cases = [
        ([], "cairn: CAIRN_DATABASE_URL is not set"),
        (url + ["-e", "CAIRN_ROLES=api,scheduler"], "cairn: CAIRN_ROLES: 'scheduler' is not a role"),
        (url + ["-e", "CAIRN_DATABASE_PASSWORD=a", "-e", "CAIRN_DATABASE_PASSWORD_FILE=/etc/hostname"],
         "cairn: both CAIRN_DATABASE_PASSWORD and CAIRN_DATABASE_PASSWORD_FILE are set"),
        (url + ["-e", "CAIRN_BROKER_URI_FILE=/run/secrets/none"], "cairn: CAIRN_BROKER_URI_FILE: cannot read"),
    ]
    for options, expected in cases:
        run = subprocess.run(["podman", "run", "--rm", "--no-healthcheck", *options, image], capture_output=True, text=True, timeout=300)
        lines = run.stderr.strip().splitlines()
        check(run.returncode == 2 and len(lines) == 1 and lines[0].startswith(expected),
              f"{' '.join(options[1::2]) or 'no settings'}: exit {run.returncode}, {lines}")


def build_services(env):
    """PostgreSQL's and RabbitMQ's images, from Debian's packages."""
    for name, tag in (("postgres", env["CAIRN_POSTGRES_IMAGE"]), ("rabbitmq", env["CAIRN_RABBITMQ_IMAGE"])):
        context = os.path.join(ROOT, "docker", name)
        podman_build(tag, os.path.join(context, "Dockerfile"), context, {"BASE_IMAGE": env["CAIRN_BASE_IMAGE"]})


WORK_CHAINS = {
    "add_multiply": ({"entry_point": "arithmetic.add_multiply", "inputs": {"x": 2, "y": 3, "z": 4}}, "result", 20),
    "sum_series": ({"entry_point": "examples.sum_series", "inputs": {"n": 30}}, "total", 930),
}

# a hundred and fifty rounds of one child: a drain a few seconds after the submission finds them waiting between
# two rounds, however fast the workers (thirty rounds of five were all done by then on a machine at rest)
SUM_SERIES_LONG = {"entry_point": "examples.sum_series", "inputs": {"n": 150, "batch": 1}}


def calcjob_launch(code):
    return {
        "entry_point": "arithmetic.add_calcjob_workchain",
        "inputs": {"code": {"uuid": code}, "x": 4, "y": 5},
    }


def learn(deployment, launch, output=None, value=None):
    """Runs one launch alone (checking its output when named) and returns the nodes and links it made."""
    before = deployment.counts()
    uuids = deployment.submit([launch])
    deployment.wait_finished(uuids, 600)
    if output:
        got = deployment.process(uuids[0])["outputs"].get(output, {}).get("value")
        check(got == value, f"{launch['entry_point']} {launch['inputs']}: {output} = {got} (expected {value})")
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

    log("building the images" + (" (the server's from " + os.environ["CAIRN_SERVER_JAR"] + ")"
                                  if os.environ.get("CAIRN_SERVER_JAR") else " (the server's from the sources)"))
    t = time.monotonic()
    build_services(env)
    figures["build seconds: PostgreSQL and RabbitMQ"] = round(time.monotonic() - t, 1)
    figures["build seconds: server"] = round(build_server(env, "ci-1"), 1)
    for name in ("CAIRN_IMAGE", "CAIRN_POSTGRES_IMAGE", "CAIRN_RABBITMQ_IMAGE"):
        figures[f"size of {env[name]} (MB)"] = round((image_size(env[name]) or 0) / 1e6, 1)
    log("built: " + json.dumps(figures))
    server_size = image_size(env["CAIRN_IMAGE"])
    check(server_size is not None, "the server image was built")
    bad_settings(env["CAIRN_IMAGE"])

    log("up with one worker")
    t = time.monotonic()
    a.compose("up", "-d", "--scale", "worker=1")
    a.wait_ready()
    figures["up seconds (to the API's readiness)"] = round(time.monotonic() - t, 1)
    a.read_token()
    log("docker-compose ps:\n" + a.compose("ps", capture=True))
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
    code = a.request(
        "POST",
        "/api/v1/codes",
        {"label": "bash", "computer": "localhost", "executable": "/bin/bash", "defaultCalcJobPlugin": "arithmetic.add"},
    )

    per_run = {name: learn(a, launch, output, value) for name, (launch, output, value) in WORK_CHAINS.items()}
    per_run["add_calcjob_workchain"] = learn(a, calcjob_launch(code["uuid"]))
    per_run["sum_series_long"] = learn(a, SUM_SERIES_LONG)
    log("one run of each makes: " + json.dumps(per_run))

    # one worker: every kind, calculation jobs included (their work directory is the worker's own)
    before = a.counts()
    launches = [WORK_CHAINS["add_multiply"][0]] * 20 + [WORK_CHAINS["sum_series"][0]] * 10 + [calcjob_launch(code["uuid"])] * 5
    uuids = a.submit(launches)
    a.wait_finished(uuids, 1200)
    expect(a, before, add(times(per_run["add_multiply"], 20), times(per_run["sum_series"], 10),
                          times(per_run["add_calcjob_workchain"], 5)), "35 work chains on one worker")

    # scale 1 -> 3 while work chains run; more once the three take tasks; SIGKILL the worker that holds the most
    before = a.counts()
    uuids = a.submit([WORK_CHAINS["sum_series"][0]] * 60)
    a.compose("up", "-d", "--no-recreate", "--scale", "worker=3", "worker")
    workers = a.containers("worker")
    check(len(workers) == 3, f"scaled to 3 workers ({len(workers)} containers)")
    a.wait_consumers(3, 900)
    batch = a.submit([WORK_CHAINS["sum_series"][0]] * 60)
    uuids += batch
    deadline = time.monotonic() + 300
    held = {}
    while time.monotonic() < deadline:
        held = a.unacknowledged(workers)
        if sum(held.values()) > 0:
            break
        if not a.unfinished(batch):
            # the batch ended between two looks at the broker (seen in CI on a quiet machine, whose workers
            # finished 180 chains before the first look): give them another one to be killed in
            batch = a.submit([WORK_CHAINS["sum_series"][0]] * 60)
            uuids += batch
            log("the workers finished a batch between two looks at the broker: another 60 submitted")
    n = len(uuids)
    if sum(held.values()) == 0:
        # seen once in CI: no worker's channel held a task for the whole wait; say what the broker and the
        # graph showed, so that a stall can be told from work that ended before it was looked at
        raise Failed(
            f"no worker held a task within 300 s; {len(a.unfinished(uuids))} of {len(uuids)} work chains unfinished;"
            " channels:\n" + a.compose("exec", "-T", "rabbitmq", "rabbitmqctl", "-q", "list_channels", "name",
                                       "consumer_count", "messages_unacknowledged", capture=True)
            + "\nqueues:\n" + a.compose("exec", "-T", "rabbitmq", "rabbitmqctl", "-q", "list_queues", "name",
                                         "messages_ready", "messages_unacknowledged", "consumers", capture=True)
            + "\nworker addresses: " + json.dumps({c[:12]: a.address(c) for c in workers})
            + "\nlast worker log lines:\n" + a.compose("logs", "--tail", "20", "worker", capture=True))
    victim = max(held, key=held.get)
    subprocess.run(["podman", "kill", "--signal", "KILL", victim], check=True, capture_output=True)
    # counted after the kill, not before: 180 reads of a process took longer than quick workers' whole run
    left_after_kill = len(a.unfinished(uuids))
    log(f"SIGKILL to worker {victim[:12]}, which held {held[victim]} tasks ({held}),"
        f" with {left_after_kill} of {n} work chains unfinished just after")
    check(held[victim] > 0,
          f"the kill came mid-run: the killed worker held {held[victim]} tasks unacknowledged")
    figures["kill: tasks the killed worker held"] = held[victim]
    t = time.monotonic()
    a.wait_finished(uuids, 1800)
    figures["kill: seconds from the kill to all finished"] = round(time.monotonic() - t, 1)
    after = expect(a, before, times(per_run["sum_series"], n), f"{n} sum_series with a worker killed: each exactly once")
    figures["counts after the kill run"] = after

    upgrade(a, per_run)
    backup_and_restore(a, b)
    log("figures: " + json.dumps(figures, indent=1))


def upgrade(a, per_run):
    log("upgrade: work chains mid-outline, drain, migrate once, every container replaced")
    n = 20  # 150 rounds each: a drain finds them mid-outline however fast the workers
    before = a.counts()
    check(a.top_level_sum_series("created,waiting") == 0, "no work chain of the earlier runs is left")
    finished_before = a.top_level_sum_series("finished")
    uuids = a.submit([SUM_SERIES_LONG] * n)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and a.top_level_sum_series("waiting") < n // 4:
        time.sleep(0.2)
    old = {s: set(a.containers(s)) for s in ("api", "worker", "postgres", "rabbitmq")}
    t = time.monotonic()
    a.compose("stop", "-t", "40", "worker")  # drain: running steps finish, the rest stays queued
    waiting = a.top_level_sum_series("waiting")
    figures["upgrade: work chains waiting mid-outline at the drain"] = waiting
    check(waiting > 0, f"{waiting} of {n} work chains wait mid-outline with the workers drained"
                       f" ({a.top_level_sum_series('finished') - finished_before} finished)")
    figures["upgrade: build seconds"] = round(build_server(a.env, "ci-2"), 1)
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
    expect(a, before, times(per_run["sum_series_long"], n), f"{n} work chains across the upgrade: each exactly once")


def backup_and_restore(a, b):
    log("backup of the running deployment, restored into a second one")
    source = a.storage()
    lines = a.request("POST", "/api/v1/storage/backups", {"destination": "/var/lib/cairn/backups"}, timeout=600)
    last = lines[-1] if isinstance(lines, list) else lines  # the steps, then {"done": ...} or a problem
    done = last.get("done") or {}
    check("path" in done, f"the backup was written: {done.get('path')} ({done.get('rows')} rows; last line {last})")
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
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # ends main() through the finally below
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
            # the run's own tag; the image's layers stay, a cache for the next run
            subprocess.run(["podman", "untag", compose_env()["CAIRN_IMAGE"]], capture_output=True)
    sys.exit(code)
