"""The JSON bodies of launches and shell jobs, as the server takes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from ._calling import called
from .nodes import Node
from .processes import Process


def launch_body(
    entry_point: str, inputs: Mapping[str, Any] | None, metadata: Mapping[str, Any] | None, use_cache: bool | None
) -> dict[str, Any]:
    """A launch of ``entry_point`` as the server takes it."""
    body: dict[str, Any] = {"entry_point": entry_point, "inputs": inline(inputs or {})}
    meta = dict(metadata or {})
    if use_cache is not None:
        meta["use_cache"] = use_cache
    if meta:
        body["metadata"] = meta
    return called(body)


def shell_job_body(
    command: str,
    nodes: Mapping[str, Any] | None,
    outputs: Sequence[str],
    filenames: Mapping[str, str] | None,
    parsers: Mapping[str, Mapping[str, Any]] | None,
    computer: str | None,
    stdin: str | None,
    redirect_stderr: bool | None,
    metadata: Mapping[str, Any] | None,
) -> tuple[dict[str, Any], dict[str, Path]]:
    """A shell job's request without its local files, and those files by input name (each checked to be there:
    the client uploads them before it posts the request)."""
    given = {name: value for name, value in (nodes or {}).items() if not isinstance(value, Path)}
    files = {name: value for name, value in (nodes or {}).items() if isinstance(value, Path)}
    for name, path in files.items():
        if not path.exists():
            raise FileNotFoundError(f"nodes[{name!r}]: no file or folder {path}")
    body: dict[str, Any] = {"command": command, "nodes": inline(given)}
    optional = {
        "outputs": list(outputs) or None,
        "filenames": dict(filenames) if filenames else None,
        "parsers": {k: dict(v) for k, v in parsers.items()} if parsers else None,
        "computer": computer,
        "stdin": stdin,
        "redirect_stderr": redirect_stderr,
        "metadata": dict(metadata) if metadata else None,
    }
    body.update({k: v for k, v in optional.items() if v is not None})
    return called(body), files


def inline(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Inputs in JSON: stored nodes by reference, namespaces as nested objects, values as they are."""
    out: dict[str, Any] = {}
    for key, value in inputs.items():
        if isinstance(value, (Node, Process)):
            out[key] = {"uuid": value.uuid}
        elif isinstance(value, Mapping) and any(isinstance(v, (Node, Process, Mapping)) for v in value.values()):
            out[key] = inline(value)
        elif hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
            out[key] = value.tolist()  # a launch's port says what it takes: an array in JSON is a list
        else:
            out[key] = value
    return out


def launch_args(item: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`launch_body`'s arguments from a launch given as a dict."""
    return {
        "entry_point": item["entry_point"],
        "inputs": item.get("inputs"),
        "metadata": item.get("metadata"),
        "use_cache": item.get("use_cache"),
    }
