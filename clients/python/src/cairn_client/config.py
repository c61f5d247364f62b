"""Where the server is and which token to use, found as the ``cairn`` command line finds them.

The URL: the one given, else ``$CAIRN_URL``, else the profile's (the one named, else
``$CAIRN_PROFILE``, else the one ``cairn profile use`` chose), else the server ``cairn up`` started
on this host (the URL it recorded in its data directory, ``$CAIRN_DATA_DIR`` or ``~/.cairn``, else
``http://127.0.0.1:$CAIRN_PORT``, else port 8080). The token: the one given, else ``$CAIRN_TOKEN``,
else the profile's, else, with no profile, that local server's admin token when this user can read it.

Profiles live in ``$CAIRN_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/cairn``, else ``~/.config/cairn``:
``profiles.json`` (``{"current": NAME, "profiles": {NAME: {"url": URL}}}``) and a token per profile
in ``tokens/NAME``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping, NamedTuple

__all__ = ["Target", "resolve", "config_dir"]

LOCAL_URL = "http://127.0.0.1:8080"


class Target(NamedTuple):
    """A server and the token to call it with, and where they came from (for messages)."""

    url: str
    token: str | None
    source: str


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The folder of the command line's profiles."""
    e = os.environ if env is None else env
    if e.get("CAIRN_CONFIG_DIR"):
        return Path(e["CAIRN_CONFIG_DIR"])
    xdg = e.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "cairn"


def resolve(
    profile: str | None = None,
    url: str | None = None,
    token: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Target:
    """The server and token to use; see the module's description for the order."""
    e = os.environ if env is None else env
    directory = config_dir(e)
    config = _read_config(directory)
    name = profile or e.get("CAIRN_PROFILE") or config.get("current")
    entry: Mapping[str, Any] | None = None
    if name:
        profiles = config.get("profiles") or {}
        if name not in profiles:
            known = ", ".join(sorted(profiles)) or "none"
            raise ValueError(f"no profile named '{name}' in {directory / 'profiles.json'} (profiles: {known})")
        entry = profiles[name]
    if url:
        chosen, source = url, "the url given"
    elif e.get("CAIRN_URL"):
        chosen, source = e["CAIRN_URL"], "CAIRN_URL"
    elif entry is not None:
        chosen, source = str(entry.get("url") or LOCAL_URL), f"profile '{name}'"
    else:
        chosen, source = _local_url(e), "no profile: the local server"
    if token:
        return Target(chosen.rstrip("/"), token, source)
    if e.get("CAIRN_TOKEN"):
        return Target(chosen.rstrip("/"), e["CAIRN_TOKEN"].strip(), source + ", token from CAIRN_TOKEN")
    if entry is not None:
        return Target(chosen.rstrip("/"), _read_token(directory / "tokens" / str(name)), source)
    local = _data_dir(e) / "admin-token"
    return Target(chosen.rstrip("/"), _read_token(local), source)


def _read_config(directory: Path) -> dict[str, Any]:
    file = directory / "profiles.json"
    if not file.exists():
        return {}
    try:
        config = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read {file}: {e}") from e
    if not isinstance(config, dict):
        raise ValueError(f"{file} is not a JSON object")
    return config


def _read_token(file: Path) -> str | None:
    try:
        token = file.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return token or None


def _data_dir(env: Mapping[str, str]) -> Path:
    return Path(env["CAIRN_DATA_DIR"]) if env.get("CAIRN_DATA_DIR") else Path.home() / ".cairn"


def _local_url(env: Mapping[str, str]) -> str:
    port = (env.get("CAIRN_PORT") or "").strip()
    if port:
        if not port.isdigit() or len(port) > 5:
            raise ValueError(f"CAIRN_PORT: '{port}' is not a port number")
        return f"http://127.0.0.1:{port}"
    recorded = _data_dir(env) / "server.url"
    try:
        text = recorded.read_text(encoding="utf-8").strip()
    except OSError:
        return LOCAL_URL
    return text if text.startswith("http://") or text.startswith("https://") else LOCAL_URL
