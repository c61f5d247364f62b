"""Processes: their state, inputs and outputs, live events, and pause, play and kill."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Iterator, Mapping, NamedTuple

from . import errors
from .nodes import Node

if TYPE_CHECKING:
    from .client import Client

__all__ = ["Process", "Event", "TERMINAL"]

#: The states a process ends in.
TERMINAL = frozenset({"finished", "excepted", "killed"})


class Event(NamedTuple):
    """One state change of a process, as the server's event stream sends it."""

    event_id: int
    process: str
    entry_point: str
    caller: str | None
    from_state: str
    to_state: str
    exit_status: int | None
    time: str
    #: For a calculation job's move in its batch system (the process stays ``waiting``): the scheduler
    #: states left and entered, ``(None, "queued")`` for the first one; else None.
    scheduler: tuple[str | None, str] | None = None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Event:
        move = data.get("scheduler")
        return Event(
            int(data.get("event_id") or 0),
            str(data.get("process", "")),
            str(data.get("entry_point", "")),
            None if data.get("caller") is None else str(data["caller"]),
            str(data.get("from", "")),
            str(data.get("to", "")),
            None if data.get("exit_status") is None else int(data["exit_status"]),
            str(data.get("time", "")),
            _move(move) if isinstance(move, Mapping) else None,
        )

    @property
    def ended(self) -> bool:
        return self.to_state in TERMINAL


def _move(move: Mapping[str, Any]) -> tuple[str | None, str]:
    left = move.get("from")
    return (None if left is None else str(left), str(move.get("to", "")))


class Process:
    """A process on the server; :meth:`refresh` (and :meth:`wait`) read its state again."""

    def __init__(self, client: Client, summary: Mapping[str, Any]):
        self._client = client
        self._summary = dict(summary)
        self._detail: dict[str, Any] | None = None

    @property
    def uuid(self) -> str:
        return str(self._summary["uuid"])

    @property
    def pk(self) -> int:
        return int(self._summary["pk"])

    @property
    def entry_point(self) -> str:
        return str(self._summary.get("entry_point", ""))

    @property
    def state(self) -> str:
        return str(self._summary.get("state", ""))

    @property
    def paused(self) -> bool:
        return bool(self._summary.get("paused"))

    @property
    def exit_status(self) -> int | None:
        value = self._summary.get("exit_status")
        return None if value is None else int(value)

    @property
    def ended(self) -> bool:
        return self.state in TERMINAL

    @property
    def ok(self) -> bool:
        """Whether it finished with exit status 0."""
        return self.state == "finished" and self.exit_status == 0

    def refresh(self) -> Process:
        self._detail = self._client._http.get(self._path())
        self._summary = dict(self._detail["process"])
        return self

    def detail(self) -> dict[str, Any]:
        """Everything the server says of it: inputs, outputs, caller, called, exit code, job."""
        return dict(self.refresh()._detail or {})

    @property
    def exit_message(self) -> str:
        code = self.detail().get("exit_code") or {}
        return str(code.get("message") or "")

    def inputs(self) -> dict[str, Node]:
        return {port: self._client.node(ref["uuid"]) for port, ref in (self.detail().get("inputs") or {}).items()}

    def outputs(self) -> dict[str, Node]:
        """Its outputs by port, each a :class:`Node` (read on use)."""
        return {port: self._client.node(ref["uuid"]) for port, ref in (self.detail().get("outputs") or {}).items()}

    def node(self) -> Node:
        return self._client.node(self.uuid)

    def report(self) -> list[dict[str, Any]]:
        """Its log and its children's."""
        return list(self._client._http.get(self._path() + "/report") or [])

    # --- following

    def events(self, tree: bool = False, from_start: bool = True) -> Iterator[Event]:
        """Its state changes as they happen (of its whole call tree with ``tree``), ending with its end.

        The server keeps them: from the start, the changes made before this call come first."""
        params = {"tree" if tree else "process": self.uuid, "last_event_id": "0" if from_start else None}
        for event in self._client._events(params):
            yield event
            if event.process == self.uuid and event.ended:
                self._summary["state"] = event.to_state
                self._summary["exit_status"] = event.exit_status
                return

    def wait(self, timeout: float | None = None) -> Process:
        """Waits until it ends (reading its event stream) and returns it, refreshed.

        :raises TimeoutError: when it has not ended after ``timeout`` seconds"""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.refresh().ended:
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"process {self.uuid} has not ended after {timeout} s (it is {self.state})")
            # from the first event: an end between the refresh and the subscription is replayed, not missed
            params = {"process": self.uuid, "last_event_id": "0"}
            try:
                for event in self._client._events(params, deadline=deadline):
                    if event.process == self.uuid and event.ended:
                        break
            except (errors.Unavailable, TimeoutError):
                # the stream broke with the server's broker, or the deadline passed: ask again
                pass
        return self

    # --- control

    def pause(self) -> Process:
        self._control("pause")
        return self

    def play(self) -> Process:
        self._control("play")
        return self

    def kill(self) -> Process:
        """Kills it and its live descendants."""
        self._control("kill")
        return self

    def clean_workdir(self, dry_run: bool = False) -> list[dict[str, Any]]:
        """Removes the working folders its calculation jobs left on their computers (its own, for a job; those
        of every job it called, for a workflow); returns each job's outcome ("cleaned", "would clean" with
        ``dry_run``, "skipped" or "failed", with why). A job still running, or of a workflow still running, is
        left alone."""
        report = self._client._http.post(
            "/api/v1/processes/clean-workdir", {"processes": [self.uuid]}, params={"dry_run": str(dry_run).lower()}
        )
        return list(report["jobs"])

    def _control(self, action: str) -> None:
        self._client._http.post(self._path() + "/" + action)
        self.refresh()

    def _path(self) -> str:
        return "/api/v1/processes/" + self.uuid

    def __repr__(self) -> str:
        status = "" if self.exit_status is None else f" [{self.exit_status}]"
        return f"<Process {self.entry_point} pk={self._summary.get('pk')} {self.state}{status}>"


def parse_events(lines: Iterator[str]) -> Iterator[Event]:
    """Server-Sent Events into :class:`Event`: ``data:`` lines up to a blank line make one event."""
    data: list[str] = []
    for line in lines:
        if line == "":
            if data:
                payload = "\n".join(data)
                data = []
                try:
                    parsed = json.loads(payload)
                except ValueError:
                    continue
                if isinstance(parsed, dict) and "process" in parsed:
                    yield Event.of(parsed)
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data.append(value[1:] if value.startswith(" ") else value)
