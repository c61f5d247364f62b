"""Python functions recorded with full provenance: ``@cairn.calcfunction``.

The function runs here, in the caller's interpreter; the server records each call as a calcfunction of the
process type ``python:<module>.<name>`` with its inputs, its outputs and its source, and serves a call from
the cache when a finished run has the same inputs and the same source.
"""

from __future__ import annotations

import functools
import inspect
import json
import tempfile
import traceback
import warnings
from abc import ABC, abstractmethod
from contextlib import ExitStack
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, NamedTuple, Sequence, TypeVar

from ._arrays import DEFAULT, is_array, save
from ._calling import called, current_run
from ._forms import value_form
from .errors import CairnError
from .nodes import ARRAY_TYPE, Node
from .processes import Process

if TYPE_CHECKING:
    from .client import Client

__all__ = ["ExitCode", "FunctionRun", "PythonFunction", "WorkflowFunction"]

#: The node types whose value a function body receives in place of the node.
_VALUE_TYPES = frozenset(
    {
        "data.core.int.Int.",
        "data.core.float.Float.",
        "data.core.str.Str.",
        "data.core.bool.Bool.",
        "data.core.dict.Dict.",
        "data.core.list.List.",
        ARRAY_TYPE,
    }
)

_SINGLEFILE = "data.core.singlefile.SinglefileData."
_FOLDER = "data.core.folder.FolderData."

R = TypeVar("R")


class ExitCode(NamedTuple):
    """What a function returns to say it failed: the run is recorded finished with this status, no outputs."""

    status: int
    message: str = ""


class FunctionRun(NamedTuple):
    """One recorded call: its process, its outputs by name, and the run it was copied from (None when it ran)."""

    process: Process
    outputs: dict[str, Node]
    cached_from: str | None


class _Recorded(ABC, Generic[R]):
    """A Python function whose calls the server records: what it is (its module, name and source) and how a
    call's answer reads."""

    def __init__(self, client: Client, function: Callable[..., R], label: str | None):
        self._client = client
        self._function = function
        self._label = label
        self._signature = inspect.signature(function)
        try:
            source: str | None = inspect.getsource(function)
        except (OSError, TypeError):  # defined at a prompt: the cache then knows it by name alone
            source = None
        self._identity = {"module": function.__module__, "name": function.__qualname__, "source": source}
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        run = self.run(*args, **kwargs)
        if run.process.exit_status:
            return ExitCode(run.process.exit_status)
        if set(run.outputs) == {"result"}:
            return run.outputs["result"]
        return run.outputs

    @abstractmethod
    def run(self, *args: Any, **kwargs: Any) -> FunctionRun:
        """Calls the function and records the call."""

    def _arguments(self, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """The call's arguments by parameter name, defaults filled in."""
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return dict(bound.arguments)

    def _call(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """The call as the server takes it: the function, its inputs, its label and its caller."""
        call: dict[str, Any] = {"function": self._identity, "inputs": dict(inputs)}
        if self._label is not None:
            call["label"] = self._label
        return called(call)

    def _run_of(self, answer: Mapping[str, Any]) -> FunctionRun:
        outputs = {name: Node(self._client, data) for name, data in answer["outputs"].items()}
        return FunctionRun(Process(self._client, answer["process"]), outputs, answer.get("cached_from"))


class PythonFunction(_Recorded[R]):
    """A Python function whose calls are recorded as calcfunctions: calling it returns its output node (named
    ``result``), a dict of output nodes when the function returns a dict (each value an output by its key), or the
    :class:`ExitCode` it returned. Inputs may be values, NumPy arrays, stored nodes or files and folders (a
    :class:`pathlib.Path`): arrays and paths are uploaded first. The body receives the values of Int, Float,
    Str, Bool, Dict and List nodes, the array of an ArrayData, an array or a path as it was given, a local
    copy of a file or folder node (a path, removed after the call), and other nodes as :class:`Node` objects.
    An array returned is an ArrayData output, a path a file (SinglefileData) or folder (FolderData) output,
    their content sent with the record."""

    def __init__(self, client: Client, function: Callable[..., R], use_cache: bool | None, label: str | None):
        super().__init__(client, function, label)
        self._use_cache = use_cache
        # whether a call asks the cache first: not when it may not be served from it (use_cache=False, or the
        # server said its caching is off for the function), which spares a request a call
        self._asks_cache = use_cache is not False

    def run(self, *args: Any, **kwargs: Any) -> FunctionRun:
        """Calls the function, or takes its outputs from the cache, and records the call."""
        given = self._arguments(args, kwargs)
        uploads = _Uploads(self._client)
        call = self._call({k: uploads.input(k, v) for k, v in given.items()})
        if self._use_cache is not None:
            call["use_cache"] = self._use_cache
        if self._asks_cache:
            reused = uploads.post("/api/v1/function-runs/reuse", call)
            if reused["hit"]:
                return self._run_of(reused["run"])
            self._asks_cache = bool(reused.get("caching", True))
        with tempfile.TemporaryDirectory(prefix="cairn-function-") as workspace:
            values = {k: _value(v, Path(workspace) / k) for k, v in given.items()}
            body: dict[str, Any] = {"call": call}
            try:
                returned = self._function(**values)
            except Exception:
                body["exception"] = traceback.format_exc()
                uploads.post("/api/v1/function-runs", body)
                raise
            files: list[tuple[str, str, Path]] = []
            saved = Path(workspace) / "-outputs"  # no input is named so: a name is an identifier
            if isinstance(returned, ExitCode):
                body["exit_status"] = returned.status
                if returned.message:
                    body["exit_message"] = returned.message
            elif isinstance(returned, Mapping):
                body["outputs"] = {str(k): _output(str(k), v, files, saved) for k, v in returned.items()}
            elif returned is not None:
                body["outputs"] = {"result": _output("result", returned, files, saved)}
            return self._run_of(uploads.post("/api/v1/function-runs", body, files))


class WorkflowFunction(_Recorded[R]):
    """A Python function that calls recorded functions, recorded as a workflow (AiiDA's workfunction): each call
    opens a run on the server, the calcfunctions and workflow functions the body calls are linked to it as its
    calls, and what it returns (nodes its calls made, or its inputs) is linked as its returns. Calling it returns
    its output node (``result``), a dict of output nodes, or the :class:`ExitCode` it returned.

    Its body receives nodes, as a workfunction's does, not their values: the functions it calls then link the
    very nodes it was given (``x.value`` reads a value). Arguments that are not nodes are stored first. A
    workflow creates no data: a value to return is computed by a calcfunction it calls. It is not taken from the
    cache; the calcfunctions it calls may be. An exception in the body ends the run excepted and is raised
    again; a run killed meanwhile refuses the calls and the ending that come after (:class:`Conflict`)."""

    def run(self, *args: Any, **kwargs: Any) -> FunctionRun:
        """Opens the run, runs the body in it, and ends it with what the body returned or raised."""
        uploads = _Uploads(self._client)
        nodes = {name: uploads.node(value) for name, value in self._arguments(args, kwargs).items()}
        call = self._call({k: {"uuid": n.uuid} for k, n in nodes.items()})
        run = uploads.post("/api/v1/function-runs/workflows", call)["uuid"]
        end = f"/api/v1/function-runs/workflows/{run}/end"
        entered = current_run.set(run)
        try:
            returned = self._function(**nodes)
            ending = _workflow_ending(returned)
        except Exception:
            try:
                self._client._http.post(end, {"exception": traceback.format_exc()})
            except CairnError as failure:  # the body's exception is what the caller must see
                warnings.warn(f"the run {run} could not be ended as excepted: {failure}")
            raise
        finally:
            current_run.reset(entered)
        return self._run_of(self._client._http.post(end, ending))


def _workflow_ending(returned: Any) -> dict[str, Any]:
    """How a workflow's body ended, as the server takes it: the nodes it returned, or the exit code."""
    if isinstance(returned, ExitCode):
        return {"exit_status": returned.status, **({"exit_message": returned.message} if returned.message else {})}
    if returned is None:
        return {}
    given = returned if isinstance(returned, Mapping) else {"result": returned}
    outputs = {}
    for name, value in given.items():
        if not isinstance(value, Node):
            raise TypeError(
                f"output {str(name)!r} of a workflow function is a {type(value).__name__}: a workflow returns nodes"
                " that the functions it called made, or its inputs; compute a new value in a calcfunction"
            )
        outputs[str(name)] = {"uuid": value.uuid}
    return {"outputs": outputs}


class _Uploads:
    """The files a call uploads as its inputs, deleted again when the server refuses the call, so that a refused
    call stores nothing."""

    def __init__(self, client: Client):
        self._client = client
        self._uuids: list[str] = []

    def node(self, value: Any) -> Node:
        """``value`` as a stored node: itself, or uploaded."""
        if isinstance(value, Node):
            return value
        if isinstance(value, Process):
            raise TypeError(f"{value.uuid} is a process: a function takes data")
        node = self._client.upload(Path(value) if isinstance(value, PurePath) else value)
        self._uuids.append(node.uuid)
        return node

    def input(self, name: str, value: Any) -> dict[str, Any]:
        if isinstance(value, (Node, Process)):
            return {"uuid": value.uuid}
        if isinstance(value, PurePath) or is_array(value):
            return {"uuid": self.node(value).uuid}
        return _form(f"input {name!r}", value)

    def post(self, path: str, body: Mapping[str, Any], files: Sequence[tuple[str, str, Path]] = ()) -> Any:
        """The server's answer to ``body``, sent with the outputs' ``files`` (output, path in it, local file)."""
        try:
            if not files:
                return self._client._http.post(path, body)
            with ExitStack() as handles:
                parts: list[tuple[str, Any]] = [("run", (None, json.dumps(body), "application/json"))]
                for output, name, file in files:
                    handle = handles.enter_context(open(file, "rb"))
                    parts.append(("files", (f"{output}/{name}", handle, "application/octet-stream")))
                return self._client._http.request("POST", path, files=parts)
        except CairnError as refusal:
            if self._uuids and refusal.refused:
                self._client._discard(self._uuids)
            raise


def _files_of(local: Path) -> list[tuple[str, Path]]:
    """A file by its name, or a folder's files by their paths in it."""
    if local.is_dir():
        return [(f.relative_to(local).as_posix(), f) for f in sorted(local.rglob("*")) if f.is_file()]
    return [(local.name, local)]


def _output(name: str, value: Any, files: list[tuple[str, str, Path]], saved: Path) -> dict[str, Any]:
    """An output's typed form; the files it is made of are added to ``files``, an array saved in ``saved``."""
    if isinstance(value, (Node, Process)):
        raise ValueError(
            f"output {name!r} is the stored node {value.uuid}: a calcfunction creates its outputs; return a value"
        )
    if isinstance(value, PurePath):
        local = Path(value)
        if not local.exists():
            raise FileNotFoundError(f"output {name!r}: {local} does not exist")
        files.extend((name, path, file) for path, file in _files_of(local))
        return {"type": "folder" if local.is_dir() else "file"}
    if is_array(value):
        (saved / name).mkdir(parents=True)
        files.append((name, DEFAULT + ".npy", save(value, saved / name / (DEFAULT + ".npy"))))
        return {"type": "array"}
    return _form(f"output {name!r}", value)


def _form(where: str, value: Any) -> dict[str, Any]:
    """A value in the typed form the server takes, a refusal saying ``where`` it was."""
    try:
        return value_form(value)
    except TypeError as e:
        raise TypeError(f"{where}: {e}") from None


def _value(value: Any, workspace: Path) -> Any:
    """What the body receives: a plain node's value, a file or folder node's files as a local path (in
    ``workspace``, gone after the call), another node as it is, a value as given."""
    if not isinstance(value, Node):
        return value
    if value.node_type in _VALUE_TYPES:
        return value.value
    if value.node_type == _SINGLEFILE:
        workspace.mkdir()
        return value.download(workspace)
    if value.node_type == _FOLDER:
        workspace.mkdir()
        for entry in value.files(recursive=True):
            if entry["type"] == "file":
                target = workspace / entry["path"]
                if not target.resolve().is_relative_to(workspace.resolve()):
                    raise ValueError(f"{value.uuid} has a file outside its folder: {entry['path']!r}")
                target.parent.mkdir(parents=True, exist_ok=True)
                value.download(target, entry["path"])
        return workspace
    return value
