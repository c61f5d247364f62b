"""A real Cairn server for the tests: the server jar in its embedded mode (its own PostgreSQL and
broker under a temporary data directory), started once for the session, with a computer
``localhost`` for shell jobs. ``CAIRN_SERVER_JAR`` names the jar (default: the checkout's
``api/target/cairn-server.jar``, built by ``./mvnw -pl api -am package -DskipTests``);
``CAIRN_TEST_URL`` and ``CAIRN_TEST_TOKEN`` use a running server instead."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from embedded_server import embedded_server, server_jar

from cairn_client import Client, _json


@pytest.fixture(scope="session")
def server() -> Iterator[tuple[str, str, Path]]:
    """The server's URL, its admin token and its data directory."""
    if os.environ.get("CAIRN_TEST_URL"):
        yield os.environ["CAIRN_TEST_URL"], os.environ["CAIRN_TEST_TOKEN"], Path(tempfile.mkdtemp())
        return
    with embedded_server(server_jar()) as running:
        yield running


@pytest.fixture(scope="session")
def cairn(server: tuple[str, str, Path]) -> Iterator[Client]:
    url, token, _ = server
    with Client(url, token=token, env={}) as client:
        yield client


@pytest.fixture(params=["orjson", "json"])
def json_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Runs a test twice: the client parsing with orjson (which the tests' requirements install), and with
    orjson hidden, as where it is not installed."""
    if request.param == "json":
        monkeypatch.setitem(sys.modules, "orjson", None)
    _json.reset()
    assert _json.backend() == request.param, "orjson is not installed: pip install 'cairn-client[fast]' (or [test])"
    yield request.param
    _json.reset()
