"""The client: one server, one token."""

from __future__ import annotations

import tempfile
import time
import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar, overload

from . import config
from ._arrays import is_array, npy_body
from ._arrays import save as save_array
from ._launches import launch_args, launch_body, shell_job_body
from ._forms import structure_form, value_form
from ._http import Http
from .errors import CairnError
from .functions import PythonFunction, WorkflowFunction
from .groups import Group
from .nodes import Node, NodeRef, ref_segment
from .processes import Event, Process, parse_events
from .query import Query

R = TypeVar("R")

__all__ = ["Client", "connect"]


class Client:
    """A Cairn server to read from and launch on.

    With no arguments it finds the server and token as the ``cairn`` command line does: the profile in
    use, else the server ``cairn up`` started on this host (see :mod:`cairn_client.config`)::

        cairn = Client()                                   # the CLI's profile, or the local server
        cairn = Client(profile="cluster")
        cairn = Client("https://cairn.example.org", token="cairn_…")
    """

    def __init__(
        self,
        url: str | None = None,
        token: str | None = None,
        *,
        profile: str | None = None,
        timeout: float = 60.0,
        env: Mapping[str, str] | None = None,
    ):
        self.target = config.resolve(profile=profile, url=url, token=token, env=env)
        self._http = Http(self.target.url, self.target.token, timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __repr__(self) -> str:
        return f"<Client {self.target.url} ({self.target.source})>"

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def server(self) -> dict[str, Any]:
        """The server's version, roles and services."""
        return dict(self._http.get("/api/v1/server"))

    # --- nodes

    def node(self, ref: NodeRef) -> Node:
        """A node by PK (int), uuid, or a unique prefix of its uuid (at least 4 hex digits)."""
        return Node(self, self._http.get("/api/v1/nodes/" + ref_segment(ref)))

    def nodes(self, type: str | None = None, filter: Sequence[str] = (), limit: int | None = None) -> list[Node]:
        """Nodes, newest first: of a class (``Int``, ``StructureData``, …) and matching ``filter`` expressions."""
        found: list[Node] = []
        for item in self._paged("/api/v1/nodes", {"type": type, "filter": list(filter) or None, "limit": 1000}):
            found.append(Node(self, item))
            if limit is not None and len(found) >= limit:
                break
        return found

    def query(self) -> Query:
        """A new query of the provenance graph (see :class:`Query`)."""
        return Query(self)

    # --- data

    def upload(
        self,
        value: Any,
        *,
        label: str = "",
        description: str = "",
        extras: Mapping[str, Any] | None = None,
    ) -> Node:
        """Stores a value as a data node: a bool, int, float or str; a dict; a list; a NumPy array (an ArrayData
        of the one array ``default``); a file or folder (a :class:`pathlib.Path`); a structure (an ASE
        ``Atoms``)."""
        if isinstance(value, Path):
            return self.upload_file(value, label=label, description=description)
        if is_array(value):
            return self._upload_array(value, label, description)
        body: dict[str, Any] = {**value_form(value), "label": label, "description": description}
        if extras:
            body["extras"] = dict(extras)
        return Node(self, self._http.post("/api/v1/nodes", body))

    def upload_file(self, path: str | Path, *, name: str | None = None, label: str = "", description: str = "") -> Node:
        """A file as a SinglefileData, a folder (with its sub-folders) as a FolderData; streamed."""
        path = Path(path)
        params = {"label": label or None, "description": description or None}
        if path.is_dir():
            files = []
            handles = []
            try:
                for file in sorted(p for p in path.rglob("*") if p.is_file()):
                    handle = open(file, "rb")
                    handles.append(handle)
                    files.append(("file", (file.relative_to(path).as_posix(), handle, "application/octet-stream")))
                return Node(
                    self,
                    self._http.request("POST", "/api/v1/nodes/files", params={**params, "folder": True}, files=files),
                )
            finally:
                for handle in handles:
                    handle.close()
        with open(path, "rb") as handle:
            return Node(
                self,
                self._http.request(
                    "POST",
                    "/api/v1/nodes/files",
                    params={**params, "name": name or path.name},
                    content=_chunks(handle),
                    headers={"Content-Type": "application/octet-stream"},
                ),
            )

    def _upload_array(self, array: Any, label: str, description: str) -> Node:
        """One array as an ArrayData, its ``.npy`` file sent from the array's memory as a raw body."""
        length, npy = npy_body(array)
        params = {"label": label or None, "description": description or None, "array": True, "name": "default.npy"}
        headers = {"Content-Type": "application/octet-stream", "Content-Length": str(length)}
        answer = self._http.request("POST", "/api/v1/nodes/files", params=params, content=npy, headers=headers)
        return Node(self, answer)

    def upload_arrays(self, arrays: Mapping[str, Any], *, label: str = "", description: str = "") -> Node:
        """NumPy arrays by name as one ArrayData, each a ``.npy`` file (floats as float64, integers and booleans
        as int64), streamed; read them back with :meth:`Node.arrays`."""
        if not arrays:
            raise ValueError("an ArrayData holds at least one array")
        params = {"label": label or None, "description": description or None, "array": True}
        with tempfile.TemporaryDirectory(prefix="cairn-arrays-") as folder, ExitStack() as handles:
            files = []
            for name, array in arrays.items():
                saved = save_array(array, Path(folder) / f"{name}.npy")
                handle = handles.enter_context(open(saved, "rb"))
                files.append(("file", (saved.name, handle, "application/octet-stream")))
            return Node(self, self._http.request("POST", "/api/v1/nodes/files", params=params, files=files))

    def upload_structure(
        self,
        cell: Sequence[Sequence[float]],
        symbols: Sequence[str],
        positions: Sequence[Sequence[float]],
        pbc: tuple[bool, bool, bool] = (True, True, True),
        *,
        label: str = "",
        description: str = "",
    ) -> Node:
        """A StructureData: the cell's three vectors, and a site per symbol at its position (Å)."""
        value = structure_form(cell, symbols, positions, pbc)
        body = {"type": "structure", "value": value, "label": label, "description": description}
        return Node(self, self._http.post("/api/v1/nodes", body))

    # --- processes

    def submit(
        self,
        entry_point: str,
        inputs: Mapping[str, Any] | None = None,
        *,
        metadata: Mapping[str, Any] | None = None,
        use_cache: bool | None = None,
    ) -> Process:
        """Launches a process of ``entry_point`` with ``inputs``: values inline (``2``, ``{"a": 1}``) or stored
        nodes (:class:`Node` objects). Returns at once; :meth:`Process.wait` waits."""
        return Process(self, self._http.post("/api/v1/processes", launch_body(entry_point, inputs, metadata, use_cache)))

    def submit_many(self, launches: Iterable[tuple[str, Mapping[str, Any]] | Mapping[str, Any]]) -> list[Process]:
        """Launches many processes at once, all or none: each ``(entry_point, inputs)`` or a launch dict."""
        body = [
            launch_body(item[0], item[1], None, None) if isinstance(item, tuple) else launch_body(**launch_args(item))
            for item in launches
        ]
        answer = self._http.post("/api/v1/processes/batch", {"launches": body})
        return [Process(self, p) for p in answer["processes"]]

    def shell(
        self,
        command: str,
        nodes: Mapping[str, Any] | None = None,
        *,
        outputs: Sequence[str] = (),
        filenames: Mapping[str, str] | None = None,
        parsers: Mapping[str, Mapping[str, Any]] | None = None,
        computer: str | None = None,
        stdin: str | None = None,
        redirect_stderr: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Process:
        """Runs a command as a shell job: ``{name}`` in it stands for ``nodes[name]`` (a file's name in the work
        directory for a file node or a local :class:`pathlib.Path`, which is uploaded, and deleted again if the server
        refuses the job; a value's text otherwise). Waits for it unless ``wait=False``."""
        job = shell_job_body(command, nodes, outputs, filenames, parsers, computer, stdin, redirect_stderr, metadata)
        process = Process(self, self._post_uploading("/api/v1/shell-jobs", job[0], [job]))
        return process.wait(timeout) if wait else process

    def shell_many(self, jobs: Iterable[Mapping[str, Any]]) -> list[Process]:
        """Launches many shell jobs at once, all or none; each a dict of :meth:`shell`'s arguments."""
        prepared = []
        for job in jobs:
            args = dict(job)
            prepared.append(
                shell_job_body(
                    args.pop("command"),
                    args.pop("nodes", None),
                    args.pop("outputs", ()),
                    args.pop("filenames", None),
                    args.pop("parsers", None),
                    args.pop("computer", None),
                    args.pop("stdin", None),
                    args.pop("redirect_stderr", None),
                    args.pop("metadata", None),
                )
            )
            if args:
                raise TypeError(f"unknown shell job arguments: {sorted(args)}")
        answer = self._post_uploading("/api/v1/shell-jobs/batch", {"jobs": [body for body, _ in prepared]}, prepared)
        return [Process(self, p) for p in answer["processes"]]

    @overload
    def calcfunction(self, function: Callable[..., R], /) -> PythonFunction[R]: ...

    @overload
    def calcfunction(
        self, /, *, use_cache: bool | None = None, label: str | None = None
    ) -> Callable[[Callable[..., R]], PythonFunction[R]]: ...

    def calcfunction(
        self, function: Callable[..., Any] | None = None, /, *, use_cache: bool | None = None, label: str | None = None
    ) -> Any:
        """Records every call of a Python function as a calcfunction, with its inputs, outputs and source, and
        takes a call's outputs from the cache when a finished run has the same inputs and source (as the
        server's caching setting says, or ``use_cache``). Use as ``@cairn.calcfunction`` or
        ``@cairn.calcfunction(use_cache=True)``."""

        def wrap(f: Callable[..., Any]) -> PythonFunction[Any]:
            return PythonFunction(self, f, use_cache, label)

        return wrap(function) if function is not None else wrap

    @overload
    def workfunction(self, function: Callable[..., R], /) -> WorkflowFunction[R]: ...

    @overload
    def workfunction(self, /, *, label: str | None = None) -> Callable[[Callable[..., R]], WorkflowFunction[R]]: ...

    def workfunction(self, function: Callable[..., Any] | None = None, /, *, label: str | None = None) -> Any:
        """Records every call of a Python function that calls recorded functions as a workflow: the calcfunctions
        and workflow functions it calls are linked to it, what it returns is linked as its returns. Its body
        receives nodes. Use as ``@cairn.workfunction`` or ``@cairn.workfunction(label=…)``."""

        def wrap(f: Callable[..., Any]) -> WorkflowFunction[Any]:
            return WorkflowFunction(self, f, label)

        return wrap(function) if function is not None else wrap

    def process(self, ref: NodeRef) -> Process:
        detail = self._http.get("/api/v1/processes/" + ref_segment(ref))
        return Process(self, detail["process"])

    def processes(self, state: Sequence[str] = (), entry_point: str | None = None, limit: int = 100) -> list[Process]:
        """Processes, newest first."""
        found = []
        params = {"state": list(state) or None, "type": entry_point, "limit": min(limit, 1000)}
        for item in self._paged("/api/v1/processes", params):
            found.append(Process(self, item))
            if len(found) >= limit:
                break
        return found

    def events(self, process: NodeRef | None = None, tree: bool = False) -> Iterator[Event]:
        """State changes as they happen: of every process, or of one (its call tree with ``tree``)."""
        params: dict[str, Any] = {}
        if process is not None:
            params["tree" if tree else "process"] = self._uuid_of(process)
        return self._events(params)

    # --- groups

    def group(self, label: str) -> Group:
        from urllib.parse import quote

        return Group(self, self._http.get("/api/v1/groups/" + quote(label, safe="")))

    def groups(self) -> list[Group]:
        return [Group(self, g) for g in self._paged("/api/v1/groups", {"limit": 1000})]

    def create_group(self, label: str, description: str = "") -> Group:
        return Group(self, self._http.post("/api/v1/groups", {"label": label, "description": description}))

    # --- archives

    def export_archive(
        self,
        to: str | Path,
        *,
        nodes: Sequence[NodeRef] = (),
        groups: Sequence[str] = (),
        everything: bool = False,
    ) -> Path:
        """Writes an archive of the nodes and groups (with their provenance) to ``to``, streaming."""
        params = {
            "node": [self._uuid_of(n) for n in nodes] or None,
            "group": list(groups) or None,
            "all": everything or None,
        }
        target = Path(to)
        with self._http.stream("GET", "/api/v1/archive", params=params, accept="application/octet-stream") as r:
            with open(target, "wb") as out:
                for chunk in r.iter_bytes(1 << 20):
                    out.write(chunk)
        return target

    def import_archive(self, path: str | Path, group_label: str | None = None) -> dict[str, Any]:
        """Imports an archive (Cairn's or AiiDA's), all or nothing; returns what it added."""
        with open(path, "rb") as handle:
            return dict(
                self._http.request(
                    "POST",
                    "/api/v1/archive",
                    params={"group_label": group_label},
                    content=_chunks(handle),
                    headers={"Content-Type": "application/octet-stream", "Accept": "application/json"},
                )
            )

    # --- attribute indexes (role admin)

    def attribute_indexes(self) -> list[dict[str, Any]]:
        """The indexes declared on attributes of the nodes: key, type, name, state and size in bytes."""
        return list(self._http.get("/api/v1/storage/attribute-indexes")["items"])

    def add_attribute_index(self, key: str, type: str = "number") -> dict[str, Any]:
        """Builds an index on attribute ``key``'s values of ``type`` (number or string); returns it when built."""
        return dict(self._http.post("/api/v1/storage/attribute-indexes", {"key": key, "type": type}))

    def drop_attribute_index(self, key: str, type: str = "number") -> None:
        """Drops the index on attribute ``key``'s values of ``type``."""
        self._http.delete("/api/v1/storage/attribute-indexes", params={"key": key, "type": type})

    # --- helpers the other modules use

    def _paged(self, path: str, params: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        cursor: str | None = None
        while True:
            page = self._http.get(path, {**params, "cursor": cursor})
            yield from page.get("items") or []
            cursor = page.get("next")
            if not cursor:
                return

    def _events(self, params: Mapping[str, Any], deadline: float | None = None) -> Iterator[Event]:
        """The event stream; past ``deadline`` (a :func:`time.monotonic` time) it raises :class:`TimeoutError`."""
        timeout = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        with self._http.stream("GET", "/api/v1/events", params=params, accept="text/event-stream", timeout=timeout) as r:
            yield from parse_events(_until(r.iter_lines(), deadline))

    def _uuid_of(self, ref: NodeRef) -> str:
        if isinstance(ref, (Node, Process)):
            return ref.uuid
        if isinstance(ref, str) and len(ref) == 36:
            return ref
        return self.node(ref).uuid

    def _post_uploading(
        self, path: str, payload: Any, jobs: Sequence[tuple[dict[str, Any], Mapping[str, Path]]]
    ) -> Any:
        """Uploads each job's local files into its ``nodes``, then posts ``payload``. When the server refuses either,
        the files uploaded are deleted again, so that a refused launch stores nothing."""
        uploaded: list[str] = []
        try:
            for body, files in jobs:
                for name, file in files.items():
                    node = self.upload_file(file)
                    uploaded.append(node.uuid)
                    body["nodes"][name] = {"uuid": node.uuid}
            return self._http.post(path, payload)
        except CairnError as refusal:
            if uploaded and refusal.refused:
                self._discard(uploaded)
            raise

    def _discard(self, uuids: list[str]) -> None:
        try:
            self._http.delete("/api/v1/nodes", params={"node": uuids})
        except Exception as failure:  # the refusal that brought us here is what the caller must see
            warnings.warn(f"the files uploaded for the refused job stay, as the nodes {' '.join(uuids)}: {failure}")


def connect(url: str | None = None, token: str | None = None, *, profile: str | None = None) -> Client:
    """A :class:`Client`: ``connect()`` finds the server as the command line does."""
    return Client(url, token, profile=profile)


def _until(lines: Iterator[str], deadline: float | None) -> Iterator[str]:
    """The lines of a stream up to ``deadline``: the server's heartbeats end a read, so it is checked between
    lines; a read that waits past it (no heartbeat) ends as the same :class:`TimeoutError`."""
    import httpx

    try:
        for line in lines:
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError("the deadline passed while following the event stream")
            yield line
    except httpx.ReadTimeout as e:
        raise TimeoutError("the deadline passed while following the event stream") from e


def _chunks(handle: Any, size: int = 1 << 20) -> Iterator[bytes]:
    while True:
        chunk = handle.read(size)
        if not chunk:
            return
        yield chunk


