"""The server jar in its embedded mode (its own PostgreSQL and broker under a temporary data directory)
with a computer ``localhost`` for shell jobs: what the tests and the benchmark run against."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parents[3]


def server_jar() -> Path:
    """``CAIRN_SERVER_JAR``, else the checkout's ``api/target/cairn-server.jar``."""
    jar = Path(os.environ.get("CAIRN_SERVER_JAR", ROOT / "api" / "target" / "cairn-server.jar"))
    if not jar.exists():
        raise RuntimeError(f"no server jar at {jar}: build it with ./mvnw -pl api -am package -DskipTests")
    return jar


@contextmanager
def embedded_server(jar: Path, heap: str = "512m") -> Iterator[tuple[str, str, Path]]:
    """Starts the jar, waits until it is ready, and yields its URL, its admin token and its data directory;
    stops it (and its PostgreSQL) and deletes the directory afterwards."""
    data = Path(tempfile.mkdtemp(prefix="cairn-client-"))
    port = _free_port()
    log = open(data / "server.log", "wb")
    process = subprocess.Popen(
        [_java(), f"-Xmx{heap}", "-jar", str(jar), f"--cairn.data-dir={data}", f"--server.port={port}"],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited ({process.returncode}); its log: {data / 'server.log'}")
            try:
                if httpx.get(url + "/actuator/health/readiness", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server was not ready in 600 s; its log: {data / 'server.log'}")
            time.sleep(0.5)
        token = (data / "admin-token").read_text().strip()
        made = httpx.post(
            url + "/api/v1/computers",
            headers={"Authorization": "Bearer " + token},
            json={
                "label": "localhost",
                "hostname": "localhost",
                "transportType": "core.local",
                "schedulerType": "core.direct",
                "settings": {"workdir": str(data / "work")},
            },
        )
        assert made.status_code == 201, made.text
        yield url, token, data
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
        shutil.rmtree(data, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _java() -> str:
    home = os.environ.get("JAVA_HOME")
    java = Path(home) / "bin" / "java" if home else None
    if java and java.exists():
        return str(java)
    found = shutil.which("java")
    if not found:
        raise RuntimeError("no java: set JAVA_HOME to a JDK 21 or newer")
    return found
