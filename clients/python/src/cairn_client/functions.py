"""Python functions recorded with full provenance: ``@cairn.calcfunction``.

The function runs here, in the caller's interpreter; the server records each call as a calcfunction of the
process type ``python:<module>.<name>`` with its inputs, its outputs and its source, and serves a call from
the cache when a finished run has the same inputs and the same source.
"""

from __future__ import annotations

import functools
import inspect
import traceback
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, NamedTuple, TypeVar

from .nodes import Node
from .processes import Process

if TYPE_CHECKING:
    from .client import Client

__all__ = ["ExitCode", "FunctionRun", "PythonFunction"]

#: The node types whose value a function body receives in place of the node.
_VALUE_TYPES = frozenset(
    {
        "data.core.int.Int.",
        "data.core.float.Float.",
        "data.core.str.Str.",
        "data.core.bool.Bool.",
        "data.core.dict.Dict.",
        "data.core.list.List.",
    }
)

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


class PythonFunction(Generic[R]):
    """A Python function whose calls are recorded: calling it returns its output node (named ``result``), a
    dict of output nodes when the function returns a dict (each value an output by its key), or the
    :class:`ExitCode` it returned. Inputs may be values or stored nodes; the body receives
    the values of Int, Float, Str, Bool, Dict and List nodes, and other nodes as :class:`Node` objects."""

    def __init__(self, client: Client, function: Callable[..., R], use_cache: bool | None, label: str | None):
        self._client = client
        self._function = function
        self._use_cache = use_cache
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

    def run(self, *args: Any, **kwargs: Any) -> FunctionRun:
        """Calls the function, or takes its outputs from the cache, and records the call."""
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        given = dict(bound.arguments)
        call: dict[str, Any] = {"function": self._identity, "inputs": {k: _input(k, v) for k, v in given.items()}}
        if self._label is not None:
            call["label"] = self._label
        if self._use_cache is not None:
            call["use_cache"] = self._use_cache
        reused = self._client._http.post("/api/v1/function-runs/reuse", call)
        if reused["hit"]:
            return self._run_of(reused["run"])
        values = {k: _value(v) for k, v in given.items()}
        body: dict[str, Any] = {"call": call}
        try:
            returned = self._function(**values)
        except Exception:
            body["exception"] = traceback.format_exc()
            self._client._http.post("/api/v1/function-runs", body)
            raise
        if isinstance(returned, ExitCode):
            body["exit_status"] = returned.status
            if returned.message:
                body["exit_message"] = returned.message
        elif isinstance(returned, Mapping):
            body["outputs"] = {str(k): _output(str(k), v) for k, v in returned.items()}
        elif returned is not None:
            body["outputs"] = {"result": _output("result", returned)}
        return self._run_of(self._client._http.post("/api/v1/function-runs", body))

    def _run_of(self, answer: Mapping[str, Any]) -> FunctionRun:
        outputs = {name: Node(self._client, data) for name, data in answer["outputs"].items()}
        return FunctionRun(Process(self._client, answer["process"]), outputs, answer.get("cached_from"))


def _input(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, (Node, Process)):
        return {"uuid": value.uuid}
    return _form(f"input {name!r}", value)


def _output(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, (Node, Process)):
        raise ValueError(
            f"output {name!r} is the stored node {value.uuid}: a calcfunction creates its outputs; return a value"
        )
    return _form(f"output {name!r}", value)


def _form(where: str, value: Any) -> dict[str, Any]:
    """A value in the typed form the server takes: ``{"type": "float", "value": 1.5}``."""
    from .client import _atoms_form, _is_atoms, _kind_of

    if _is_atoms(value):
        return {"type": "structure", "value": _atoms_form(value)}
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    try:
        return {"type": _kind_of(value), "value": value}
    except TypeError as e:
        raise TypeError(f"{where}: {e}") from None


def _value(value: Any) -> Any:
    """What the body receives: a plain node's value, another node as it is, a value as given."""
    if isinstance(value, Node) and value.node_type in _VALUE_TYPES:
        return value.value
    return value
