"""A real Cairn server for the tests: the server jar in its embedded mode (its own PostgreSQL and
broker under a temporary data directory), started once for the session, with a computer
``localhost`` for shell jobs. ``CAIRN_SERVER_JAR`` names the jar (default: the checkout's
``api/target/cairn-server.jar``, built by ``./mvnw -pl api -am package -DskipTests``);
``CAIRN_TEST_URL`` and ``CAIRN_TEST_TOKEN`` use a running server instead."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from cairn_client import Client

ROOT = Path(__file__).resolve().parents[3]


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


@pytest.fixture(scope="session")
def server() -> Iterator[tuple[str, str, Path]]:
    """The server's URL, its admin token and its data directory."""
    if os.environ.get("CAIRN_TEST_URL"):
        yield os.environ["CAIRN_TEST_URL"], os.environ["CAIRN_TEST_TOKEN"], Path(tempfile.mkdtemp())
        return
    jar = Path(os.environ.get("CAIRN_SERVER_JAR", ROOT / "api" / "target" / "cairn-server.jar"))
    if not jar.exists():
        raise RuntimeError(f"no server jar at {jar}: build it with ./mvnw -pl api -am package -DskipTests")
    data = Path(tempfile.mkdtemp(prefix="cairn-client-test-"))
    port = _free_port()
    log = open(data / "server.log", "wb")
    process = subprocess.Popen(
        [_java(), "-Xmx512m", "-jar", str(jar), f"--cairn.data-dir={data}", f"--server.port={port}"],
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


@pytest.fixture(scope="session")
def cairn(server: tuple[str, str, Path]) -> Iterator[Client]:
    url, token, _ = server
    with Client(url, token=token, env={}) as client:
        yield client
